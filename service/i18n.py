"""The interface in the reader's language: gettext catalogues read straight from ``.po`` files.

``service/translations/<lang>.po`` holds one language each (``messages.pot`` is the template a
translator starts from); a new ``.po`` file is a new language for the page, the API's labels
and the Discord bot, with no code to change and no compile step: the ``.po`` is parsed (Babel)
and turned into a gettext catalogue in memory on first use. English is the source language:
the msgids themselves.

The messages are extracted from the templates, the page's scripts (``t("...")``) and the
Python sources (``_``, ``N_``, ``ngettext``, ``pgettext``, ``discord_name``; the rules
checker's step sentences, ``msg``);
``python -m service.i18n update`` rewrites the template and merges it into every catalogue,
``python -m service.i18n check`` lists what a catalogue lacks.
"""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Iterable, Iterator
from functools import lru_cache
from gettext import NullTranslations
from pathlib import Path
from typing import Any, cast

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_javascript, extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import Translations

from indexer.files import write_atomic
from indexer.language import LANGUAGES

log = logging.getLogger(__name__)

SOURCE_LANGUAGE = "en"
SERVICE = Path(__file__).resolve().parent
ROOT = SERVICE.parent
CATALOGUES = SERVICE / "translations"
TEMPLATE = CATALOGUES / "messages.pot"
#: The files whose strings are translated, by extractor.
PYTHON_SOURCES = (
    "presentation.py",
    "discord/embeds.py",
    "discord/gateway.py",
    "discord/commands.py",
    "discord/interactions.py",
    "discord/slash.py",
)
#: The rules checker's modules (globs from the repository's root): the sentences of their steps
#: and of the monster's explanation (``msg("...")``, checker.message), said in the asker's
#: language in computed answers.
CHECKER_SOURCES = ("checker/*.py", "checker/monster/*.py", "checker/reader/*.py")
SCRIPT_SOURCES = (
    "web/static/app.js",
    "web/static/ruling.js",
    "web/static/calculators.js",
    "web/static/board.js",
    "web/static/board-answer.js",
)
TEMPLATE_SOURCES = "web/templates/*.html"
PYTHON_KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "discord_name": None,
    "msg": None,
}
#: Discord names (commands, options) are translated apart from the same words elsewhere.
DISCORD_NAME_CONTEXT = "discord name"
HEADER_COMMENT = (
    "# Translations of the rulings page, the API's labels and the Discord bot.\n"
    "# A new language: copy messages.pot to <code>.po (e.g. pt.po), set Language,\n"
    "# translate every msgstr; keep game terms as that language's editions name them."
)
#: Archive languages first, in this order; any other catalogue after them.
PREFERRED_ORDER = LANGUAGES


def N_(message: str) -> str:
    """Mark a string for extraction without translating it here (translated where shown)."""
    return message


def discord_name(message: str) -> str:
    """Mark a Discord command or option name (extracted with its own context)."""
    return message


# -- the catalogues -----------------------------------------------------------------------------
def catalogue_path(lang: str) -> Path:
    return CATALOGUES / f"{lang}.po"


@lru_cache(maxsize=1)
def available() -> tuple[str, ...]:
    """The interface languages: English and one per ``.po`` file, archive languages first."""
    found = {p.stem for p in CATALOGUES.glob("*.po")} | {SOURCE_LANGUAGE}
    first = [code for code in PREFERRED_ORDER if code in found]
    return (*first, *sorted(found - set(first)))


def read_catalogue(lang: str) -> Catalog:
    """One language's ``.po`` file, parsed."""
    with catalogue_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang, domain="messages")


@lru_cache(maxsize=32)
def translations(lang: str) -> NullTranslations:
    """The gettext catalogue of `lang` (English, or an unknown language: the msgids)."""
    if lang == SOURCE_LANGUAGE or lang not in available():
        return NullTranslations()
    buffer = io.BytesIO()
    write_mo(buffer, read_catalogue(lang))  # fuzzy entries are left out, as msgfmt does
    buffer.seek(0)
    return Translations(buffer, domain="messages")


def supported(lang: str | None) -> str:
    """`lang` if it is an interface language, else English."""
    return lang if lang in available() else SOURCE_LANGUAGE


def _format(text: str, params: dict[str, Any]) -> str:
    return text % params if params else text


def gettext(message: str, lang: str | None, **params: Any) -> str:
    """`message` in `lang`, with ``%(name)s`` placeholders filled from `params`."""
    return _format(translations(supported(lang)).gettext(message), params)


_ = gettext


def ngettext(singular: str, plural: str, n: int, lang: str | None, **params: Any) -> str:
    """The singular or plural form for `n` in `lang` (``%(n)d`` is filled with `n`)."""
    text = translations(supported(lang)).ngettext(singular, plural, n)
    return _format(text, {"n": n, **params})


def pgettext(context: str, message: str, lang: str | None, **params: Any) -> str:
    """`message` in `lang`, as translated in `context`."""
    return _format(translations(supported(lang)).pgettext(context, message), params)


def language_name(code: str) -> str:
    """A language's name in that language ('de' -> 'Deutsch')."""
    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (ValueError, UnknownLocaleError):
        return code
    return name[:1].upper() + name[1:]


def negotiate(ui: str | None, accept: Any = None) -> str:
    """The interface language: `ui` if supported, else the best of `accept` (werkzeug's
    LanguageAccept), else English."""
    if ui:
        code = ui.strip().lower().replace("_", "-").split("-")[0]
        if code in available():
            return code
    if accept is not None:
        best = accept.best_match(available())
        if best:
            return best
        for value, _quality in accept:  # "de-CH" when only "de" is offered
            code = str(value).lower().split("-")[0]
            if code in available():
                return code
    return SOURCE_LANGUAGE


# -- extraction ---------------------------------------------------------------------------------
Message = tuple[
    str | tuple[str, ...], str | None, str
]  # (msgid or (singular, plural), context, where)
# What an extractor yields: (lineno, funcname, messages, comments), messages a string or a tuple
# (None for an argument that is not a literal). Babel's annotation of its extractors gives the
# fields in another order (lineno, message, comments, context), so all are read as this.
Extracted = tuple[int, str, Any, list[str]]


def _python_messages(path: Path) -> Iterator[Message]:
    with path.open("rb") as fh:
        for lineno, funcname, messages, _comments in cast(
            Iterable[Extracted], extract_python(fh, PYTHON_KEYWORDS, [], {})
        ):
            where = f"{path.relative_to(ROOT)}:{lineno}"
            wanted = 2 if funcname in ("pgettext", "ngettext") else 1
            if isinstance(messages, tuple) and None in messages[:wanted]:
                continue  # a call on a variable, not a literal: nothing to extract
            if funcname == "pgettext" and isinstance(messages, tuple):
                yield messages[1], messages[0], where
            elif funcname == "ngettext" and isinstance(messages, tuple):
                yield (messages[0], messages[1]), None, where
            else:
                text = messages[0] if isinstance(messages, tuple) else messages
                context = DISCORD_NAME_CONTEXT if funcname == "discord_name" else None
                if text:
                    yield text, context, where


def _script_messages(path: Path) -> Iterator[Message]:
    with path.open("rb") as fh:
        for lineno, _funcname, messages, _comments in cast(
            Iterable[Extracted],
            extract_javascript(fh, {"t": None}, [], {"parse_template_string": True}),
        ):
            text = messages[0] if isinstance(messages, tuple) else messages
            if text:
                yield text, None, f"service/{path.relative_to(SERVICE)}:{lineno}"


def _template_messages(path: Path) -> Iterator[Message]:
    from jinja2.ext import babel_extract

    # Babel's keyword mapping, as babel itself passes it (jinja2 annotates a sequence of names
    # and reads only the names).
    keywords: Any = {"_": None, "gettext": None, "ngettext": (1, 2)}
    with path.open("rb") as fh:
        for lineno, funcname, messages, _comments in cast(
            Iterable[Extracted],
            babel_extract(
                fh, keywords, [], {"extensions": "jinja2.ext.i18n", "newstyle_gettext": "true"}
            ),
        ):
            where = f"service/{path.relative_to(SERVICE)}:{lineno}"
            if funcname == "ngettext" and isinstance(messages, tuple):
                yield (messages[0], messages[1]), None, where
            else:
                text = messages[0] if isinstance(messages, tuple) else messages
                if text:
                    yield text, None, where


def script_msgids() -> set[str]:
    """The msgids the page's scripts use (the page embeds exactly these)."""
    return {
        m
        for path in SCRIPT_SOURCES
        for m, _c, _w in _script_messages(SERVICE / path)
        if isinstance(m, str)
    }


def extract() -> Catalog:
    """Every translatable message of the templates, scripts and Python sources."""
    catalog = Catalog(
        project="rulings",
        domain="messages",
        charset="utf-8",
        fuzzy=False,
        header_comment=HEADER_COMMENT,
    )
    sources: list[Iterable[Message]] = [
        _python_messages(SERVICE / p) for p in PYTHON_SOURCES if (SERVICE / p).exists()
    ]
    sources += [
        _python_messages(path) for pattern in CHECKER_SOURCES for path in sorted(ROOT.glob(pattern))
    ]
    sources += [_script_messages(SERVICE / p) for p in SCRIPT_SOURCES]
    sources += [_template_messages(p) for p in sorted(SERVICE.glob(TEMPLATE_SOURCES))]
    for source in sources:
        for msgid, context, where in source:
            path, _sep, line = where.rpartition(":")
            catalog.add(msgid, locations=[(path, int(line))], context=context)
    return catalog


@lru_cache(maxsize=16)
def script_messages(lang: str) -> dict[str, str]:
    """{msgid: text in `lang`} for the page's scripts (embedded in the page as JSON)."""
    tr = translations(supported(lang))
    return {msgid: tr.gettext(msgid) for msgid in sorted(script_msgids())}


# -- maintenance: python -m service.i18n update | check -----------------------------------------
def missing(lang: str, template: Catalog | None = None) -> list[str]:
    """The messages of `template` (default: a fresh extraction) that `lang` lacks or leaves
    empty or fuzzy, one line each."""
    template = template or extract()
    catalogue = read_catalogue(lang)
    problems = []
    for message in template:
        if not message.id:
            continue
        found = catalogue.get(message.id, context=message.context)
        strings = (
            (found.string if isinstance(found.string, (list, tuple)) else [found.string])
            if found is not None
            else []
        )
        if found is None or found.fuzzy or not strings or not all(s and s.strip() for s in strings):
            label = message.id if isinstance(message.id, str) else message.id[0]
            problems.append(
                f"{lang}.po: {'fuzzy or empty' if found is not None else 'missing'}: "
                f"{label!r}" + (f" (context {message.context!r})" if message.context else "")
            )
    return problems


def _write_atomically(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_output=False, include_previous=False)
    write_atomic(path, buffer.getvalue(), mode=0o644)


def update() -> None:
    """Rewrite messages.pot from the sources and merge it into every ``.po`` file."""
    template = extract()
    _write_atomically(TEMPLATE, template)
    for lang in available():
        if lang == SOURCE_LANGUAGE:
            continue
        catalogue = read_catalogue(lang)
        catalogue.update(template, no_fuzzy_matching=True)
        _write_atomically(catalogue_path(lang), catalogue)
    available.cache_clear()
    translations.cache_clear()


def main(argv: list[str]) -> int:  # pragma: no cover - a maintainer's tool
    command = argv[0] if argv else "check"
    if command == "update":
        update()
        print(f"updated {TEMPLATE.name} and {len(available()) - 1} catalogues")
        return 0
    problems = [p for lang in available() if lang != SOURCE_LANGUAGE for p in missing(lang)]
    print("\n".join(problems) or "every catalogue is complete")
    return 1 if problems else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
