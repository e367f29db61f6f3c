"""The service's one resource: the catalogue (archive only) and, on first question, the retriever.

Archive-only operations (a ruling, errata by card, cards, games) need neither the model nor a
fresh index, so they answer even when the index is stale or the model is missing; the
retriever (model + index + searcher) is loaded the first time a question is asked. Both edges
(the HTTP API and the CLI) validate their input, call these methods, and turn the domain
errors (``indexer.errors.RulingsError``) into a JSON error or a one-line message.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from checker import checks_for
from indexer.archive import DEFAULT_ARCHIVE, Archive, load_archive
from indexer.catalogue import Catalogue
from indexer.index import DEFAULT_INDEX, MissingIndexError, StaleIndexError, build_index, load_index
from indexer.question import QuestionReader
from indexer.search import Searcher, SearchResult
from service.api_models import DEFAULT_K, DEFAULT_LIMIT
from service.presentation import reason_label, ruling_view

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Settings:
    archive_dir: Path = DEFAULT_ARCHIVE
    index_dir: Path = DEFAULT_INDEX
    model: str | None = None
    rebuild: bool = False          # rebuild a missing or stale index instead of refusing it


def open_searcher(catalogue: Catalogue, settings: Settings) -> Searcher:
    """The retriever: the model, the index (refused when missing or stale), the searcher."""
    from indexer.embedder import load_embedder, model_setting

    archive = catalogue.archive
    embedder = load_embedder(settings.model or model_setting())
    try:
        index = load_index(settings.index_dir, archive, embedder.name, backend=embedder.backend)
    except (StaleIndexError, MissingIndexError):
        if not settings.rebuild:
            raise
        log.warning("index missing or stale: rebuilding as told")
        index, _ = build_index(archive, embedder, settings.index_dir, show_progress=False)
    from service.computed import cited_by_computation
    return Searcher(archive, index, embedder, reader=QuestionReader(archive, catalogue.cards),
                    cited_by_computation=cited_by_computation)


class Engine:
    """Everything a request needs, loaded once per process (the retriever on first use)."""

    def __init__(self, settings: Settings, *, archive: Archive | None = None,
                 searcher: Searcher | None = None):
        """`archive` and `searcher` may be given ready (tests: a fake embedder's searcher)."""
        self.settings = settings
        self.catalogue = Catalogue(archive or load_archive(settings.archive_dir))
        self.archive = self.catalogue.archive
        self._searcher = searcher
        self._lock = threading.Lock()
        self._game_names = {g.id: g.name for g in self.archive.games.values()}

    @property
    def searcher(self) -> Searcher:
        """The retriever, loaded on first use (thread-safe)."""
        if self._searcher is None:
            with self._lock:
                if self._searcher is None:
                    self._searcher = open_searcher(self.catalogue, self.settings)
        return self._searcher

    def view(self, record_id: str, lang: str | None = None) -> dict:
        """A ruling as the API shows it, with its labels."""
        return ruling_view(self.archive.records[record_id], lang, self._game_names)

    # -- questions (the retriever) ------------------------------------------------------------
    def ask(self, question: str, *, game: str | None = None, lang: str | None = None,
            k: int = DEFAULT_K) -> dict:
        """Answer a validated question: the best ruling (or a decline) and the nearest matches.

        `game` may be an id, name or alias; `lang` a language code or None (detected).
        """
        game_id = self.catalogue.resolve_game(game)
        started = time.perf_counter()
        result = self.searcher.search(question.strip(), game=game_id, lang=lang or None, k=k)
        return self._answer(question, result, k, started)

    def _answer(self, question: str, result: SearchResult, k: int, started: float) -> dict:
        matches = [dict(self.view(h.record_id, result.lang), score=round(h.score, 6))
                   for h in result.hits[:k]]
        answered = bool(matches) and not result.declined
        return {
            "question": question,
            "lang": result.lang,
            "game": result.game,
            "declined": result.declined,
            "answer": matches[0] if answered else None,
            "matches": matches,
            "reason": result.reason,
            "reason_local": reason_label(result.reason, result.lang),
            # The rules checker computes this ruling: clients can offer the calculator beside it.
            "calculators": checks_for(matches[0]["id"]) if answered else [],
            "took_ms": round((time.perf_counter() - started) * 1000, 2),
        }

    # -- the archive alone (the catalogue) ----------------------------------------------------
    def ruling(self, record_id: str, lang: str | None = None) -> dict:
        return self.view(self.catalogue.get(record_id).id, lang)

    def find(self, *, card: str | None = None, game: str | None = None, kind: str | None = None,
             lang: str | None = None, limit: int = DEFAULT_LIMIT) -> dict:
        """Rulings filtered by game and kind; by card name (forgiving), best match first."""
        records = self.catalogue.find(card=card, game=self.catalogue.resolve_game(game),
                                      kind=kind or None)
        return {"results": [self.view(r.id, lang) for r in records[:limit]],
                "total": len(records)}

    def card_names(self) -> list[str]:
        return self.catalogue.card_names()

    def games(self) -> dict:
        return {"games": self.catalogue.games()}

    def health(self) -> dict:
        manifest = self.searcher.index.manifest
        return {"status": "ok", "records": len(self.archive), "model": manifest["model"],
                "index_built_at": manifest["built_at"], "index_type": manifest["index_type"],
                "passages": manifest["passages"], "backend": manifest.get("backend", "torch")}

