"""The question log as the API meets it: `ask_id` on every answer, POST /v1/feedback, the
channel each client is logged under, nothing that names a person, and RULINGS_LOG=off."""

from __future__ import annotations

import sqlite3

import httpx
import pytest

from tests.conftest import serving


@pytest.fixture()
def logged_app(fake_engine, tmp_path):
    """The fast app (fake embedder) with a question log of its own."""
    from service.http.app import create_app

    app = create_app({"TESTING": True, "ASK_LOG": str(tmp_path / "asks.sqlite3")})
    app.extensions["rulings_engine"] = fake_engine
    yield app
    app.extensions["rulings_ask_log"].flush()


def _rows(app, table: str) -> list[sqlite3.Row]:
    app.extensions["rulings_ask_log"].flush()
    db = sqlite3.connect(app.config["ASK_LOG"])
    db.row_factory = sqlite3.Row
    try:
        return db.execute(f"SELECT * FROM {table}").fetchall()  # noqa: S608 (a fixed name)
    finally:
        db.close()


def test_every_ask_carries_an_id_and_is_logged_with_its_channel(logged_app):
    client = logged_app.test_client()
    page = client.post(
        "/v1/ask",
        json={"question": "How does the shield condition reduce damage?"},
        headers={"X-Rulings-Client": "page", "X-Forwarded-For": "203.0.113.7"},
    ).get_json()
    api = client.get("/v1/ask", query_string={"q": "initiative tie between monsters"}).get_json()
    odd = client.get(
        "/v1/ask", query_string={"q": "poison"}, headers={"X-Rulings-Client": "my-script"}
    ).get_json()
    ids = [page["ask_id"], api["ask_id"], odd["ask_id"]]
    assert all(isinstance(i, str) and len(i) == 32 for i in ids) and len(set(ids)) == 3
    rows = {r["id"]: r for r in _rows(logged_app, "asks")}
    assert [rows[i]["channel"] for i in ids] == ["page", "api", "api"]
    first = rows[page["ask_id"]]
    assert first["question"] == page["question"] and first["lang"] == page["lang"]
    assert bool(first["declined"]) == page["declined"]
    assert first["reason_code"] == page["reason_code"]
    assert (first["answer"] or None) == ((page["answer"] or {}).get("id"))
    # No client address, no header value: only what was asked and shown.
    dump = " ".join(str(v) for r in rows.values() for v in tuple(r))
    assert "203.0.113.7" not in dump and "127.0.0.1" not in dump and "my-script" not in dump


def test_a_gateway_ask_keeps_only_a_hash_of_its_server(logged_app):
    client = logged_app.test_client()
    headers = {"X-Rulings-Client": "discord-gateway", "X-Rulings-Server": "123456789012345678"}
    one = client.get("/v1/ask", query_string={"q": "poison"}, headers=headers).get_json()
    two = client.get("/v1/ask", query_string={"q": "shield"}, headers=headers).get_json()
    rows = {r["id"]: r for r in _rows(logged_app, "asks")}
    server = rows[one["ask_id"]]["server"]
    assert server == rows[two["ask_id"]]["server"] and len(server) == 32
    assert (
        "123456789012345678" not in server and rows[one["ask_id"]]["channel"] == "discord-gateway"
    )


def test_feedback_is_recorded_against_its_ask(logged_app):
    client = logged_app.test_client()
    ask = client.get("/v1/ask", query_string={"q": "shield and pierce"}).get_json()
    ruling = ask["matches"][0]["id"]
    response = client.post(
        "/v1/feedback",
        json={"ask_id": ask["ask_id"], "helpful": False, "ruling": ruling, "note": "not this one"},
    )
    assert response.status_code == 200
    assert response.get_json() == {
        "ask_id": ask["ask_id"],
        "helpful": False,
        "ruling": ruling,
        "recorded": True,
    }
    (vote,) = _rows(logged_app, "feedback")
    assert (vote["ask_id"], bool(vote["helpful"]), vote["ruling"], vote["note"]) == (
        ask["ask_id"],
        False,
        ruling,
        "not this one",
    )


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"ask_id": "0" * 32, "helpful": True}, 404, "no ask with id"),
        ({"ask_id": "not-an-id", "helpful": True}, 422, "32-hex-digit"),
        ({"helpful": True}, 422, "ask_id"),
        ({"ask_id": "0" * 32}, 422, "helpful"),
        ({"ask_id": "0" * 32, "helpful": "yes"}, 422, "'helpful' must be true or false"),
        ({"ask_id": "0" * 32, "helpful": 1}, 422, "'helpful' must be true or false"),
        ({"ask_id": "0" * 32, "helpful": True, "note": "x" * 1001}, 422, "at most 1000"),
        ({"ask_id": "0" * 32, "helpful": True, "ruling": "no-such"}, 404, "no ruling with id"),
        ({"ask_id": "0" * 32, "helpful": True, "who": "me"}, 422, "unknown field"),
    ],
)
def test_bad_feedback_gets_a_json_error(logged_app, body, status, message):
    response = logged_app.test_client().post("/v1/feedback", json=body)
    assert response.status_code == status
    assert message in response.get_json()["error"]["message"]


def test_with_the_log_off_asks_answer_and_nothing_is_written(fake_engine, tmp_path, monkeypatch):
    from service.http.app import create_app

    monkeypatch.chdir(tmp_path)  # the default log would be build/asks.sqlite3 here
    app = create_app({"TESTING": True, "ASK_LOG": "off"})
    app.extensions["rulings_engine"] = fake_engine
    client = app.test_client()
    answer = client.get("/v1/ask", query_string={"q": "poison"})
    assert answer.status_code == 200 and answer.get_json()["ask_id"] is None
    vote = client.post("/v1/feedback", json={"ask_id": "0" * 32, "helpful": True})
    assert vote.status_code == 503 and vote.get_json()["error"]["code"] == "log_off"
    assert list(tmp_path.iterdir()) == []


def test_the_real_server_logs_and_takes_votes(index_dir, tmp_path):
    """gunicorn (several threads), the real model: an ask, its vote, both in the log; and
    with RULINGS_LOG=off, no file at all."""
    log_file = tmp_path / "log" / "asks.sqlite3"
    settings = {"RULINGS_INDEX_DIR": str(index_dir), "RULINGS_LOG": str(log_file)}
    with serving(settings) as url:
        ask = httpx.get(
            f"{url}/v1/ask", params={"q": "Can monsters open doors?"}, timeout=120
        ).json()
        vote = httpx.post(
            f"{url}/v1/feedback", json={"ask_id": ask["ask_id"], "helpful": True}, timeout=30
        )
        assert vote.status_code == 200, vote.text
    db = sqlite3.connect(log_file)
    assert db.execute("SELECT question, channel FROM asks").fetchall() == [
        ("Can monsters open doors?", "api")
    ]
    assert db.execute("SELECT ask_id, helpful FROM feedback").fetchall() == [(ask["ask_id"], 1)]
    off = tmp_path / "off"
    off.mkdir()
    # Served from an empty folder: the default log (build/asks.sqlite3) would appear in it.
    with serving({**settings, "RULINGS_LOG": "off"}, cwd=off) as url:
        assert (
            httpx.get(f"{url}/v1/ask", params={"q": "poison"}, timeout=120).json()["ask_id"] is None
        )
    assert list(off.iterdir()) == []
