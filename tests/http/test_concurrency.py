"""Many threads asking at once get exactly the answers serial calls get."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml

from tests.conftest import DEV_SET, REPO

pytestmark = pytest.mark.slow

THREADS = 8
PER_THREAD = 10


def questions() -> list[str]:
    # The shared dev set where it sits beside the repository; the project's own set otherwise.
    path = DEV_SET if DEV_SET.exists() else REPO / "bench" / "eval" / "own.yaml"
    items = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [item["q"] for item in items][: THREADS * PER_THREAD]


def summary(body: dict) -> tuple:
    return (
        body["declined"],
        body["answer"]["id"] if body["answer"] else None,
        tuple(m["id"] for m in body["matches"]),
        body["lang"],
        body["game"],
    )


def test_threads_match_serial(app):
    qs = questions()
    assert len(qs) >= 40
    serial_client = app.test_client()
    serial = {}
    for q in qs:
        resp = serial_client.post("/v1/ask", json={"question": q, "k": 5})
        assert resp.status_code == 200, resp.get_json()
        serial[q] = summary(resp.get_json())

    def worker(chunk: list[str]) -> dict[str, tuple]:
        client = app.test_client()  # one client per thread, like one connection per user
        out = {}
        for q in chunk:
            resp = client.post("/v1/ask", json={"question": q, "k": 5})
            assert resp.status_code == 200, resp.get_json()
            out[q] = summary(resp.get_json())
        return out

    # Interleave: each thread gets every THREADS-th question, so neighbours run at once.
    chunks = [qs[i::THREADS] for i in range(THREADS)]
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        results = list(pool.map(worker, chunks))
    concurrent = {q: s for part in results for q, s in part.items()}
    assert concurrent.keys() == serial.keys()
    diffs = {q: (serial[q], concurrent[q]) for q in qs if serial[q] != concurrent[q]}
    assert not diffs, diffs


def test_threads_same_question(app):
    """All threads asking the same question at the same moment get one identical answer."""
    q = questions()[0]
    expected = summary(app.test_client().post("/v1/ask", json={"question": q}).get_json())

    def worker(_):
        client = app.test_client()
        return [summary(client.post("/v1/ask", json={"question": q}).get_json()) for _ in range(3)]

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        got = [s for part in pool.map(worker, range(THREADS)) for s in part]
    assert set(got) == {expected}


def test_threads_mixed_endpoints(app):
    """Reads of other endpoints interleaved with asks do not disturb either."""
    qs = questions()[:16]
    client = app.test_client()
    serial = [summary(client.post("/v1/ask", json={"question": q}).get_json()) for q in qs]
    games = client.get("/v1/games").get_json()
    errata = client.get("/v1/rulings?card=item%20225").get_json()

    def worker(i):
        c = app.test_client()
        if i % 2:
            return (
                "ask",
                i // 2,
                summary(c.post("/v1/ask", json={"question": qs[i // 2]}).get_json()),
            )
        return (
            "read",
            i // 2,
            (c.get("/v1/games").get_json(), c.get("/v1/rulings?card=item%20225").get_json()),
        )

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for kind, i, value in pool.map(worker, range(2 * len(qs))):
            if kind == "ask":
                assert value == serial[i]
            else:
                assert value == (games, errata)
