"""The catalogue: what can be answered from the archive alone, with no model and no index.

Show a ruling, errata by card, the card list, the games and their counts, and the validation
of the game names a caller sends. A stale or missing index never stops
these: only a question needs the retriever (``indexer.search``).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from indexer.archive.cards import CardLookup
from indexer.archive.schema import KINDS, Archive, Ruling
from indexer.errors import InvalidRequest, NotFound
from indexer.language import LANGUAGES
from indexer.text import fold

MAX_CARD_QUERY = 200
#: Card names suggested for what was typed, at most (Discord shows 25 choices).
MAX_SUGGESTIONS = 25


class Catalogue:
    """Archive-only operations over one loaded archive."""

    def __init__(self, archive: Archive):
        self.archive = archive
        self.cards = CardLookup(archive)
        self._alias_to_game = archive.game_names()

    # -- names a caller sends --------------------------------------------------------------
    def resolve_game(self, game: Any) -> str | None:
        """A game id from an id, name or alias (any case); None for none; InvalidRequest else."""
        if game is None or game == "":
            return None
        if not isinstance(game, str):
            raise InvalidRequest("'game' must be a string")
        found = self._alias_to_game.get(fold(game.strip()))
        if found is None:
            raise InvalidRequest(
                f"unknown game {game!r}; known games: {', '.join(self.archive.games)}"
            )
        return found

    def game_spellings(self) -> list[str]:
        """Every id, name and alias as written: the values the API documents for `game`."""
        out: list[str] = []
        for game in self.archive.games.values():
            for name in (game.id, game.name, *game.aliases):
                if name not in out:
                    out.append(name)
        return out

    # -- operations --------------------------------------------------------------------------
    def get(self, record_id: str) -> Ruling:
        rec = self.archive.get(record_id)
        if rec is None:
            raise NotFound(f"no ruling with id {record_id!r}")
        return rec

    def find(
        self, *, card: str | None = None, game: str | None = None, kind: str | None = None
    ) -> list[Ruling]:
        """Rulings of a game and kind; about a card (forgiving), best match first."""
        if card is not None and (not card.strip() or len(card) > MAX_CARD_QUERY):
            raise InvalidRequest(
                f"'card' must be a non-empty string of at most {MAX_CARD_QUERY} characters"
            )
        records = [
            r
            for r in self.archive.records.values()
            if (game is None or r.game == game) and (kind is None or r.kind == kind)
        ]
        if card is None:
            return records
        scores = self.cards.query(card)
        # Equal matches: errata first, since this is how players look up corrections.
        return sorted(
            (r for r in records if r.id in scores),
            key=lambda r: (-scores[r.id], KINDS.index(r.kind) if r.kind != "erratum" else -1, r.id),
        )

    def card_names(self) -> list[str]:
        return self.cards.names()

    @cached_property
    def _card_suggestions(self) -> CardLookup:
        return CardLookup.of_labels(self.archive)

    def suggest_cards(self, typed: str | None, limit: int = MAX_SUGGESTIONS) -> list[str]:
        """Every card name (sorted) for no text; else the best `limit` names for what was typed:
        ranked by the matcher of `find(card=...)` run over the names themselves, then the names
        a word of which starts with the text (a name half typed). Built once per catalogue, so
        a rebuilt archive suggests its own names."""
        if not typed or not typed.strip():
            return self.card_names()
        scores = self._card_suggestions.query(typed)
        ranked = sorted(scores, key=lambda name: (-scores[name], name))
        folded = fold(typed).strip()
        if not any(ch.isalnum() for ch in folded):
            return ranked[:limit]
        started = [
            n
            for n in self.card_names()
            if n not in scores and any(w.startswith(folded) for w in [fold(n), *fold(n).split()])
        ]
        return (ranked + started)[:limit]

    def games(self) -> list[dict[str, Any]]:
        """Each game with its aliases, counts by kind and the languages its rulings read in."""
        out = []
        for game in self.archive.games.values():
            recs = [r for r in self.archive.records.values() if r.game == game.id]
            counts: dict[str, int] = {kind: sum(r.kind == kind for r in recs) for kind in KINDS}
            counts["total"] = len(recs)
            languages = sorted({lang for r in recs for lang in r.languages()}, key=LANGUAGES.index)
            out.append(
                {
                    "id": game.id,
                    "name": game.name,
                    "aliases": game.aliases,
                    "counts": counts,
                    "languages": languages,
                }
            )
        return out
