"""Text normalisation shared by every matcher: folding, and tokens for BM25.

One fold for the whole project (names, questions, card lookups, the bot's suggestions), so a
name matches the same way wherever it is compared.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from indexer.language import STEMMERS

WORD = re.compile(r"\w+", re.UNICODE)
_QUOTES = str.maketrans("\u201c\u201d\u201e\u00ab\u00bb\u2018\u2019", '"""""\'\'')


# The combining marks of U+0300-U+036F (all but the grapheme joiner U+034F, which is not one):
# the accents NFKD splits off Latin letters, removed by one regex pass instead of a Python test
# of every character; any other mark is left to that test.
_LATIN_MARKS = re.compile(
    "[" + "".join(chr(c) for c in range(0x300, 0x370) if unicodedata.combining(chr(c))) + "]+"
)
_QUOTE_PAIRS = tuple((chr(k), chr(v)) for k, v in _QUOTES.items())


def fold(text: str) -> str:
    """Lower-case, accents stripped, curly quotes straightened: how names are compared.

    Every character folds to one character or none (never more, except ligatures NFKD splits),
    so offsets found in a folded text of plain letters carry over to the original.
    """
    if text.isascii():
        # For ASCII casefold is lower, NFKD changes nothing and there are no marks or quotes.
        return text.lower()
    folded = unicodedata.normalize("NFKD", text.casefold())
    for quote, plain in _QUOTE_PAIRS:  # a quote is no mark: the order of the steps is free
        if quote in folded:
            folded = folded.replace(quote, plain)
    folded = _LATIN_MARKS.sub("", folded)
    if folded.isascii():  # no other marks can be left (they are not ASCII)
        return folded
    return "".join(ch for ch in folded if not unicodedata.combining(ch))


@lru_cache(maxsize=8)
def _stemmer(lang: str):
    import Stemmer

    return Stemmer.Stemmer(STEMMERS.get(lang, "english"))


@lru_cache(maxsize=8)
def stopwords(lang: str) -> frozenset[str]:
    """The folded stop words of a language (bm25s' lists)."""
    import bm25s.stopwords as sw

    table = {
        "en": sw.STOPWORDS_EN,
        "nl": sw.STOPWORDS_DUTCH,
        "da": sw.STOPWORDS_DANISH,
        "it": sw.STOPWORDS_ITALIAN,
        "de": sw.STOPWORDS_GERMAN,
        "es": sw.STOPWORDS_SPANISH,
        "fr": sw.STOPWORDS_FRENCH,
    }
    return frozenset(fold(w) for w in table.get(lang, ()))


def tokens_of_folded(folded: str, lang: str) -> list[str]:
    """Stop-word-free, stemmed tokens of an already folded text; numbers without leading zeros."""
    stop = stopwords(lang)
    words = [w for w in WORD.findall(folded) if w not in stop]
    words = [w.lstrip("0") or "0" if w.isdigit() else w for w in words]
    return _stemmer(lang).stemWords(words)


def tokenize(text: str, lang: str) -> list[str]:
    """Folded, stop-word-free, stemmed tokens of `text` in `lang`."""
    return tokens_of_folded(fold(text), lang)


def numbers_in(folded: str) -> set[str]:
    """The numbers a folded text holds, without leading zeros ("item 0225" -> {"225"})."""
    return {n.lstrip("0") or "0" for n in re.findall(r"\d+", folded)}
