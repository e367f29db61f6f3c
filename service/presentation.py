"""Every string a person reads about a ruling, made in one place, in the reader's language.

The citation line, the title of a ruling that has none, the kind's label, language and game
names, the translation's label: the API carries them ready-made (``display_title``,
``kind_label``, ``game_name``, ``citation.label``, ``translation.label``), and the CLI, the
page (server-rendered and JS), the Discord bot and the docs all render these, so they cannot
drift apart. Functions take the API's ruling JSON (a dict), so clients of the API can use them
on what they received.

Each label function takes a language (default English, the API's labels as they always were);
the API adds the asker's language beside the English ones (``kind_label_local``,
``citation.label_local``, ``translation.label_local``, ``context_label_local``,
``reason_local``), from the gettext catalogues of ``service.i18n``; and the source's name too
where the archive names it in English (``citation.source_local``, ``citation.line_local``,
``display_title_local``: "Uddrag af Frosthaven-regelbogen (italiensk), side 38").
"""

from __future__ import annotations

import re
from typing import Any

from babel import Locale, UnknownLocaleError

from checker.base import GAMES
from indexer.archive.schema import Ruling
from indexer.language import ENGLISH_NAMES, NATIVE_NAMES
from service.i18n import N_, _, ngettext
from service.i18n import language_name as catalogue_language_name

LANGUAGE_NAMES: dict[str, str] = NATIVE_NAMES
OUR_TRANSLATION = N_("unofficial translation; the original is the authority")
OFFICIAL_EDITION = N_("the same rule in another official edition")
#: How the importer names an edition's rulebook passages (indexer/archive/sources/formats.py:
#: "Frosthaven rulebook excerpt (Italian)"), said in the reader's language (``source_local``).
RULEBOOK_EXCERPT = N_("%(game)s rulebook excerpt (%(language)s)")
_EXCERPT_SOURCE = re.compile(r"^(?P<game>.+) rulebook excerpt \((?P<language>[A-Za-z]+)\)$")
_ENGLISH_CODES = {name: code for code, name in ENGLISH_NAMES.items()}
CITATION_SEPARATOR = " · "
KIND_LABELS: dict[str, str] = {
    "rulebook": N_("Rulebook"),
    "erratum": N_("Erratum"),
    "clarification": N_("Clarification"),
    "edge case": N_("Edge case"),
    "example": N_("Example"),
}
CONTEXT_LABELS: dict[str, str] = {"CONTEXT": N_("Context"), "SITUATION": N_("Situation")}
#: The rules checker's checks, as the page and the bot name a computed answer's check.
CHECK_LABELS: dict[str, str] = {
    "damage": N_("Damage"),
    "initiative": N_("Initiative"),
    "exhaustion": N_("Exhaustion"),
    "advantage": N_("Advantage and disadvantage"),
}
#: The reasons search gives (``indexer.search.REASONS``), so that ``reason_local`` can say
#: them in the asker's language (a reason missing here is shown in English).
DECLINE_REASONS = (
    N_("the question is about a game the archive holds no rulings for"),
    N_("the question names a card this ruling is about"),
    N_("no ruling answers it closely enough"),
    N_("no ruling shares anything with the question"),
    N_("a ruling answers it closely enough"),
)


def language_name(code: str) -> str:
    """'de' -> 'Deutsch' (a language's name in that language)."""
    return LANGUAGE_NAMES.get(code) or catalogue_language_name(code)


def kind_label(kind: str, lang: str = "en") -> str:
    """'edge case' -> 'Edge case' (the badge text), in `lang`."""
    label = KIND_LABELS.get(kind)
    return _(label, lang) if label else kind[:1].upper() + kind[1:]


def context_label(label: str | None, lang: str = "en") -> str:
    """'SITUATION' -> 'Situation'; a context without a label is a 'Context'."""
    text = CONTEXT_LABELS.get(label or "CONTEXT")
    return _(text, lang) if text else (label or "").capitalize()


def pages_label(pages: list[str], lang: str = "en") -> str | None:
    """['18'] -> 'p. 18'; ['18', '20'] -> 'pp. 18, 20'; [] -> None (abbreviated in `lang`)."""
    if not pages:
        return None
    return ngettext("p. %(pages)s", "pp. %(pages)s", len(pages), lang, pages=", ".join(pages))


def citation_parts(cit: dict[str, Any], lang: str = "en") -> list[str]:
    """The citation as short parts: source, pages (or section), author, site, date."""
    where = pages_label(cit.get("pages") or [], lang)
    parts = [
        cit.get("source"),
        where,
        None if where else cit.get("section"),
        cit.get("author"),
        cit.get("site"),
        cit.get("date"),
    ]
    return [str(p) for p in parts if p]


def citation_label(cit: dict[str, Any], lang: str = "en") -> str:
    """'Frosthaven FAQ · dwarf74 · boardgamegeek.com · 2026-07-14'."""
    return CITATION_SEPARATOR.join(citation_parts(cit, lang))


def language_in(code: str, lang: str) -> str:
    """A language's name in `lang`: ('it', 'da') -> 'italiensk' (Babel's locale data)."""
    try:
        return Locale.parse(lang).languages.get(code) or language_name(code)
    except (ValueError, UnknownLocaleError):
        return language_name(code)


def source_label(source: str, lang: str = "en") -> str:
    """A citation's source in `lang`: an edition's rulebook excerpt, named by the importer in
    English ("Frosthaven rulebook excerpt (Italian)"), is said in `lang`; any other source (a
    FAQ's, a book's name) is a name and stays as the archive gives it."""
    match = _EXCERPT_SOURCE.match(source)
    code = _ENGLISH_CODES.get(match["language"]) if match else None
    if match is None or code is None or lang == "en":
        return source
    return _(RULEBOOK_EXCERPT, lang, game=match["game"], language=language_in(code, lang))


def local_citation_parts(cit: dict[str, Any], lang: str) -> list[str]:
    """`citation_parts` with the source's name in `lang` too (``source_label``)."""
    parts = citation_parts(cit, lang)
    if parts and cit.get("source") and parts[0] == str(cit["source"]):
        parts[0] = source_label(str(cit["source"]), lang)
    return parts


def display_title(ruling: dict[str, Any], lang: str = "en") -> str:
    """The ruling's title, else its source and pages (rulebook passages have no title)."""
    if ruling.get("title"):
        return ruling["title"]
    parts = citation_parts(ruling["citation"], lang)[:2]
    return ", ".join(parts) if parts else _("Ruling %(id)s", lang, id=ruling["id"])


def translation_label(edition_of: str | None, lang: str = "en") -> str:
    """How a translation is labelled: another official edition, or ours."""
    return _(OFFICIAL_EDITION if edition_of else OUR_TRANSLATION, lang)


def reason_label(reason: str | None, lang: str = "en") -> str:
    """A decline decision's reason in `lang` (English when the catalogue lacks it)."""
    return _(reason, lang) if reason else ""


def page_labels(lang: str) -> dict[str, dict[str, str]]:
    """The fixed label vocabularies in `lang`, for the page to show API results in its own
    language (the API's ``*_local`` labels follow the asker's, which may be another)."""
    return {
        "kind": {kind: kind_label(kind, lang) for kind in KIND_LABELS},
        "context": {key: _(text, lang) for key, text in CONTEXT_LABELS.items()},
        "translation": {"ours": _(OUR_TRANSLATION, lang), "edition": _(OFFICIAL_EDITION, lang)},
        "reason": {reason: _(reason, lang) for reason in DECLINE_REASONS},
        "check": {check: _(text, lang) for check, text in CHECK_LABELS.items()},
    }


def translation_missing(lang: str) -> str:
    """Why a ruling comes without a translation into `lang`."""
    return f"no translation into {lang} yet"


def game_name(game_id: str, names: dict[str, str] | None = None) -> str:
    """A game's display name (from the archive's games), else its id."""
    return (names or {}).get(game_id, game_id)


def local_labels(view: dict[str, Any], lang: str) -> dict[str, Any]:
    """`view` (a ruling as the API shows it) with its ``*_local`` labels in `lang`."""
    out = dict(
        view,
        kind_label_local=kind_label(view["kind"], lang),
        context_label_local=(
            context_label(view.get("context_label"), lang) if view.get("context") else None
        ),
    )
    cit = view["citation"]
    local_parts = local_citation_parts(cit, lang)
    out["citation"] = dict(
        cit,
        label_local=citation_label(cit, lang),
        source_local=source_label(str(cit["source"]), lang),
        line_local=CITATION_SEPARATOR.join(local_parts),
    )
    # The title in `lang`: the translation's (into `lang`), the title, else the source's name
    # and pages said in `lang` (``display_title`` names the source as the archive gives it).
    tr_title = (view.get("translation") or {}).get("title")
    out["display_title_local"] = (
        tr_title
        or view.get("title")
        or ", ".join(local_parts[:2])
        or _("Ruling %(id)s", lang, id=view["id"])
    )
    if view.get("translation"):
        tr = view["translation"]
        out["translation"] = dict(
            tr, label_local=translation_label(tr.get("edition_of"), tr["lang"])
        )
    return out


def ruling_view(
    rec: Ruling, lang: str | None = None, game_names: dict[str, str] | None = None
) -> dict[str, Any]:
    """A ruling as the API shows it: the original text, plus the asker's translation, plus the
    ready-made labels (English, and ``*_local`` in the asker's language)."""
    translation = None
    missing = None
    if lang and lang != rec.lang and lang in rec.translations:
        tr = rec.translations[lang]
        translation = {
            "lang": lang,
            "text": tr.text,
            "title": tr.title,
            "context": tr.context,
            "edition_of": tr.edition_of,
            "label": translation_label(tr.edition_of),
            "language_name": language_name(lang),
        }
    elif lang and lang != rec.lang:
        # A newly imported ruling: no official edition linked and no translation of ours yet.
        missing = translation_missing(lang)
    cit = rec.citation.model_dump(exclude_none=True)
    cit["label"] = citation_label(cit)
    view = {
        "id": rec.id,
        "game": rec.game,
        "kind": rec.kind,
        "lang": rec.lang,
        "title": rec.title,
        "context_label": rec.context_label,
        "context": rec.context,
        "text": rec.text,
        "citation": cit,
        "cards": [
            {"type": c.type, "name": c.name, "of": c.of, "label": c.label} for c in rec.cards
        ],
        "amends": [a.model_dump() for a in rec.amends],
        "translation": translation,
        "translation_missing": missing,
        "related": list(rec.related),
    }
    view.update(
        display_title=display_title(view),
        kind_label=kind_label(rec.kind),
        game_name=game_name(rec.game, game_names),
        language_name=language_name(rec.lang),
    )
    return local_labels(view, lang or "en")


def check_games(names: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """(id, name) of the games the rules checker computes for, for game choices."""
    return [(gid, game_name(gid, names) if names else gid.title()) for gid in GAMES]


def step_citation(rulings: list[str], lang: str = "en") -> str:
    """A checker step's citation for text output: the ids, or that no ruling covers it."""
    return ", ".join(rulings) if rulings else _("no ruling in the archive", lang)
