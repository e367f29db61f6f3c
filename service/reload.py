"""Switching to a rebuilt archive and index while serving, in every worker, with no failed request.

The engine's state is one immutable ``Snapshot`` (the catalogue, the retriever, and the stat of
the index manifest they were loaded from). Every request reads the current snapshot once and
uses only that, so a request in flight finishes on the old one and none ever sees half of each.

A watcher thread in each serving process stats ``<index>/manifest.json`` once per ``interval``
(1 s). ``rulings build`` writes a new index folder and renames it into place (``indexer.index``),
so a new build shows as a manifest with a new inode / mtime. The watcher then loads the archive,
the index (checked against that archive, as at start-up) and a new searcher, reusing the
process's model, while requests go on with the old snapshot, and swaps: one reference
assignment. Every gunicorn worker has its own watcher, started when it is forked (the state is
per process; no signal to deliver), so an idle worker has switched too by its next request.
A build that does not load (the archive was edited again after it, a corrupt folder) is
logged and the old snapshot stays, until the next build.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from indexer.archive.catalogue import Catalogue
from indexer.archive.schema import Archive
from indexer.search.searcher import Searcher

log = logging.getLogger(__name__)

POLL_INTERVAL = 1.0
Stamp = tuple[int, int, int]


@dataclass(frozen=True)
class Snapshot:
    """Everything a request reads, loaded together: never changed, only replaced."""

    catalogue: Catalogue
    searcher: Searcher | None = None  # None until the first question (archive-only use)
    stamp: Stamp | None = None  # the index manifest's stat when `searcher` was loaded
    game_names: dict[str, str] = field(default_factory=dict)

    @property
    def archive(self) -> Archive:
        return self.catalogue.archive

    @classmethod
    def of(
        cls, catalogue: Catalogue, searcher: Searcher | None = None, stamp: Stamp | None = None
    ) -> "Snapshot":
        names = {g.id: g.name for g in catalogue.archive.games.values()}
        return cls(catalogue, searcher, stamp, names)


def manifest_stamp(index_dir: Path) -> Stamp | None:
    """The index manifest's (mtime, inode, size), or None while there is none (mid-rename)."""
    try:
        st = os.stat(Path(index_dir) / "manifest.json")
    except OSError:
        return None
    return st.st_mtime_ns, st.st_ino, st.st_size


class Owner(Protocol):
    """What the reloader watches for: the engine."""

    def snapshot(self) -> Snapshot: ...
    def load_snapshot(self) -> Snapshot: ...
    def swap(self, snapshot: Snapshot) -> None: ...


class Reloader:
    """Watches the index manifest from a thread in each process and swaps in new snapshots.

    The watcher starts in every process that serves: in each forked gunicorn worker at fork,
    elsewhere (Flask's server, tests) on the first request. It holds its owner weakly, so it
    ends with it.
    """

    def __init__(self, index_dir: Path, owner: Owner, interval: float = POLL_INTERVAL):
        self.index_dir = Path(index_dir)
        self.interval = interval
        self._owner = weakref.ref(owner)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._failed: Stamp | None = None  # a build that did not load: not retried
        me = weakref.ref(self)

        def after_fork() -> None:
            if (r := me()) is not None:
                r._after_fork()

        os.register_at_fork(after_in_child=after_fork)

    def ensure_watching(self) -> None:
        """Cheap; call it on every request: starts this process's watcher once."""
        if self._pid == os.getpid() and self._thread is not None and self._thread.is_alive():
            return
        with self._lock:
            if self._pid == os.getpid() and self._thread is not None and self._thread.is_alive():
                return
            self._pid = os.getpid()
            self._thread = threading.Thread(target=self._watch, name="rulings-reload", daemon=True)
            self._thread.start()

    def _after_fork(self) -> None:
        # The parent's thread and lock state do not carry over into the child.
        self._lock = threading.Lock()
        self._thread = None
        owner = self._owner()
        if owner is not None and owner.snapshot().searcher is not None:
            self.ensure_watching()

    def _watch(self) -> None:
        pid = os.getpid()
        while os.getpid() == pid:
            time.sleep(self.interval)
            if not self.check():
                return

    def check(self) -> bool:
        """Swap in a new snapshot if the index was rebuilt; False once the owner is gone."""
        owner = self._owner()
        if owner is None:
            return False
        current = owner.snapshot()
        stamp = manifest_stamp(self.index_dir)
        if current.searcher is None or stamp is None or stamp in (current.stamp, self._failed):
            return True
        started = time.perf_counter()
        try:
            snapshot = owner.load_snapshot()
        except Exception as exc:  # any failure keeps the snapshot in use; the service goes on
            self._failed = stamp
            log.warning(
                "new index at %s not loaded, still serving the previous one: %s",
                self.index_dir,
                getattr(exc, "message", None) or exc,
            )
            return True
        owner.swap(snapshot)
        assert snapshot.searcher is not None  # load_snapshot always opens one
        log.info(
            "switched to the index built at %s (%d rulings) in %.1f s",
            snapshot.searcher.index.manifest.get("built_at"),
            len(snapshot.archive),
            time.perf_counter() - started,
        )
        return True
