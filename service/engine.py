"""The service's one resource: archive + index + model + searcher, and the operations on them.

Both edges (the HTTP API and the CLI) call these functions and turn the domain errors below
into a JSON error or a one-line message; nothing in here knows about Flask or click.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checker import checks_for
from indexer.archive import DEFAULT_ARCHIVE, KINDS, LANGUAGES, Archive, Ruling, fold, load_archive
from indexer.embedder import load_embedder, model_setting
from indexer.index import DEFAULT_INDEX, StaleIndexError, MissingIndexError, build_index, load_index
from indexer.search import Searcher, SearchResult

log = logging.getLogger(__name__)

MAX_QUESTION = 500
MAX_K = 10
DEFAULT_K = 3
MAX_LIMIT = 100
DEFAULT_LIMIT = 20


class InvalidRequest(ValueError):
    """A value the caller sent is invalid (HTTP 422); the message says which and why."""


class NotFound(LookupError):
    """No such ruling (HTTP 404)."""


@dataclass(frozen=True)
class Settings:
    archive_dir: Path = DEFAULT_ARCHIVE
    index_dir: Path = DEFAULT_INDEX
    model: str | None = None
    rebuild: bool = False          # rebuild a missing or stale index instead of refusing it


class Engine:
    """Everything a request needs, loaded once per process."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.archive: Archive = load_archive(settings.archive_dir)
        self.embedder = load_embedder(settings.model or model_setting())
        try:
            self.index = load_index(settings.index_dir, self.archive, self.embedder.name)
        except (StaleIndexError, MissingIndexError):
            if not settings.rebuild:
                raise
            log.warning("index missing or stale: rebuilding as told")
            self.index, _ = build_index(self.archive, self.embedder, settings.index_dir,
                                        show_progress=False)
        self.searcher = Searcher(self.archive, self.index, self.embedder)
        self._alias_to_game = self.archive.game_names()

    # -- validation shared by HTTP and CLI -----------------------------------------------
    def resolve_game(self, game: Any) -> str | None:
        if game is None or game == "":
            return None
        if not isinstance(game, str):
            raise InvalidRequest("'game' must be a string")
        found = self._alias_to_game.get(fold(game.strip()))
        if found is None:
            raise InvalidRequest(f"unknown game {game!r}; known games: {', '.join(self.archive.games)}")
        return found

    @staticmethod
    def resolve_lang(lang: Any) -> str | None:
        if lang is None or lang == "":
            return None
        if not isinstance(lang, str) or lang.lower() not in LANGUAGES:
            raise InvalidRequest(f"'lang' must be one of: {', '.join(LANGUAGES)}")
        return lang.lower()

    @staticmethod
    def resolve_kind(kind: Any) -> str | None:
        if kind is None or kind == "":
            return None
        norm = str(kind).strip().lower().replace("-", " ").replace("_", " ")
        norm = {"errata": "erratum", "edge": "edge case", "edgecase": "edge case",
                "clarifications": "clarification", "examples": "example"}.get(norm, norm)
        if norm not in KINDS:
            raise InvalidRequest(f"'kind' must be one of: {', '.join(KINDS)}")
        return norm

    # -- operations -------------------------------------------------------------------
    def ask(self, question: Any, *, game: Any = None, lang: Any = None, k: Any = DEFAULT_K) -> dict:
        """Answer a question: the best ruling (or a decline) and the nearest matches."""
        if not isinstance(question, str) or not question.strip():
            raise InvalidRequest("'question' must be a non-empty string")
        if len(question) > MAX_QUESTION:
            raise InvalidRequest(f"'question' is too long ({len(question)} characters; at most {MAX_QUESTION})")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise InvalidRequest(f"'k' must be an integer from 1 to {MAX_K}")
        game_id = self.resolve_game(game)
        lang_code = self.resolve_lang(lang)
        started = time.perf_counter()
        result = self.searcher.search(question.strip(), game=game_id, lang=lang_code, k=k)
        return self._answer(question, result, k, started)

    def _answer(self, question: str, result: SearchResult, k: int, started: float) -> dict:
        matches = [dict(self.ruling_dict(self.archive.records[h.record_id], result.lang),
                        score=round(h.score, 6)) for h in result.hits[:k]]
        return {
            "question": question,
            "lang": result.lang,
            "game": result.game,
            "declined": result.declined,
            "answer": None if result.declined or not matches else matches[0],
            "matches": matches,
            "reason": result.reason,
            # The rules checker computes this ruling: clients can offer the calculator beside it.
            "calculators": checks_for(matches[0]["id"]) if matches and not result.declined else [],
            "took_ms": round((time.perf_counter() - started) * 1000, 2),
        }

    def ruling(self, record_id: str, lang: Any = None) -> dict:
        rec = self.archive.get(record_id)
        if rec is None:
            raise NotFound(f"no ruling with id {record_id!r}")
        return self.ruling_dict(rec, self.resolve_lang(lang))

    def find(self, *, card: Any = None, game: Any = None, kind: Any = None, lang: Any = None,
             limit: Any = DEFAULT_LIMIT) -> dict:
        """Rulings filtered by game and kind; by card name (forgiving), best match first."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise InvalidRequest(f"'limit' must be an integer from 1 to {MAX_LIMIT}")
        game_id, kind_name, lang_code = self.resolve_game(game), self.resolve_kind(kind), self.resolve_lang(lang)
        if card is not None and (not isinstance(card, str) or not card.strip() or len(card) > 200):
            raise InvalidRequest("'card' must be a non-empty string of at most 200 characters")
        records = [r for r in self.archive.records.values()
                   if (game_id is None or r.game == game_id) and (kind_name is None or r.kind == kind_name)]
        if card is not None:
            scores = self.searcher.cards.query(card)
            # Equal matches: errata first, since this is how players look up corrections.
            records = sorted((r for r in records if r.id in scores),
                             key=lambda r: (-scores[r.id], KINDS.index(r.kind) if r.kind != "erratum" else -1, r.id))
        return {"results": [self.ruling_dict(r, lang_code) for r in records[:limit]],
                "total": len(records)}

    def card_names(self) -> list[str]:
        return self.searcher.cards.names()

    def games(self) -> dict:
        out = []
        for game in self.archive.games.values():
            recs = [r for r in self.archive.records.values() if r.game == game.id]
            counts = {kind: sum(r.kind == kind for r in recs) for kind in KINDS}
            counts["total"] = len(recs)
            languages = sorted({lang for r in recs for lang in r.languages()},
                               key=LANGUAGES.index)
            out.append({"id": game.id, "name": game.name, "aliases": game.aliases,
                        "counts": counts, "languages": languages})
        return {"games": out}

    def health(self) -> dict:
        return {"status": "ok", "records": len(self.archive), "model": self.index.manifest["model"],
                "index_built_at": self.index.manifest["built_at"],
                "index_type": self.index.manifest["index_type"],
                "passages": self.index.manifest["passages"]}

    def ruling_dict(self, rec: Ruling, lang: str | None = None) -> dict:
        return ruling_dict(rec, lang)


def ruling_dict(rec: Ruling, lang: str | None = None) -> dict:
    """A Ruling as the API shows it: the original text, plus the asker's translation."""
    translation = None
    if lang and lang != rec.lang and lang in rec.translations:
        tr = rec.translations[lang]
        translation = {"lang": lang, "text": tr.text, "title": tr.title, "context": tr.context,
                       "edition_of": tr.edition_of,
                       "label": ("the same rule in another official edition" if tr.edition_of
                                 else "unofficial translation; the original is the authority")}
    cit = rec.citation.model_dump(exclude_none=True)
    return {
        "id": rec.id, "game": rec.game, "kind": rec.kind, "lang": rec.lang,
        "title": rec.title, "context_label": rec.context_label, "context": rec.context,
        "text": rec.text, "citation": cit,
        "cards": [{"type": c.type, "name": c.name, "of": c.of, "label": c.label} for c in rec.cards],
        "amends": [a.model_dump() for a in rec.amends],
        "translation": translation, "related": list(rec.related),
    }
