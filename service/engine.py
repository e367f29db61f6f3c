"""The service's one resource: the catalogue (archive only) and, on first question, the retriever.

Archive-only operations (a ruling, errata by card, cards, games) need neither the model nor a
fresh index, so they answer even when the index is stale or the model is missing; the
retriever (model + index + searcher) is loaded the first time a question is asked. When the
index is rebuilt while serving, the whole state is replaced at once (``service.reload``). Both edges
(the HTTP API and the CLI) validate their input, call these methods, and turn the domain
errors (``indexer.errors.RulingsError``) into a JSON error or a one-line message.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from checker import checks_for
from indexer.archive.catalogue import Catalogue
from indexer.archive.load import load_archive
from indexer.archive.record_cache import archive_cache_path
from indexer.archive.schema import Archive
from indexer.paths import DEFAULT_ARCHIVE, DEFAULT_INDEX
from indexer.search.index import MissingIndexError, StaleIndexError, build_index, load_index
from indexer.search.question import QuestionAnalyser
from indexer.search.results import OTHER_GAME, REASON_CODES, SearchResult
from indexer.search.searcher import Searcher
from service.computed import Computation
from service.evidence import EvidencePicker, sentence_cache_path
from service.http.models import DEFAULT_K, DEFAULT_LIMIT
from service.presentation import reason_label, ruling_view
from service.reload import POLL_INTERVAL, Reloader, Snapshot, manifest_stamp

if TYPE_CHECKING:
    from indexer.model.embedder import Embedder

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EngineConfig:
    archive_dir: Path = DEFAULT_ARCHIVE
    index_dir: Path = DEFAULT_INDEX
    model: str | None = None
    rebuild: bool = False  # rebuild a missing or stale index instead of refusing it
    reload_every: float = POLL_INTERVAL  # seconds between checks for a rebuilt index


def _load_archive(settings: EngineConfig) -> Archive:
    """The archive, its unchanged records from the cache beside the index (`rulings build`
    fills it, so a start after a build parses no record)."""
    return load_archive(settings.archive_dir, cache=archive_cache_path(settings.index_dir))


def open_searcher(
    catalogue: Catalogue, settings: EngineConfig, embedder: Embedder | None = None
) -> Searcher:
    """The retriever: the model (or the one given), the index (refused when missing or stale),
    the searcher with the rules checker's evidence."""
    from indexer.model.embedder import load_embedder, model_setting

    archive = catalogue.archive
    embedder = embedder or load_embedder(settings.model or model_setting())
    try:
        index = load_index(
            settings.index_dir,
            archive,
            embedder.name,
            backend=embedder.backend,
            export=getattr(embedder, "export_id", None),
        )
    except (StaleIndexError, MissingIndexError):
        if not settings.rebuild:
            raise
        log.warning("index missing or stale: rebuilding as told")
        index, _ = build_index(archive, embedder, settings.index_dir, show_progress=False)
    return Searcher(archive, index, embedder, analyser=QuestionAnalyser(archive, catalogue.cards))


class Engine:
    """Everything a request needs, loaded once per process (the retriever on first use), and
    replaced whole when the index is rebuilt while serving (``service.reload``)."""

    def __init__(
        self,
        settings: EngineConfig,
        *,
        archive: Archive | None = None,
        searcher: Searcher | None = None,
    ):
        """`archive` and `searcher` may be given ready (tests: a fake embedder's searcher)."""
        self.settings = settings
        catalogue = Catalogue(archive or _load_archive(settings))
        stamp = manifest_stamp(settings.index_dir) if searcher is not None else None
        self._snapshot = Snapshot.of(catalogue, searcher, stamp)
        self._lock = threading.Lock()
        self._reloader = Reloader(settings.index_dir, self, interval=settings.reload_every)
        self._evidence: EvidencePicker | None = None
        self._sentence_file = sentence_cache_path(settings.index_dir)
        self._evidence_stamp: float | None = None

    def current(self) -> Snapshot:
        """The snapshot a request uses throughout (serving: the rebuilt index is watched for)."""
        snap = self._snapshot
        if snap.searcher is not None:
            self._reloader.ensure_watching()
        return snap

    # -- what the reloader calls (service.reload.Owner) ---------------------------------------
    def snapshot(self) -> Snapshot:
        return self._snapshot

    def load_snapshot(self) -> Snapshot:
        """A complete new snapshot from disk (with the running embedder), or an error
        (ArchiveError, IndexUnavailable) and nothing."""
        stamp = manifest_stamp(
            self.settings.index_dir
        )  # before loading: a later build reloads again
        catalogue = Catalogue(_load_archive(self.settings))
        settings = replace(self.settings, rebuild=False)
        # The reloader asks only while a searcher is loaded, and a loaded one is never dropped.
        assert self._snapshot.searcher is not None
        searcher = open_searcher(catalogue, settings, self._snapshot.searcher.embedder)
        return Snapshot.of(catalogue, searcher, stamp)

    def swap(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot  # one reference: requests in flight keep the old one

    @property
    def catalogue(self) -> Catalogue:
        return self._snapshot.catalogue

    @property
    def archive(self) -> Archive:
        return self._snapshot.archive

    @property
    def searcher(self) -> Searcher:
        """The retriever, loaded on first use (thread-safe)."""
        return self._searcher_of(self._snapshot)

    def _searcher_of(self, snap: Snapshot) -> Searcher:
        if snap.searcher is not None:
            return snap.searcher
        with self._lock:
            if self._snapshot.searcher is None:
                stamp = manifest_stamp(self.settings.index_dir)
                searcher = open_searcher(self._snapshot.catalogue, self.settings)
                self._snapshot = Snapshot.of(self._snapshot.catalogue, searcher, stamp)
            # Set just above or earlier; a swap only ever puts in a snapshot with a searcher.
            assert self._snapshot.searcher is not None
            return self._snapshot.searcher

    def view(self, record_id: str, lang: str | None = None, snap: Snapshot | None = None) -> dict:
        """A ruling as the API shows it, with its labels."""
        snap = snap or self._snapshot
        return ruling_view(snap.archive.records[record_id], lang, snap.game_names)

    # -- questions (the retriever) ------------------------------------------------------------
    def ask(
        self,
        question: str,
        *,
        game: str | None = None,
        lang: str | None = None,
        k: int = DEFAULT_K,
        hint: str | None = None,
    ) -> dict:
        """Answer a validated question: the best ruling (or a decline) and the nearest matches.

        `game` may be an id, name or alias; `lang` a language code or None (detected, with
        `hint`, the reader's language, as a prior).
        """
        snap = self.current()
        game_id = snap.catalogue.resolve_game(game)
        started = time.perf_counter()
        searcher = self._searcher_of(snap)
        if snap.searcher is None:  # loaded just now: its snapshot holds the same catalogue
            snap = self._snapshot
        result, computation = self._search(searcher, question, game_id, lang, k, hint)
        answer = self._answer(
            question, result, k, started, snap, self._computed(computation, result, game_id, snap)
        )
        evidence = self._evidence_picker(searcher).for_views(question.strip(), answer["matches"])
        for match, found in zip(answer["matches"], evidence, strict=True):
            match["evidence"] = found
        answer["took_ms"] = round((time.perf_counter() - started) * 1000, 2)
        return answer

    def _evidence_picker(self, searcher: Searcher) -> EvidencePicker:
        # One per embedder and sentence file: `rulings build` rewrites the file (before the
        # index, so a live reload finds it); a rebuilt index keeps the running embedder.
        picker = self._evidence
        stamp = _mtime(self._sentence_file)
        if (
            picker is None
            or picker.embedder is not searcher.embedder
            or stamp != self._evidence_stamp
        ):
            picker = self._evidence = EvidencePicker(searcher.embedder, self._sentence_file)
            self._evidence_stamp = stamp
        return picker

    def search(self, question: str, *, k: int = DEFAULT_K) -> SearchResult:
        """Search alone, as an ask searches (its computation weighed): what evaluation measures."""
        return self._search(self.searcher, question, None, None, k)[0]

    @staticmethod
    def _search(
        searcher: Searcher,
        question: str,
        game_id: str | None,
        lang: str | None,
        k: int,
        hint: str | None = None,
    ) -> tuple[SearchResult, Computation]:
        # One analysis and one reading of the question: search weighs what the computation
        # cites (as data), and the answer reuses the same reading and check result.
        q = searcher.analyse(question.strip(), game=game_id, lang=lang or None, hint=hint)
        computation = Computation.of(q)
        return searcher.search_question(q, k=k, cited=computation.cited), computation

    @staticmethod
    def _computed(
        computation: Computation, result: SearchResult, game_id: str | None, snap: Snapshot
    ) -> dict | None:
        """The computed answer beside the ruling; None for a question about another game."""
        if result.reason == OTHER_GAME:
            return None
        # The game: the request's, else the one the question names, else the game of the ruling
        # retrieved for it (the game whose rulings state the rule asked about), declined or not.
        top = snap.archive.records[result.hits[0].record_id].game if result.hits else None
        return computation.answer(game_id or result.game, top)

    def _answer(
        self,
        question: str,
        result: SearchResult,
        k: int,
        started: float,
        snap: Snapshot,
        computed: dict | None,
    ) -> dict:
        matches = [
            dict(self.view(h.record_id, result.lang, snap), score=round(h.score, 6))
            for h in result.hits[:k]
        ]
        answered = bool(matches) and not result.declined
        return {
            "question": question,
            "lang": result.lang,
            "game": result.game,
            "declined": result.declined,
            "answer": matches[0] if answered else None,
            "matches": matches,
            "reason": result.reason,
            "reason_code": REASON_CODES[result.reason],
            "reason_local": reason_label(result.reason, result.lang),
            # The rules checker computes this ruling: clients can offer the calculator beside it.
            "calculators": checks_for(matches[0]["id"]) if answered else [],
            # The mechanical case computed from the question's own numbers (None: none asked).
            "computed": computed,
            "took_ms": round((time.perf_counter() - started) * 1000, 2),
        }

    # -- the archive alone (the catalogue) ----------------------------------------------------
    def ruling(self, record_id: str, lang: str | None = None) -> dict:
        snap = self.current()
        return self.view(snap.catalogue.get(record_id).id, lang, snap)

    def find(
        self,
        *,
        card: str | None = None,
        game: str | None = None,
        kind: str | None = None,
        lang: str | None = None,
        limit: int = DEFAULT_LIMIT,
    ) -> dict:
        """Rulings filtered by game and kind; by card name (forgiving), best match first."""
        snap = self.current()
        records = snap.catalogue.find(
            card=card, game=snap.catalogue.resolve_game(game), kind=kind or None
        )
        return {
            "results": [self.view(r.id, lang, snap) for r in records[:limit]],
            "total": len(records),
        }

    def card_names(self) -> list[str]:
        return self.current().catalogue.card_names()

    def suggest_cards(self, typed: str | None) -> list[str]:
        """Card names for what was typed (autocomplete), from the archive in use."""
        return self.current().catalogue.suggest_cards(typed)

    def games(self) -> dict:
        return {"games": self.current().catalogue.games()}

    def health(self) -> dict:
        snap = self.current()
        searcher = self._searcher_of(snap)
        manifest = searcher.index.manifest
        # `worker`: the process that answered, so each gunicorn worker's index can be seen.
        return {
            "status": "ok",
            "records": len(searcher.archive),
            "model": manifest["model"],
            "index_built_at": manifest["built_at"],
            "index_type": manifest["index_type"],
            "passages": manifest["passages"],
            "backend": manifest.get("backend", "torch"),
            "worker": os.getpid(),
        }


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None
