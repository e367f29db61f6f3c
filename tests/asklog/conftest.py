"""The question log's databases: a real PostgreSQL for the session, and `log_db`, which runs
each log test against both a fresh SQLite file and a fresh PostgreSQL database.

PostgreSQL comes from the machine (``pg_ctl`` on the PATH or Debian's
/usr/lib/postgresql/<version>/bin), else Debian's package is installed on first use; the tests
on it are skipped, with the reason, only when it cannot be. The server itself: ``postgres.py``.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.asklog.postgres import PostgresServer, postgres_bindir


def install_postgres() -> Path:
    """Debian's PostgreSQL, installed with apt-get; skips the tests when that cannot be done."""
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "-qq", "postgresql"]
    try:
        try:
            subprocess.run(install, check=True, capture_output=True, timeout=900, env=env)
        except subprocess.CalledProcessError:  # stale package lists: update them, try again
            subprocess.run(["apt-get", "update", "-qq"], check=True, capture_output=True,
                           timeout=300, env=env)  # fmt: skip
            subprocess.run(install, check=True, capture_output=True, timeout=900, env=env)
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"PostgreSQL is not installed and cannot be installed here: {exc}")
    return postgres_bindir() or pytest.skip("apt-get did not provide PostgreSQL's initdb/pg_ctl")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the session (stopped and removed at the end)."""
    pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")
    server = PostgresServer(postgres_bindir() or install_postgres())
    try:
        server.init()
        server.start()
    except (OSError, RuntimeError, subprocess.SubprocessError) as exc:
        server.remove()
        pytest.skip(f"PostgreSQL cannot run here: {exc}")
    try:
        yield server
    finally:
        try:
            server.stop()
        except (OSError, RuntimeError, subprocess.SubprocessError):
            pass  # already stopped (a test that failed while it was away)
        server.remove()


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a database made on the session's server."""
    return postgres_server.new_database()


@dataclass
class LogDatabase:
    """One of the log's homes for a test: its kind, its setting (RULINGS_LOG's value), and
    ``outage()``, a context during which it cannot be written; ``fresh()``: another empty
    database of the same kind."""

    kind: str
    url: str
    outage: Callable[[], AbstractContextManager[None]]
    fresh: Callable[[], str]


@contextmanager
def _server_stopped(server: PostgresServer) -> Iterator[None]:
    server.stop()
    try:
        yield
    finally:
        server.start()


@contextmanager
def _capped_sqlite() -> Iterator[Callable[[], AbstractContextManager[None]]]:
    """Yields ``outage()``: while in it, every SQLite connection handed out is capped at its
    file's current size (``PRAGMA max_page_count``), a full disk as SQLite reports it
    (SQLITE_FULL). A pool event, so that the log's own pooled connections are capped too."""
    from sqlalchemy import event
    from sqlalchemy.pool import Pool

    full = threading.Event()

    def cap(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
        if isinstance(dbapi_conn, sqlite3.Connection):
            # 1 is raised to the current page count; a connection keeps its cap until reset.
            dbapi_conn.execute(f"PRAGMA max_page_count = {1 if full.is_set() else 2**30}")

    @contextmanager
    def outage() -> Iterator[None]:
        full.set()
        try:
            yield
        finally:
            full.clear()

    event.listen(Pool, "checkout", cap)
    try:
        yield outage
    finally:
        event.remove(Pool, "checkout", cap)


@pytest.fixture(params=["sqlite", "postgresql"])
def log_db(request, tmp_path) -> Iterator[LogDatabase]:
    """A fresh, empty home for the log: a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        files = (str(tmp_path / f"log-{n}" / "asks.sqlite3") for n in itertools.count())
        with _capped_sqlite() as outage:
            yield LogDatabase("sqlite", next(files), outage, lambda: next(files))
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        yield LogDatabase(
            "postgresql",
            server.new_database(),
            lambda: _server_stopped(server),
            server.new_database,
        )


# -- the log under test -----------------------------------------------------------------------
@pytest.fixture()
def make_log() -> Iterator[Callable[..., Any]]:
    """``make_log(setting, **options)``: an ``AskLog``, closed at the end of the test."""
    from service.asklog import AskLog

    made: list[AskLog] = []

    def make(setting: str, **options: Any) -> AskLog:
        made.append(AskLog(setting, **options))
        return made[-1]

    yield make
    for ask_log in made:
        ask_log.close(timeout=1)  # the tests flush themselves; some leave a database away


def rows(setting: str, table: str) -> list[dict[str, Any]]:
    """Every row of one of the log's tables, read through an engine of its own."""
    from sqlalchemy import select

    from service.asklog import store

    engine = store.open_database(setting)
    try:
        with engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(select(store.metadata.tables[table]))]
    finally:
        engine.dispose()


def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Whether `condition` came true within `timeout` seconds (polled)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def answer(question: str = "Do I apply Shield before Ward?", **fields: Any) -> dict[str, Any]:
    """An answer shaped as ``Engine.ask`` returns it (the fields the log reads)."""
    return {
        "question": question,
        "lang": "en",
        "game": "frosthaven",
        "declined": False,
        "reason_code": "answers",
        "answer": {"id": "fh-clar-10", "title": "Shield and Ward"},
        "matches": [{"id": "fh-clar-10", "score": 0.91}, {"id": "fh-clar-11", "score": 0.52}],
        "computed": None,
        **fields,
    }
