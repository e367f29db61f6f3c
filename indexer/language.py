"""The seven languages, in one place: their codes, names and per-language tables, and which of
them a text is in (lingua, restricted to those seven).

Every ruling reads in each of them (original or translation); players ask in them; the page,
the API's labels and the bot speak them. Everything else that lists languages takes them from
here (``LANGUAGES``, the ``Lang`` type) or keys a table by them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal, TypeVar, get_args, overload

#: The languages players ask in, in the order the project lists them.
Lang = Literal["en", "nl", "da", "it", "de", "es", "fr"]
LANGUAGES: tuple[Lang, ...] = get_args(Lang)
#: Each language's name in English (how a source's edition is labelled: "(Dutch)").
ENGLISH_NAMES: dict[str, str] = {
    "en": "English",
    "nl": "Dutch",
    "da": "Danish",
    "it": "Italian",
    "de": "German",
    "es": "Spanish",
    "fr": "French",
}
#: Each language's name in that language (the page's language switcher, the labels).
NATIVE_NAMES: dict[str, str] = {
    "en": "English",
    "nl": "Nederlands",
    "da": "Dansk",
    "it": "Italiano",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
}
#: The Snowball stemmer of each language (PyStemmer's names), for BM25 and word coverage.
STEMMERS: dict[str, str] = {
    "en": "english",
    "nl": "dutch",
    "da": "danish",
    "it": "italian",
    "de": "german",
    "es": "spanish",
    "fr": "french",
}

# Short texts such as "item 225" are near-ties between languages; demanding this much distance
# between the best two makes such a text "unsure" (then the caller's default, usually English)
# instead of a guess.
MIN_RELATIVE_DISTANCE = 0.1


@lru_cache(maxsize=1)
def _detector():
    from lingua import Language, LanguageDetectorBuilder

    langs = {code: getattr(Language, ENGLISH_NAMES[code].upper()) for code in LANGUAGES}
    # Preloaded: lingua then reads the seven languages' n-gram models on all cores at once,
    # which is most of what the service's cold start waits for; the same models either way.
    detector = (
        LanguageDetectorBuilder.from_languages(*langs.values())
        .with_minimum_relative_distance(MIN_RELATIVE_DISTANCE)
        .with_preloaded_language_models()
        .build()
    )
    return detector, {v: k for k, v in langs.items()}


_Default = TypeVar("_Default", bound=str | None)


#: How sure the detector must be (its relative confidence) to overrule the reader's language.
#: Measured on the 835 questions of the project's sets that name their language: with each
#: question's own language as the hint, every one is read right (7 are misread without it);
#: with a wrong hint, 3% turn to it, all short or mixed ones (docs/decisions.md).
SURE_OVER_HINT = 0.5


@overload
def detect_language(text: str, *, hint: str | None = None) -> Lang: ...


@overload
def detect_language(
    text: str, default: _Default, *, hint: str | None = None
) -> Lang | _Default: ...


def detect_language(
    text: str, default: str | None = "en", *, hint: str | None = None
) -> str | None:
    """The language code of `text` among the seven, or `default` when unsure.

    `hint` is the reader's language (the page's, the browser's, the Discord user's): a short or
    ambiguous text is read in it unless the detector is clearly sure of another language."""
    detector, codes = _detector()
    found = detector.detect_language_of(text)
    if hint not in LANGUAGES:
        return codes.get(found, default) if found is not None else default
    if found is None or codes.get(found) == hint:
        return hint
    confidence = detector.compute_language_confidence(text, found)
    return codes[found] if confidence >= SURE_OVER_HINT else hint


assert set(ENGLISH_NAMES) == set(NATIVE_NAMES) == set(STEMMERS) == set(LANGUAGES)
