"""Every string a person reads about a ruling, made in one place.

The citation line, the title of a ruling that has none, the kind's label, language and game
names, the translation's label: the API carries them ready-made (``display_title``,
``kind_label``, ``game_name``, ``citation.label``, ``translation.label``), and the CLI, the
page (server-rendered and JS), the Discord bot and the docs all render these, so they cannot
drift apart. Functions take the API's ruling JSON (a dict), so clients of the API can use them
on what they received.
"""
from __future__ import annotations

from typing import Any

from indexer.archive import Ruling

LANGUAGE_NAMES: dict[str, str] = {"en": "English", "nl": "Nederlands", "da": "Dansk",
                                  "it": "Italiano", "de": "Deutsch", "es": "Español",
                                  "fr": "Français"}
OUR_TRANSLATION = "unofficial translation; the original is the authority"
OFFICIAL_EDITION = "the same rule in another official edition"
CITATION_SEPARATOR = " · "


def language_name(code: str) -> str:
    """'de' -> 'Deutsch' (a language's name in that language)."""
    return LANGUAGE_NAMES.get(code, code)


def kind_label(kind: str) -> str:
    """'edge case' -> 'Edge case' (the badge text)."""
    return kind[:1].upper() + kind[1:]


def pages_label(pages: list[str]) -> str | None:
    """['18'] -> 'p. 18'; ['18', '20'] -> 'pp. 18, 20'; [] -> None."""
    if not pages:
        return None
    return f"p. {pages[0]}" if len(pages) == 1 else f"pp. {', '.join(pages)}"


def citation_parts(cit: dict[str, Any]) -> list[str]:
    """The citation as short parts: source, pages (or section), author, site, date."""
    where = pages_label(cit.get("pages") or [])
    parts = [cit.get("source"), where, None if where else cit.get("section"),
             cit.get("author"), cit.get("site"), cit.get("date")]
    return [str(p) for p in parts if p]


def citation_label(cit: dict[str, Any]) -> str:
    """'Frosthaven FAQ · dwarf74 · boardgamegeek.com · 2026-07-14'."""
    return CITATION_SEPARATOR.join(citation_parts(cit))


def display_title(ruling: dict[str, Any]) -> str:
    """The ruling's title, else its source and pages (rulebook passages have no title)."""
    if ruling.get("title"):
        return ruling["title"]
    parts = citation_parts(ruling["citation"])[:2]
    return ", ".join(parts) if parts else f"Ruling {ruling['id']}"


def translation_label(edition_of: str | None) -> str:
    """How a translation is labelled: another official edition, or ours."""
    return OFFICIAL_EDITION if edition_of else OUR_TRANSLATION


def game_name(game_id: str, names: dict[str, str] | None = None) -> str:
    """A game's display name (from the archive's games), else its id."""
    return (names or {}).get(game_id, game_id)


def ruling_view(rec: Ruling, lang: str | None = None,
                game_names: dict[str, str] | None = None) -> dict[str, Any]:
    """A ruling as the API shows it: the original text, plus the asker's translation, plus the
    ready-made labels."""
    translation = None
    if lang and lang != rec.lang and lang in rec.translations:
        tr = rec.translations[lang]
        translation = {"lang": lang, "text": tr.text, "title": tr.title, "context": tr.context,
                       "edition_of": tr.edition_of, "label": translation_label(tr.edition_of),
                       "language_name": language_name(lang)}
    cit = rec.citation.model_dump(exclude_none=True)
    cit["label"] = citation_label(cit)
    view = {
        "id": rec.id, "game": rec.game, "kind": rec.kind, "lang": rec.lang,
        "title": rec.title, "context_label": rec.context_label, "context": rec.context,
        "text": rec.text, "citation": cit,
        "cards": [{"type": c.type, "name": c.name, "of": c.of, "label": c.label} for c in rec.cards],
        "amends": [a.model_dump() for a in rec.amends],
        "translation": translation, "related": list(rec.related),
    }
    view.update(display_title=display_title(view), kind_label=kind_label(rec.kind),
                game_name=game_name(rec.game, game_names), language_name=language_name(rec.lang))
    return view


def check_games(names: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """(id, name) of the games the rules checker computes for, for game choices."""
    from checker.base import GAMES

    return [(gid, game_name(gid, names) if names else gid.title()) for gid in GAMES]


def step_citation(rulings: list[str]) -> str:
    """A checker step's citation for text output: the ids, or that no ruling covers it."""
    return ", ".join(rulings) if rulings else "no ruling in the archive"
