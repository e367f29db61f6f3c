"""The parsed-archive cache: validated records kept between starts, keyed by their files' bytes.

Parsing and validating 100,000 YAML records is most of a service start at that size, while
reading and hashing their files takes a second or two. So ``check_archive`` can be given a cache
file: a record whose file's bytes hash to a key in the cache is taken from it, every other
file is parsed and validated as always, and the cache is rewritten (atomically) with exactly
the keys this load used when they differ from those it read: an edited file is a new key, a
removed one a key no longer used, so neither can be served stale. Only records that validated
are kept; a file with a problem is parsed again at every load and reported as before. The
cross-record checks (ids, file names, links, games) always run, on every record.

The file is a pickle of ``{"format", "fingerprint", "entries"}``; the fingerprint is over the
code that parses and validates (this format, Python, pydantic, PyYAML and the schema's
modules), so a cache written by other code is ignored, as is one that does not unpickle. It is
our own file beside the index (``archive_cache_path``), written only by this
code; whoever can write there can already replace the index itself.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import logging
import os
import pickle
import sys
from pathlib import Path
from typing import Generic, TypeVar

import pydantic
import yaml

from indexer.files import write_atomic

log = logging.getLogger(__name__)

CACHE_FORMAT = 1
T = TypeVar("T")


def archive_cache_path(index_dir: Path) -> Path:
    """Where the parsed-archive cache of the archive an index folder is built from lives: a
    file beside that folder, not in it, since a build replaces the folder whole."""
    index_dir = Path(index_dir)
    if index_dir.name in ("", ".."):  # "." or "a/..": the folder's own name
        index_dir = Path(os.path.abspath(index_dir))
    if not index_dir.name:  # the file system's root has no sibling
        return index_dir / "index.archive-cache"
    return index_dir.with_name(f"{index_dir.name}.archive-cache")


@functools.lru_cache(maxsize=8)
def code_fingerprint(*files: str, extra: str = "") -> str:
    """A hash of what a validated record depends on besides its file: this format, Python,
    pydantic, PyYAML, the `files` of the modules that parse and check it, and `extra` (such
    as the YAML loader's name). A cache of another fingerprint is not used."""
    h = hashlib.sha256(
        f"{CACHE_FORMAT}|{sys.version}|{pydantic.VERSION}|{yaml.__version__}|{extra}".encode()
    )
    for file in files:
        h.update(b"\x00" + Path(file).read_bytes())
    return h.hexdigest()


def content_key(raw: bytes) -> bytes:
    """The key of a file's content: a 256-bit BLAKE2b of its bytes (collisions are not a risk)."""
    return hashlib.blake2b(raw, digest_size=32).digest()


class RecordCache(Generic[T]):
    """Validated records by content key, read from `path` once; `save` writes what was used.
    Without a path nothing is read or written (lint: every file parsed, as always)."""

    def __init__(self, path: Path | None, fingerprint: str, kind: type[T]):
        """`kind`: the class every cached value must be (anything else is not served)."""
        self.path = Path(path) if path is not None else None
        self.fingerprint = fingerprint
        self.kind = kind
        self._read: dict[bytes, T] = self._load()
        self._used: dict[bytes, T] = {}
        self.hits = 0
        self.added = 0

    def _load(self) -> dict[bytes, T]:
        if self.path is None:
            return {}
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            log.warning("archive cache %s unreadable (%s); parsing every record", self.path, exc)
            return {}
        # Unpickling makes ~4 objects per record, none of them garbage: without this the
        # collector walks the growing heap again and again (a third of the unpickling time).
        enabled = gc.isenabled()
        gc.disable()
        try:
            data = pickle.loads(raw)
        except Exception as exc:  # noqa: BLE001 - a damaged pickle can raise almost anything
            log.warning(
                "archive cache %s is corrupt (%s); parsing every record and rewriting it",
                self.path,
                type(exc).__name__,
            )
            return {}
        finally:
            if enabled:
                gc.enable()
        if not (
            isinstance(data, dict)
            and data.get("format") == CACHE_FORMAT
            and data.get("fingerprint") == self.fingerprint
            and isinstance(data.get("entries"), dict)
        ):
            log.info(
                "archive cache %s is of another format or code; parsing every record", self.path
            )
            return {}
        return data["entries"]

    def get(self, key: bytes) -> T | None:
        """The record cached for this content, or None (then `put` the validated one)."""
        value = self._read.get(key)
        if value is None or not isinstance(value, self.kind):
            return None
        self._used[key] = value
        self.hits += 1
        return value

    def put(self, key: bytes, value: T) -> None:
        self._used[key] = value
        self.added += 1

    @property
    def changed(self) -> bool:
        """Whether the file on disk differs from what this load used (new, edited or removed)."""
        return self.added > 0 or self._used.keys() != self._read.keys()

    def save(self) -> None:
        """Rewrite the file with the records this load used, if they changed; a folder that
        cannot be written (a read-only image) is logged, not an error: the cache only saves time."""
        if self.path is None or not self.changed:
            return
        payload = {"format": CACHE_FORMAT, "fingerprint": self.fingerprint, "entries": self._used}
        try:
            write_atomic(
                self.path, pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL), mode=0o644
            )
        except OSError as exc:
            log.warning("archive cache %s not written (%s)", self.path, exc)
            return
        log.info(
            "archive cache %s: %d records (%d new or changed)",
            self.path,
            len(self._used),
            self.added,
        )
        self._read, self.added = dict(self._used), 0
