"""The log's database going away while asks keep coming (PostgreSQL stopped; SQLite's disk
full): every ask is answered at once, the failures are counted and logged once, and what was
held meanwhile is written when the database is back."""

from __future__ import annotations

import logging
import re
import threading
import time

import pytest

from service.asklog import writer
from tests.asklog.conftest import answer, rows, wait_for

ASKERS = 4


class Askers:
    """Threads recording asks continuously, each call timed."""

    def __init__(self, ask_log: writer.AskLog):
        self.log, self.ids, self.errors = ask_log, [], []
        self._lock, self._stop = threading.Lock(), threading.Event()
        self._threads = [
            threading.Thread(target=self._ask, args=(n,), daemon=True) for n in range(ASKERS)
        ]

    def _ask(self, n: int) -> None:
        i = 0
        while not self._stop.is_set():
            i += 1
            try:
                ask_id = self.log.record(answer(f"asker {n}, question {i}"), "api", f"guild-{n}")
            except Exception as exc:  # noqa: BLE001 - the test's point: nothing may escape
                self.errors.append(exc)
                continue
            with self._lock:
                self.ids.append(ask_id)
            time.sleep(0.004)

    def __enter__(self) -> Askers:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=10)

    def count(self) -> int:
        with self._lock:
            return len(self.ids)


def test_asks_are_answered_while_the_database_is_away_and_written_when_it_is_back(
    log_db, make_log, caplog, monkeypatch
):
    monkeypatch.setattr(writer, "MAX_PAUSE", 1.0)  # try again often: the test waits for it
    failures: list[str] = []
    ask_log = make_log(log_db.url, key="k", on_failure=failures.append)
    first = ask_log.record(answer(), "api")
    assert ask_log.flush(timeout=30)  # the schema made, a connection in the pool
    caplog.set_level(logging.WARNING, logger="service.asklog.writer")

    with Askers(ask_log) as askers:
        assert wait_for(lambda: askers.count() > 20)
        with log_db.outage():
            # Two failed tries at least (the second after the first pause), asks held meanwhile.
            assert wait_for(lambda: failures.count("write") >= 2), "no write failed while away"
            at_failure = askers.count()
            assert wait_for(lambda: askers.count() > at_failure + 200)
        back = askers.count()
        assert wait_for(lambda: askers.count() > back + 20)

    assert not askers.errors
    assert len(askers.ids) == len(set(askers.ids)) and all(
        re.fullmatch(r"[0-9a-f]{32}", i) for i in askers.ids
    )
    assert len(askers.ids) < writer.MAX_PENDING  # so none may be dropped
    assert ask_log.flush(timeout=60), "the held asks were not written once it was back"
    stored = {r["id"]: r for r in rows(log_db.url, "asks")}
    assert set(stored) == {first, *askers.ids}
    assert {len(r["server"]) for i, r in stored.items() if i != first} == {32}
    assert set(failures) <= {"write", "retention"}  # counted, and nothing dropped
    # Tried again after growing pauses, not once per ask that came meanwhile.
    assert failures.count("write") <= 10 < back - at_failure
    messages = [r.getMessage() for r in caplog.records if r.name == "service.asklog.writer"]
    assert len([m for m in messages if "unavailable" in m]) == 1, messages  # once per outage
    assert len([m for m in messages if "writing again" in m]) == 1, messages


def test_past_max_pending_the_oldest_asks_are_dropped_and_counted(log_db, make_log, monkeypatch):
    monkeypatch.setattr(writer, "MAX_PENDING", 50)
    monkeypatch.setattr(writer, "MAX_PAUSE", 0.5)
    failures: list[str] = []
    ask_log = make_log(log_db.url, key="k", on_failure=failures.append)
    ask_log.record(answer(), "api")
    assert ask_log.flush(timeout=30)
    with log_db.outage():
        ids = [ask_log.record(answer(f"question {i}"), "api") for i in range(150)]
        assert wait_for(lambda: "dropped" in failures and "write" in failures)
        time.sleep(0.3)  # the thread takes the rest of the queue
    assert ask_log.flush(timeout=60)
    stored = {r["id"] for r in rows(log_db.url, "asks")}
    missing = [n for n, ask_id in enumerate(ids) if ask_id not in stored]
    # (A full SQLite file may still take the first few in its free space.)
    assert len(missing) == failures.count("dropped") >= 150 - 50 - 20
    assert missing == list(range(missing[0], missing[-1] + 1))  # the oldest held ones
    assert set(ids[-50:]) <= stored


@pytest.mark.parametrize("setting", ["postgresql://nobody@127.0.0.1:{port}/asks"])
def test_a_vote_while_the_database_is_away_is_refused_quickly(setting, make_log):
    from service.asklog import LogUnavailable, Vote
    from tests.conftest import free_port

    failures: list[str] = []
    ask_log = make_log(setting.format(port=free_port()), key="k", on_failure=failures.append)
    ask_id = ask_log.record(answer(), "api")
    assert wait_for(lambda: "write" in failures)
    with pytest.raises(LogUnavailable):
        ask_log.vote(Vote(ask_id, True))
    assert "vote" in failures


def test_record_never_opens_the_database_in_the_asking_thread(tmp_path, make_log, monkeypatch):
    # Without a configured key the server's hash needs the key kept in the database: it is
    # read by the log's own thread, so an ask never waits for a connection.
    opened_by: list[str] = []
    real = writer.open_database

    def spy(setting, **options):
        opened_by.append(threading.current_thread().name)
        return real(setting, **options)

    monkeypatch.setattr(writer, "open_database", spy)
    ask_log = make_log(str(tmp_path / "asks.sqlite3"))
    ids = [ask_log.record(answer(), "discord-gateway", "guild") for _ in range(3)]
    assert ask_log.flush(timeout=30)
    assert opened_by == ["ask-log"]
    assert {r["server"] for r in rows(str(tmp_path / "asks.sqlite3"), "asks")} == {
        ask_log.server_hash("guild")
    } and len(ids) == 3
