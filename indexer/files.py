"""The project's files: YAML read as lint reports it, files written whole (a reader sees the
old file or the new one, never half of either), and a file's checksum."""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml


def write_atomic(path: Path, content: str | bytes, *, mode: int | None = None) -> None:
    """Write through a temporary file in the same folder, then rename: never a half file.

    Text is written as UTF-8, bytes as they are. `mode` sets the file's permissions (the
    temporary file is created 0600, which a file other users read must not keep).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        binary = isinstance(content, bytes)
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as fh:
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
            fh.write(content)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def sha256_file(path: Path) -> str:
    """The SHA-256 of a file's bytes, read a megabyte at a time (files of hundreds of MB)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# libyaml's parser (shipped in the PyYAML wheel) reads a record about ten times faster than
# the pure-Python one; both build the same values with the same safe constructors.
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_bytes(path: Path | str) -> tuple[bytes | None, str | None]:
    """A file's bytes, or the lint line saying why it cannot be read."""
    try:
        with open(path, "rb") as fh:
            return fh.read(), None
    except OSError as exc:
        return None, f"cannot read: {exc}"


def read_yaml(path: Path) -> tuple[Any, str | None]:
    """A YAML file's content, or the lint line saying why not."""
    raw, err = read_bytes(path)
    if err:
        return None, err
    assert raw is not None  # read_bytes gives the bytes whenever it gives no error
    return parse_yaml(raw)


def parse_yaml(raw: bytes) -> tuple[Any, str | None]:
    """A file's bytes as YAML, or the lint line saying why not."""
    try:
        # Decoded as ``Path.read_text`` decodes (UTF-8, universal newlines), so values and
        # messages are those of reading the file as text; the bytes are what the cache keys.
        text = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8").read()
    except UnicodeDecodeError as exc:
        return None, f"cannot read: {exc}"
    try:
        return yaml.load(text, Loader=FAST_LOADER), None
    except yaml.YAMLError:
        pass
    try:
        # A malformed file is parsed again by the pure-Python loader, whose messages (line,
        # column, problem) are the ones lint has always printed.
        return yaml.safe_load(text), None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        return None, f"malformed YAML{where}: {getattr(exc, 'problem', None) or exc}"
