"""What is indexed of a ruling: one text passage per language and one "ask" passage per search
key, their texts, and the content hashes that say when a record must be embedded again."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import cast

from indexer.archive.schema import Archive, Ruling
from indexer.language import Lang
from indexer.model.embedder import PASSAGE_PREFIX, QUERY_PREFIX


@dataclass(frozen=True)
class Passage:
    record: str
    lang: str
    kind: str = "text"  # "text": the ruling in `lang`; "ask": its search key number `n`
    n: int = 0


def passage_text(rec: Ruling, lang: str) -> str:
    """What is embedded and matched for one language version: title, context, text, cards."""
    text, title, context = rec.version(lang)
    parts = [p for p in (title, context, text) if p]
    if rec.cards:
        parts.append(", ".join(c.label for c in rec.cards))
    return "\n".join(parts)


def record_passages(rec: Ruling) -> list[tuple[Passage, str]]:
    """Every passage of a record and its text: the ruling per language, then its keys."""
    out = [(Passage(rec.id, lang), passage_text(rec, lang)) for lang in rec.languages()]
    for lang, keys in rec.asks.items():
        out += [(Passage(rec.id, lang, "ask", n), key) for n, key in enumerate(keys)]
    return out


def passage_prefix(passage: Passage) -> str:
    # A key is a question: embedded like the questions it is matched with.
    return QUERY_PREFIX if passage.kind == "ask" else PASSAGE_PREFIX


def bm25_rows(passages: list[Passage], kind: str) -> list[int]:
    """The index rows of one passage kind: the documents of that kind's BM25 model, in order."""
    return [i for i, p in enumerate(passages) if p.kind == kind]


def passage_content(archive: Archive, passage: Passage) -> str:
    """The text of a passage as BM25 reads it: the ruling in its language, or the key."""
    rec = archive.records[passage.record]
    if passage.kind == "ask":
        # An ask passage is made from one of the record's keys: its lang is a key of `asks`.
        return rec.asks[cast(Lang, passage.lang)][passage.n]
    return passage_text(rec, passage.lang)


def record_hash(rec: Ruling) -> str:
    """Content hash of everything of a record that is embedded: of each of its passages, in
    ``record_passages`` order, language, kind, prefix and text. Built without the Passage
    objects (every start hashes every record to check the index is not stale)."""
    parts = [
        f"\x1e{lang}\x1dtext\x1f{PASSAGE_PREFIX}{passage_text(rec, lang)}"
        for lang in rec.languages()
    ]
    parts += [
        f"\x1e{lang}\x1dask\x1f{QUERY_PREFIX}{key}"
        for lang, keys in rec.asks.items()
        for key in keys
    ]
    return hashlib.sha256("".join(parts).encode()).hexdigest()[:16]


def archive_hash(hashes: dict[str, str]) -> str:
    h = hashlib.sha256()
    for rid in sorted(hashes):
        h.update(f"{rid}={hashes[rid]};".encode())
    return h.hexdigest()[:16]
