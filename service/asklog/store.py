"""The question log's tables and their one home: SQLite by default, PostgreSQL by URL.

SQLAlchemy Core (not the ORM): four small tables, written in batches by ``AskLog``'s thread
and read by ``rulings review``. The schema carries its version in ``meta``; ``MIGRATIONS``
lists each step from the empty database up, run at open in one transaction (a PostgreSQL
advisory lock keeps two replicas starting together from running one step twice). Alembic's
script folders and environment would be most of this package for a log of four tables.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError

from indexer.errors import RulingsError

log = logging.getLogger(__name__)

metadata = MetaData()

meta = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
asks = Table(
    "asks",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("asked_at", DateTime(timezone=True), nullable=False, index=True),
    Column("question", Text, nullable=False),
    Column("lang", String(16), nullable=False),
    Column("game", String(64)),
    Column("declined", Boolean, nullable=False),
    Column("reason_code", String(32), nullable=False),
    Column("answer", String(200)),  # the ruling answered with (None: declined)
    Column("score", Float),  # the first ruling's score, answered or not
    Column("matches", JSON, nullable=False),  # [{"id", "score"}], best first
    Column("computed", String(64)),  # the check the rules checker computed, if any
    Column("channel", String(32), nullable=False),
    Column("server", String(32)),  # a keyed hash of the Discord server: counts, no identity
)
feedback = Table(
    "feedback",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ask_id", String(32), ForeignKey("asks.id"), nullable=False, index=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("helpful", Boolean, nullable=False),
    Column("ruling", String(200)),  # the ruling the vote is about (a nearest one, on a decline)
    Column("note", Text),
)
reviews = Table(
    "reviews",
    metadata,
    Column("ask_id", String(32), ForeignKey("asks.id"), primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("action", String(16), nullable=False),  # promoted | dismissed
    Column("ruling", String(200)),
)

CHANNELS = ("page", "api", "discord-gateway", "discord-interactions")
SQLITE_BUSY_S = 5.0  # how long a SQLite connection waits for another's write lock


class LogUnavailable(RulingsError):
    """The question log's database cannot be reached (or the log is off)."""

    def __init__(self, message: str):
        super().__init__(message, status=503, code="log_unavailable")


class UnknownAsk(RulingsError):
    """Feedback about an ask the log does not hold."""

    def __init__(self, ask_id: str):
        super().__init__(
            f"no ask with id {ask_id!r} is in the question log", status=404, code="not_found"
        )


@dataclass(frozen=True)
class AskEntry:
    """One ask as the log keeps it: what was asked and shown, never who asked."""

    id: str
    asked_at: datetime
    question: str
    lang: str
    game: str | None
    declined: bool
    reason_code: str
    answer: str | None
    score: float | None
    matches: list[dict[str, Any]] = field(default_factory=list)
    computed: str | None = None
    channel: str = "api"
    server: str | None = None

    def row(self) -> dict[str, Any]:
        """The entry as a row of ``asks`` (NULs replaced, as both databases can store it)."""
        # Shallow: asdict's deep copy of the matches was most of a write's time.
        return dict(vars(self), question=storable(self.question))


@dataclass(frozen=True)
class Vote:
    """A vote on an ask's answer (or on one of its nearest rulings), with an optional note."""

    ask_id: str
    helpful: bool
    ruling: str | None = None
    note: str | None = None


def storable(value: str) -> str:
    """`value` as PostgreSQL can store it: its text type refuses NUL, which a question read from
    JSON may carry (replaced, not dropped, so the curator sees that something was there)."""
    return value.replace("\x00", "\ufffd")


def _v1(conn: Connection) -> None:
    metadata.create_all(conn, tables=[asks, feedback, reviews], checkfirst=True)


#: Each schema step, in order; the database's version is how many have run.
MIGRATIONS: Sequence[Callable[[Connection], None]] = (_v1,)


def database_url(setting: str | Path) -> str:
    """A SQLAlchemy URL from the setting: a ``postgresql://`` or ``sqlite:///`` URL, or a path."""
    value = str(setting)
    if "://" not in value:
        return f"sqlite:///{Path(value).expanduser()}"
    url = make_url(value)
    if url.drivername in ("postgresql", "postgres"):  # the driver the postgres extra installs
        url = url.set(drivername="postgresql+psycopg")
    return url.render_as_string(hide_password=False)


def open_database(setting: str | Path, *, connect_timeout: float = 5) -> Engine:
    """An engine on the log's database (SQLite: its folder made, WAL, a busy timeout)."""
    url = database_url(setting)
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise LogUnavailable(f"RULINGS_LOG is not a database URL: {exc}") from None
    if parsed.get_backend_name() == "sqlite":
        if parsed.database:
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_S})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if parsed.get_backend_name() != "postgresql":
        raise LogUnavailable(
            f"RULINGS_LOG names a {parsed.get_backend_name()} database: "
            "use a file path, sqlite:///PATH or postgresql://..."
        )
    return create_engine(
        url, pool_pre_ping=True, connect_args={"connect_timeout": max(1, int(connect_timeout))}
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL (the gunicorn workers write while `rulings review` reads, none waiting), kept in
    the file once set. Switching a new file to it takes a lock SQLite does not wait for (no
    busy timeout): connections opening a new file together try again for a while."""
    cursor = dbapi_conn.cursor()
    try:
        deadline = time.monotonic() + SQLITE_BUSY_S
        while cursor.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


def migrate(engine: Engine) -> int:
    """Bring the schema up to date; returns its version. Migrators starting together (workers,
    replicas) take turns: PostgreSQL's advisory lock, SQLite's write lock taken up front."""
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(72177)"))  # one migrator at a time
        else:
            # pysqlite runs DDL outside any transaction, so two migrators would both find no
            # table and both create it: BEGIN IMMEDIATE makes the second wait (busy timeout).
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        metadata.create_all(conn, tables=[meta], checkfirst=True)
        row = conn.execute(select(meta.c.value).where(meta.c.key == "schema_version")).first()
        version = int(row[0]) if row else 0
        for step in MIGRATIONS[version:]:
            step(conn)
        if version != len(MIGRATIONS):
            conn.execute(delete(meta).where(meta.c.key == "schema_version"))
            conn.execute(insert(meta).values(key="schema_version", value=str(len(MIGRATIONS))))
            log.info("question log schema: version %d -> %d", version, len(MIGRATIONS))
    return len(MIGRATIONS)


def meta_value(engine: Engine, key: str, make: Callable[[], str]) -> str:
    """A value kept in ``meta`` (made and stored on first use; when two processes make it at
    once, the first one stored is the value)."""
    query = select(meta.c.value).where(meta.c.key == key)
    with engine.connect() as conn:
        row = conn.execute(query).first()
    if row:
        return str(row[0])
    try:
        with engine.begin() as conn:
            conn.execute(insert(meta).values(key=key, value=make()))
    except IntegrityError:
        pass  # another process stored it first: its value is the one
    with engine.connect() as conn:
        return str(conn.execute(query).scalar_one())


def write_asks(engine: Engine, entries: Iterable[AskEntry]) -> None:
    """Insert the entries in one transaction."""
    rows = [e.row() for e in entries]
    if rows:
        with engine.begin() as conn:
            conn.execute(insert(asks), rows)


def write_vote(engine: Engine, vote: Vote, at: datetime | None = None) -> bool:
    """Record a vote; False when the ask is not in the log."""
    with engine.begin() as conn:
        if conn.execute(select(asks.c.id).where(asks.c.id == vote.ask_id)).first() is None:
            return False
        note = storable(vote.note) if vote.note is not None else None
        conn.execute(insert(feedback).values(at=at or now(), **dict(asdict(vote), note=note)))
    return True


def forget_before(engine: Engine, days: int) -> int:
    """Delete the asks older than `days` days (their votes and reviews first); how many."""
    cutoff = now() - timedelta(days=days)
    old = select(asks.c.id).where(asks.c.asked_at < cutoff)
    with engine.begin() as conn:
        conn.execute(delete(feedback).where(feedback.c.ask_id.in_(old)))
        conn.execute(delete(reviews).where(reviews.c.ask_id.in_(old)))
        gone = conn.execute(delete(asks).where(asks.c.asked_at < cutoff)).rowcount
    return int(gone or 0)


def now() -> datetime:
    """The time now, in UTC (every time the log keeps is UTC)."""
    return datetime.now(UTC)


__all__ = [
    "CHANNELS",
    "AskEntry",
    "LogUnavailable",
    "SQLAlchemyError",
    "UnknownAsk",
    "Vote",
    "asks",
    "database_url",
    "feedback",
    "forget_before",
    "meta_value",
    "migrate",
    "now",
    "open_database",
    "reviews",
    "write_asks",
    "write_vote",
]
