"""The question log through the HTTP app (over the fake embedder: no model): what /v1/ask and
/v1/feedback leave in each database, the log turned off, and the log's database unreachable."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from service.settings import Settings
from tests.asklog.conftest import rows, wait_for
from tests.conftest import free_port

DAMAGE = "Frosthaven: I have Shield 2 and Ward and take an attack of 8, how much damage?"
CLIENT = {"REMOTE_ADDR": "203.0.113.7"}  # a client address (documentation range)
FORWARDED = {"X-Forwarded-For": "198.51.100.23"}
ADDRESSES = ("203.0.113", "198.51.100", "127.0.0.1")


@pytest.fixture()
def log_app(fake_engine) -> Iterator[Any]:
    """``log_app(setting)``: the app over the fake engine, its question log at `setting`."""
    from service.http.app import create_app

    made = []

    def make(setting: str, **config: Any):
        app = create_app({"TESTING": True, "ASK_LOG": setting, **config})
        app.extensions["rulings_engine"] = fake_engine
        made.append(app)
        return app

    yield make
    for app in made:
        if app.extensions.get("rulings_ask_log"):
            app.extensions["rulings_ask_log"].close(timeout=1)


def sample(text: str, name: str, **labels: str) -> float:
    """One sample's value in Prometheus text (0 when the series is absent)."""
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return s.value
    return 0.0


def test_an_ask_is_logged_with_what_was_answered_and_no_address(log_db, log_app):
    app = log_app(log_db.url)
    client = app.test_client()
    before = datetime.now(UTC)
    body = client.get(
        "/v1/ask",
        query_string={"q": DAMAGE},
        headers={"X-Rulings-Client": "page", **FORWARDED},
        environ_base=CLIENT,
    ).get_json()
    bot = {"X-Rulings-Client": "discord-gateway", "X-Rulings-Server": "112233445566778899"}
    from_bot = [
        client.post("/v1/ask", json={"question": f"Shield and Ward {i}"}, headers=bot).get_json()
        for i in range(2)
    ]
    other = client.post("/v1/ask", json={"question": "Ward?"}, headers={"X-Rulings-Client": "x"})
    assert app.extensions["rulings_ask_log"].flush(timeout=30)
    stored = {r["id"]: r for r in rows(log_db.url, "asks")}

    row = stored[body["ask_id"]]
    assert before <= (row["asked_at"].replace(tzinfo=UTC)) <= datetime.now(UTC)
    assert (row["question"], row["lang"], row["game"]) == (DAMAGE, body["lang"], body["game"])
    assert (row["declined"], row["reason_code"]) == (body["declined"], body["reason_code"])
    assert row["answer"] == (body["answer"] or {}).get("id")
    assert row["matches"] == [{"id": m["id"], "score": m["score"]} for m in body["matches"]]
    assert row["score"] == body["matches"][0]["score"]
    assert (row["computed"], row["channel"], row["server"]) == ("damage", "page", None)

    servers = {stored[b["ask_id"]]["server"] for b in from_bot}
    assert len(servers) == 1 and re.fullmatch(r"[0-9a-f]{32}", servers.pop())
    assert {stored[b["ask_id"]]["channel"] for b in from_bot} == {"discord-gateway"}
    assert stored[other.get_json()["ask_id"]]["channel"] == "api"  # an unknown client: the API
    # No client address anywhere in the log, nor the Discord server's id.
    for table in ("asks", "feedback", "reviews", "meta"):
        for record in rows(log_db.url, table):
            text = repr(record)
            assert not any(a in text for a in ADDRESSES) and "112233445566778899" not in text
    assert not any(re.search(r"addr|ip$|^ip|host|user", column) for column in row)


def test_feedback_right_after_an_ask_is_recorded(log_db, log_app):
    client = log_app(log_db.url).test_client()
    for helpful in (True, False):
        ask_id = client.get("/v1/ask", query_string={"q": "Shield before Ward?"}).get_json()[
            "ask_id"
        ]
        res = client.post(
            "/v1/feedback",
            json={"ask_id": ask_id, "helpful": helpful, "ruling": "fh-clar-10", "note": "n"},
            environ_base=CLIENT,
        )
        assert res.status_code == 200 and res.get_json()["recorded"] is True
    votes = rows(log_db.url, "feedback")
    assert [(v["helpful"], v["ruling"], v["note"]) for v in votes] == [
        (True, "fh-clar-10", "n"),
        (False, "fh-clar-10", "n"),
    ]
    assert not any(a in repr(votes) for a in ADDRESSES)
    unknown = client.post("/v1/feedback", json={"ask_id": "a" * 32, "helpful": True})
    assert unknown.status_code == 404 and unknown.get_json()["error"]["code"] == "not_found"


def test_with_the_log_off_nothing_is_kept_and_asks_still_answer(fake_engine, tmp_path, monkeypatch):
    from service.http.app import create_app

    monkeypatch.chdir(tmp_path)  # where the default build/asks.sqlite3 would go
    monkeypatch.setenv("RULINGS_LOG", str(tmp_path / "asks.sqlite3"))
    for config in ({"ASK_LOG": "off"}, {"SETTINGS": Settings.load(RULINGS_LOG="OFF")}):
        app = create_app({"TESTING": True, **config})
        app.extensions["rulings_engine"] = fake_engine
        client = app.test_client()
        assert "rulings_ask_log" not in app.extensions
        got = client.get("/v1/ask", query_string={"q": "Shield before Ward?"})
        posted = client.post("/v1/ask", json={"question": DAMAGE})
        assert got.status_code == posted.status_code == 200
        assert got.get_json()["ask_id"] is None and posted.get_json()["ask_id"] is None
        vote = client.post("/v1/feedback", json={"ask_id": "a" * 32, "helpful": True})
        assert vote.status_code == 503 and vote.get_json()["error"]["code"] == "log_off"
    assert list(tmp_path.iterdir()) == []  # no file, no folder


def test_with_the_database_unreachable_asks_answer_and_metrics_count_it(log_app):
    # A PostgreSQL URL on a loopback port nothing listens on.
    app = log_app(f"postgresql://rulings@127.0.0.1:{free_port()}/asks")
    client = app.test_client()
    metric = lambda: sample(  # noqa: E731
        client.get("/metrics").get_data(as_text=True), "rulings_ask_log_failures_total"
    )
    before = metric()
    for i in range(25):
        res = client.get("/v1/ask", query_string={"q": f"Shield before Ward? (take {i})"})
        assert res.status_code == 200 and re.fullmatch(r"[0-9a-f]{32}", res.get_json()["ask_id"])
    assert wait_for(lambda: metric() > before)
    text = client.get("/metrics").get_data(as_text=True)
    assert sample(text, "rulings_ask_log_failures_total", stage="write") > 0
    vote = client.post("/v1/feedback", json={"ask_id": res.get_json()["ask_id"], "helpful": True})
    assert vote.status_code == 503 and vote.get_json()["error"]["code"] == "log_unavailable"
    assert client.get("/v1/games").status_code == 200  # the rest of the service is untouched
