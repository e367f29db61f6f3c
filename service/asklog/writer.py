"""``AskLog``: the question log as the service meets it, never costing an answer.

An ask is put on an in-memory queue (microseconds: ``record`` never touches the database) and
a daemon thread writes the queue in batches. When the database is unreachable or full the
entries are held and retried with a growing pause (the asks go on being answered; new asks do
not bring the retry forward), the failure is counted (``on_failure``, which the HTTP app points
at ``/metrics``) and logged once until a write succeeds again; past ``MAX_PENDING`` held
entries the oldest are dropped, and counted. An entry the database refuses (a duplicate, a
value it cannot store) is given up alone, not with its batch. Entries older than ``days`` are
deleted at start and then once an hour.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import os
import queue
import secrets
import threading
import time
import uuid
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, SQLAlchemyError

from service.asklog.store import (
    CHANNELS,
    AskEntry,
    LogUnavailable,
    UnknownAsk,
    Vote,
    database_url,
    forget_before,
    meta_value,
    migrate,
    now,
    open_database,
    write_asks,
    write_vote,
)

log = logging.getLogger(__name__)

MAX_PENDING = 10_000  # entries held while the database is away (about 10 MB)
BATCH = 200
RETENTION_EVERY = 3600.0  # seconds between deletions of old entries
FIRST_PAUSE = 0.5  # the first wait before trying an unreachable database again
MAX_PAUSE = 30.0  # the longest wait between two tries at an unreachable database
IDLE_WAIT = 60.0  # how long the thread sleeps with nothing to write (then checks retention)
VOTE_WAIT = 5.0  # how long a vote waits for this process's queued asks to be written
ELSEWHERE_WAIT = 2.0  # how long a vote looks again for an ask another worker has queued
ELSEWHERE_STEP = 0.1  # the pause between two looks
LINGER = 0.05  # the wait after a first ask before writing (flush, vote and close cut it short)
FORK_WAIT = 10.0  # the longest a fork waits for a write in progress (a hung database: go on)

#: Errors that mean the database refused these rows, not that it is away: retrying the same
#: rows would fail forever. (Anything else is taken for an outage: held and retried.)
REFUSED = (IntegrityError, DataError)
AWAY = (SQLAlchemyError, LogUnavailable, OSError)

Held = tuple[AskEntry, str | None]  # an entry and its Discord server, not yet hashed


class AskLog:
    """Record asks and votes in the log's database (see the module's docstring)."""

    def __init__(
        self,
        setting: str,
        *,
        days: int = 90,
        key: str | None = None,
        on_failure: Callable[[str], None] | None = None,
    ):
        """`setting`: RULINGS_LOG's value (a path or a URL); `key`: the key hashing server ids
        (None: a random one kept in the database)."""
        self.setting, self.days, self._key = setting, days, key
        self.on_failure = on_failure or (lambda _stage: None)
        self._reset()
        # A forked worker must not share the parent's queue, locks, thread or connections; nor
        # may it be forked while the thread is inside the database driver, whose own locks
        # (SQLite's mutexes) the child would get held by a thread it does not have.
        ref = weakref.ref(self)
        os.register_at_fork(
            before=functools.partial(_hold_for_fork, ref),
            after_in_parent=functools.partial(_release_after_fork, ref),
            after_in_child=functools.partial(_reset_in_child, ref),
        )

    def _reset(self) -> None:
        self._queue: queue.SimpleQueue[Held | None] = queue.SimpleQueue()
        self._pending: list[Held] = []
        self._lock = threading.Lock()  # the engine (held while connecting: never by record)
        self._start_lock = threading.Lock()  # the thread
        self._counts = threading.Condition()  # queued vs done, for flush
        self._queued = self._done = 0
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._hurry = threading.Event()  # set by flush: write now, no lingering
        self._engine: Engine | None = None
        self._failing = self._dropping = False
        self._pause, self._retry_at, self._retained_at = FIRST_PAUSE, 0.0, -RETENTION_EVERY
        self._busy = threading.Lock()  # held by the thread while it uses the database
        self._held_for_fork = False

    # -- asks -----------------------------------------------------------------------------
    def record(self, answer: dict[str, Any], channel: str, server: str | None = None) -> str:
        """Queue one answered ask (as ``Engine.ask`` returns it); its new id. Never raises,
        never waits for the database."""
        try:
            entry = entry_of(answer, channel, None)
        except (KeyError, TypeError, AttributeError, ValueError) as exc:  # a caller's bug
            log.error("question log: an answer it cannot read (%r); not logged", exc)
            self.on_failure("write")
            return uuid.uuid4().hex
        held: Held = (entry, server or None)
        if held[1] is not None and self._key is not None:  # else hashed when the key is read
            held = (replace(entry, server=self.server_hash(held[1])), None)
        self._ensure_thread()
        with self._counts:
            self._queued += 1
        self._queue.put(held)
        return entry.id

    def vote(self, vote: Vote) -> None:
        """Record a vote now (this process's queued asks written first): UnknownAsk when the
        ask is not in the log, LogUnavailable when the database cannot be reached."""
        caught_up = self.flush(FIRST_PAUSE if self._failing else VOTE_WAIT)
        # Under gunicorn the ask may have reached another worker, whose thread writes it a
        # moment later (it lingers, then commits): look again for a while before "unknown".
        deadline = time.monotonic() + ELSEWHERE_WAIT
        while True:
            try:
                found = write_vote(self._database(), vote)
            except AWAY as exc:
                self._failed("vote", exc)
                raise LogUnavailable(
                    "the question log cannot be reached; try again later"
                ) from None
            if found or time.monotonic() >= deadline:
                break
            time.sleep(ELSEWHERE_STEP)
        self._recovered()
        if not found:
            if not caught_up:  # the ask may still be waiting in this process's queue
                raise LogUnavailable("the question log is behind; try again in a moment")
            raise UnknownAsk(vote.ask_id)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued so far is written (or given up); False on timeout.
        A database that was away is tried again now, not after the pause."""
        with self._counts:
            target = self._queued
            if self._done >= target:
                return True
        self._ensure_thread()
        self._retry_at = 0.0
        self._hurry.set()
        self._queue.put(None)  # wake the thread
        with self._counts:
            return self._counts.wait_for(lambda: self._done >= target, timeout)

    def close(self, timeout: float = 5.0) -> bool:
        """Write what is queued (waiting at most `timeout`), then stop the thread and close
        the connections; False if something queued was not written. A later ask reopens."""
        flushed = self.flush(timeout)
        with self._start_lock:  # this thread and its own stop: a later ask starts another
            thread, stop, self._thread = self._thread, self._stop, None
        stop.set()
        self._queue.put(None)
        if thread is not None:
            thread.join(timeout)
        with self._lock:
            if self._engine is not None:
                self._engine.dispose()
                self._engine = None
        return flushed

    def server_hash(self, server: str) -> str:
        """A keyed hash of a Discord server id: servers can be counted, not named."""
        if self._key is None:
            self._key = meta_value(self._database(), "server_key", lambda: secrets.token_hex(32))
        return hmac.new(self._key.encode(), server.encode(), hashlib.sha256).hexdigest()[:32]

    # -- the database and the writing thread ----------------------------------------------
    def _database(self) -> Engine:
        with self._lock:
            if self._engine is None:
                engine = open_database(self.setting)
                try:
                    migrate(engine)
                except BaseException:
                    engine.dispose()
                    raise
                self._engine = engine
            return self._engine

    def _ensure_thread(self) -> None:
        # Started on first use in the process that asks: a gunicorn worker forked from a
        # parent that made the app has no thread of its own otherwise.
        if self._thread is not None and self._thread.is_alive():
            return
        with self._start_lock:
            if self._thread is None or not self._thread.is_alive():
                self._stop = threading.Event()
                self._thread = threading.Thread(
                    target=self._run, args=(self._stop,), name="ask-log", daemon=True
                )
                self._thread.start()

    def _run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self._step()
            except Exception:  # a bug here must not end the log for the process's life
                log.exception("question log: the writing thread failed; going on")
                stop.wait(self._pause)

    def _step(self) -> None:
        """Wait for asks (or for the retry), then write what is held and forget old entries."""
        wait = max(0.0, self._retry_at - time.monotonic()) if self._pending else IDLE_WAIT
        try:
            first = self._queue.get(timeout=wait) if wait else self._queue.get_nowait()
        except queue.Empty:
            first = None
        if first is not None and not self._pending and not self._hurry.is_set():
            # Linger: the write then runs after the answer has gone (not beside the end of
            # its request, for the GIL), and the asks of the next moments share its commit.
            self._hurry.wait(LINGER)
        self._hurry.clear()
        self._take(first)
        if time.monotonic() < self._retry_at:
            return  # still pausing after a failure: new asks do not bring the retry forward
        # The asks first: a failure is counted as the write's, and deleting never delays them.
        with self._busy:
            written = self._write() and self._retain()
        if written:
            self._pause, self._retry_at = FIRST_PAUSE, 0.0
        else:
            self._retry_at = time.monotonic() + self._pause
            self._pause = min(MAX_PAUSE, self._pause * 2)

    def _take(self, first: Held | None) -> None:
        """Move the queue to the held entries, dropping the oldest past MAX_PENDING."""
        if first is not None:
            self._pending.append(first)
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                self._pending.append(item)
        dropped = len(self._pending) - MAX_PENDING
        if dropped > 0:
            del self._pending[:dropped]
            for _ in range(dropped):
                self.on_failure("dropped")
            if not self._dropping:
                log.warning("question log: over %d asks held, the oldest dropped", MAX_PENDING)
                self._dropping = True
            self._finished(dropped)

    def _write(self) -> bool:
        """Write the held entries, a batch at a time; False when the database is away."""
        while self._pending:
            batch = self._pending[:BATCH]
            try:
                engine = self._database()
                entries = [self._hashed(held) for held in batch]  # may read the key
                try:
                    write_asks(engine, entries)
                    done = len(batch)
                except REFUSED:
                    done = self._write_each(engine, entries)
            except AWAY as exc:
                self._failed("write", exc)
                return False
            del self._pending[:done]
            self._finished(done)
            if done < len(batch):
                return False
            self._recovered()
        return True

    def _write_each(self, engine: Engine, entries: list[AskEntry]) -> int:
        """A refused batch written entry by entry, each refused one given up and counted; how
        many are done (fewer than all when the database went away meanwhile)."""
        for done, entry in enumerate(entries):
            try:
                write_asks(engine, [entry])
            except IntegrityError:
                pass  # already written: a batch whose commit was lost on the way back
            except REFUSED as exc:
                log.warning("question log: ask %s refused, not logged: %s", entry.id, _line(exc))
                self.on_failure("dropped")
            except AWAY as exc:
                self._failed("write", exc)
                return done
        return len(entries)

    def _hashed(self, held: Held) -> AskEntry:
        entry, server = held
        return entry if server is None else replace(entry, server=self.server_hash(server))

    def _retain(self) -> bool:
        """Forget old entries when an hour has passed since the last time; False on failure."""
        if time.monotonic() - self._retained_at < RETENTION_EVERY:
            return True
        try:
            gone = forget_before(self._database(), self.days)
        except AWAY as exc:
            self._failed("retention", exc)
            return False
        self._retained_at = time.monotonic()
        if gone:
            log.info("question log: %d asks older than %d days deleted", gone, self.days)
        return True

    def _finished(self, count: int) -> None:
        with self._counts:
            self._done += count
            self._counts.notify_all()

    def _failed(self, stage: str, exc: BaseException) -> None:
        self.on_failure(stage)
        if not self._failing:  # once per outage, not once per ask
            log.warning(
                "question log (%s) unavailable, asks are answered but not logged: %s",
                self._where(),
                _line(exc),
            )
            self._failing = True

    def _recovered(self) -> None:
        if self._failing:
            log.warning("question log: writing again (%s)", self._where())
            self._failing = self._dropping = False

    def _where(self) -> str:
        try:
            return make_url(database_url(self.setting)).render_as_string(hide_password=True)
        except Exception:  # a setting that is no URL: it is what failed, say so plainly
            return "RULINGS_LOG"


def _hold_for_fork(ref: weakref.ReferenceType[AskLog]) -> None:
    ask_log = ref()
    if ask_log is not None:
        ask_log._held_for_fork = ask_log._busy.acquire(timeout=FORK_WAIT)


def _release_after_fork(ref: weakref.ReferenceType[AskLog]) -> None:
    ask_log = ref()
    if ask_log is not None and ask_log._held_for_fork:
        ask_log._held_for_fork = False
        ask_log._busy.release()


def _reset_in_child(ref: weakref.ReferenceType[AskLog]) -> None:
    ask_log = ref()
    if ask_log is not None:
        if ask_log._engine is not None:
            ask_log._engine.dispose(close=False)  # the parent's connections stay the parent's
        ask_log._reset()


def _line(exc: BaseException) -> str:
    """An error's first line (a driver's message runs on with the statement and parameters)."""
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        exc = exc.orig
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def entry_of(answer: dict[str, Any], channel: str, server: str | None) -> AskEntry:
    """The log's entry for an answer shaped as ``Engine.ask`` returns it."""
    matches = [
        {"id": m["id"], "score": None if m.get("score") is None else float(m["score"])}
        for m in answer.get("matches") or []
    ]
    computed = answer.get("computed") or {}
    return AskEntry(
        id=uuid.uuid4().hex,
        asked_at=now(),
        question=answer["question"],
        lang=answer.get("lang") or "",
        game=answer.get("game"),
        declined=bool(answer.get("declined")),
        reason_code=answer.get("reason_code") or "",
        answer=(answer.get("answer") or {}).get("id"),
        score=matches[0]["score"] if matches else None,
        matches=matches,
        computed=computed.get("check") if isinstance(computed, dict) else None,
        channel=channel if channel in CHANNELS else "api",
        server=server,
    )
