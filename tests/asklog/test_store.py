"""The question log's store, each test against a SQLite file and a PostgreSQL database: the
schema's migrations, what an ask and a vote leave behind, and retention."""

from __future__ import annotations

import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert, inspect

from service.asklog import AskLog, UnknownAsk, Vote, store
from service.asklog.writer import entry_of
from tests.asklog.conftest import answer, rows, wait_for

VERSION = len(store.MIGRATIONS)


def schema(setting: str) -> dict:
    """The tables, their columns and indexes, and the meta rows: what a migration may change."""
    engine = store.open_database(setting)
    try:
        look = inspect(engine)
        tables = {
            name: (
                sorted((c["name"], str(c["type"]), c["nullable"]) for c in look.get_columns(name)),
                sorted((i["name"], tuple(i["column_names"])) for i in look.get_indexes(name)),
            )
            for name in look.get_table_names()
        }
    finally:
        engine.dispose()
    return {"tables": tables, "meta": sorted((r["key"], r["value"]) for r in rows(setting, "meta"))}


def aware(moment: datetime) -> datetime:
    """SQLite hands back the UTC times it stored without their zone."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# -- migrations -------------------------------------------------------------------------------
def test_a_fresh_database_gets_the_schema_and_opening_again_changes_nothing(log_db, caplog):
    caplog.set_level(logging.INFO, logger="service.asklog.store")
    engine = store.open_database(log_db.url)
    assert store.migrate(engine) == VERSION
    first = schema(log_db.url)
    assert {"meta", "asks", "feedback", "reviews"} <= set(first["tables"])
    assert ("schema_version", str(VERSION)) in first["meta"]
    assert f"version 0 -> {VERSION}" in caplog.text
    store.write_asks(engine, [entry_of(answer(), "api", None)])
    engine.dispose()

    caplog.clear()
    again = store.open_database(log_db.url)
    assert store.migrate(again) == VERSION
    again.dispose()
    assert schema(log_db.url) == first and "schema" not in caplog.text
    assert len(rows(log_db.url, "asks")) == 1  # the data is untouched


def test_logs_opening_together_do_not_fail(log_db, make_log):
    # Six at once on a new database, again and again: the races are in the first moments
    # (SQLite's are cheap to try often, and are the likelier: no advisory lock).
    rounds = 25 if log_db.kind == "sqlite" else 3
    for setting in [log_db.url] + [log_db.fresh() for _ in range(rounds - 1)]:
        start = threading.Barrier(6)

        def open_and_migrate(_: int, setting: str = setting, start=start) -> int:
            engine = store.open_database(setting)  # connects lazily: after the barrier
            start.wait()
            try:
                return store.migrate(engine)
            finally:
                engine.dispose()

        with ThreadPoolExecutor(6) as pool:
            assert list(pool.map(open_and_migrate, range(6))) == [VERSION] * 6
        assert [r["key"] for r in rows(setting, "meta")] == ["schema_version"]

    # Two logs on a database with no key yet, first used at once: one key is made and kept.
    setting = log_db.fresh()
    logs = [make_log(setting) for _ in range(2)]
    both = threading.Barrier(2)

    def ask(ask_log: AskLog) -> str:
        both.wait()
        ask_id = ask_log.record(answer(), "discord-gateway", "guild-1")
        assert ask_log.flush(timeout=30)
        return ask_id

    with ThreadPoolExecutor(2) as pool:
        ids = list(pool.map(ask, logs))
    servers = {r["id"]: r["server"] for r in rows(setting, "asks")}
    assert servers[ids[0]] == servers[ids[1]] and len(servers[ids[0]]) == 32
    assert [r["key"] for r in rows(setting, "meta")].count("server_key") == 1


# -- what an ask leaves ---------------------------------------------------------------------
def test_an_entry_keeps_every_field_of_the_answer(log_db, make_log):
    ask_log = make_log(log_db.url, key="k")
    before = datetime.now(UTC)
    answered = answer(computed={"check": "damage", "result": {"damage": 6}})
    declined = answer(
        "Root: can a Vagabond move twice?",
        game=None,
        declined=True,
        reason_code="other_game",
        answer=None,
        matches=[],
    )
    ids = [ask_log.record(answered, "page"), ask_log.record(declined, "no-such-channel")]
    assert ask_log.flush(timeout=30)
    after = datetime.now(UTC)
    stored = {r["id"]: r for r in rows(log_db.url, "asks")}
    first, second = stored[ids[0]], stored[ids[1]]
    assert before <= aware(first["asked_at"]) <= after
    assert {k: v for k, v in first.items() if k != "asked_at"} == {
        "id": ids[0],
        "question": "Do I apply Shield before Ward?",
        "lang": "en",
        "game": "frosthaven",
        "declined": False,
        "reason_code": "answers",
        "answer": "fh-clar-10",
        "score": 0.91,
        "matches": [{"id": "fh-clar-10", "score": 0.91}, {"id": "fh-clar-11", "score": 0.52}],
        "computed": "damage",
        "channel": "page",
        "server": None,
    }
    assert second["declined"] is True and second["answer"] is None and second["score"] is None
    assert second["game"] is None and second["matches"] == [] and second["computed"] is None
    assert second["channel"] == "api"  # a channel the log does not know is the API's


def test_a_question_with_a_nul_character_is_kept(log_db, make_log):
    # PostgreSQL's text refuses NUL; the API lets one through inside a question.
    ask_log = make_log(log_db.url, key="k")
    ask_id = ask_log.record(answer("Shield\x00 before Ward?"), "api")
    after = ask_log.record(answer("and then?"), "api")
    assert ask_log.flush(timeout=30)
    stored = {r["id"]: r["question"] for r in rows(log_db.url, "asks")}
    assert stored[ask_id].startswith("Shield") and "\x00" not in stored[ask_id]
    assert stored[after] == "and then?"  # the batch after it is written too


def test_a_discord_server_is_kept_only_as_a_keyed_hash(log_db, make_log):
    ask_log = make_log(log_db.url, key="key-1")
    same = make_log(log_db.url, key="key-1")
    other_key = make_log(log_db.url, key="key-2")
    server = "112233445566778899"
    hashed = ask_log.server_hash(server)
    assert len(hashed) == 32 and int(hashed, 16) >= 0 and server not in hashed
    assert same.server_hash(server) == hashed != ask_log.server_hash("998877665544332211")
    assert other_key.server_hash(server) != hashed
    ask_id = ask_log.record(answer(), "discord-gateway", server)
    assert ask_log.flush(timeout=30)
    (row,) = [r for r in rows(log_db.url, "asks") if r["id"] == ask_id]
    assert row["server"] == hashed and row["channel"] == "discord-gateway"

    # Without a configured key one is made once and kept in the database for the next start.
    unkeyed = make_log(log_db.url)
    assert unkeyed.server_hash(server) == make_log(log_db.url).server_hash(server) != hashed


# -- votes ------------------------------------------------------------------------------------
def test_a_vote_on_a_known_ask_is_kept_and_on_an_unknown_one_refused(log_db, make_log):
    ask_log = make_log(log_db.url, key="k")
    ask_id = ask_log.record(answer(), "api")
    ask_log.vote(Vote(ask_id, True, "fh-clar-10", "clear"))  # at once: the ask is flushed first
    (vote,) = rows(log_db.url, "feedback")
    assert (vote["ask_id"], vote["helpful"], vote["ruling"], vote["note"]) == (
        ask_id,
        True,
        "fh-clar-10",
        "clear",
    )
    with pytest.raises(UnknownAsk):
        ask_log.vote(Vote("0" * 32, False))
    assert len(rows(log_db.url, "feedback")) == 1


def test_a_vote_right_after_its_ask_always_finds_it(log_db, make_log):
    ask_log = make_log(log_db.url, key="k")
    for i in range(60):  # the writer races the vote each time
        ask_log.vote(Vote(ask_log.record(answer(f"question {i}"), "api"), i % 2 == 0))
    assert len(rows(log_db.url, "feedback")) == 60


def test_a_vote_reaching_another_worker_finds_the_ask_it_has_not_written_yet(log_db, make_log):
    """Two gunicorn workers: the ask queued in one, its vote taken by the other at once (the
    first still lingering before its write). CI saw this answer 404 once."""
    asking, voting = make_log(log_db.url, key="k"), make_log(log_db.url, key="k")
    voting.flush()  # the voter's database is open, as in a worker that has served before
    for i in range(5):
        voting.vote(Vote(asking.record(answer(f"question {i}"), "api"), True))
    assert len(rows(log_db.url, "feedback")) == 5


# -- retention --------------------------------------------------------------------------------
def test_entries_older_than_the_retention_go_with_their_votes_and_reviews(log_db, make_log):
    engine = store.open_database(log_db.url)
    store.migrate(engine)
    now = datetime.now(UTC)
    entries = {
        age: replace(
            entry_of(answer(f"asked {age} days ago"), "api", None),
            asked_at=now - timedelta(days=age),
        )
        for age in (400, 91, 89, 0)
    }
    store.write_asks(engine, entries.values())
    for e in entries.values():
        assert store.write_vote(engine, Vote(e.id, True))
    with engine.begin() as conn:
        conn.execute(
            insert(store.reviews),
            [{"ask_id": e.id, "at": now, "action": "dismissed"} for e in entries.values()],
        )
    assert store.forget_before(engine, 90) == 2
    kept = {entries[89].id, entries[0].id}
    assert {r["id"] for r in rows(log_db.url, "asks")} == kept
    assert {r["ask_id"] for r in rows(log_db.url, "feedback")} == kept
    assert {r["ask_id"] for r in rows(log_db.url, "reviews")} == kept

    # The log itself forgets at start (then hourly, after writing), with its own number of days.
    store.write_asks(engine, [replace(entries[91], id="f" * 32)])
    engine.dispose()
    ask_log = make_log(log_db.url, days=30, key="k")
    new = ask_log.record(answer(), "api")
    assert ask_log.flush(timeout=30)
    assert wait_for(lambda: {r["id"] for r in rows(log_db.url, "asks")} == {entries[0].id, new})


# -- a forked worker --------------------------------------------------------------------------
def _ask_in_child(ask_log: AskLog, out) -> None:
    ask_id = ask_log.record(answer("asked in the worker"), "api")
    out.put((ask_id, ask_log.flush(timeout=30)))


def test_a_fork_waits_for_the_write_in_progress(log_db, make_log, monkeypatch):
    # Forked while the thread is inside the database driver, a child would get the driver's
    # own locks (SQLite's mutexes) held by a thread it does not have: the fork waits.
    from service.asklog import writer

    ask_log = make_log(log_db.url, key="k")
    inside, go_on, forked = threading.Event(), threading.Event(), threading.Event()
    real = writer.write_asks

    def slow_write(engine, entries):
        inside.set()
        go_on.wait(30)
        return real(engine, entries)

    monkeypatch.setattr(writer, "write_asks", slow_write)
    ask_log.record(answer(), "api")
    assert ask_log.flush(timeout=0.01) is False and inside.wait(30)

    def fork() -> None:
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        forked.set()
        os.waitpid(pid, 0)

    forking = threading.Thread(target=fork)
    forking.start()
    assert not forked.wait(1.0)  # the fork waits while the write is under way
    go_on.set()
    assert forked.wait(30)
    forking.join(30)
    assert ask_log.flush(timeout=30)


def test_a_forked_worker_writes_its_own_asks_and_the_parent_goes_on(log_db, make_log):
    import multiprocessing

    # As gunicorn does: the app (and its log, thread running, connection open) made first,
    # then the worker forked from it.
    ask_log = make_log(log_db.url, key="k")
    parent_first = ask_log.record(answer(), "api")
    assert ask_log.flush(timeout=30)
    fork = multiprocessing.get_context("fork")
    out = fork.Queue()
    child = fork.Process(target=_ask_in_child, args=(ask_log, out))
    child.start()
    child_id, child_flushed = out.get(timeout=60)
    child.join(timeout=30)
    assert child.exitcode == 0 and child_flushed
    parent_after = ask_log.record(answer(), "api")
    assert ask_log.flush(timeout=30)
    assert {r["id"] for r in rows(log_db.url, "asks")} == {parent_first, child_id, parent_after}
