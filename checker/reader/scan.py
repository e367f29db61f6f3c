"""Tokenizer and annotated scan of one question: numbers, modifier cards, vocabulary terms.

A question becomes tokens (numbers, signed modifiers such as "+1", "x2", words, punctuation);
words are matched against the language's vocabulary (longest phrase first, one typo forgiven
on long words) and become terms with a concept ("attack", "shield", "effect.stun", ...).
Readers then bind numbers to the terms they belong to ("Shield 1", "2 cards in hand"),
each number at most once, nearest first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from checker.reader.lexicon import Lexicon, fold

_TOKEN = re.compile(
    r"""
    (?P<mod>(?<![\w+\-])[+\-][0-9]+(?![0-9]))      # +1 / -1, not the 1 of "3-1"
  | (?P<x2>(?<!\w)(?:[x×][ ]?2|2[ ]?[x×])(?!\w))   # x2 / 2x / x 2
  | (?P<num>[0-9]+)
  | (?P<word>[^\W\d_]+)
  | (?P<punct>[^\w\s])
""",
    re.VERBOSE,
)
_DASHES = str.maketrans({"\u2212": "-", "\u2013": "-", "\uff0b": "+"})
BARRIERS = frozenset(",.;?!")
# Joiners inside one phrase ("Algox-Archer", "Banner Spear's"): crossing them keeps a match.
JOINERS = frozenset("-'’")
# Concepts that never stop a number from reaching its term: "2 *cards* in hand".
PASSABLE = frozenset({"card", "article", "possessive", "of"})


@dataclass(frozen=True)
class Token:
    """One token: its text, folded form, kind and, for numbers and modifiers, the value."""

    index: int
    text: str
    folded: str
    kind: str  # "num" | "mod" | "word" | "punct"
    number: int | None = None  # digits or a number word
    weak: bool = False  # an article that may mean one ("a card"), or "no" before a noun
    modifier: str | None = None  # "+1", "-2", "x2"
    quote: str | None = None  # "open" / "close": a quotation mark around a card ('+1 Stun')

    @property
    def capitalised(self) -> bool:
        """A word written with a capital (a name may start here)."""
        return self.kind == "word" and self.text[:1].isupper()


@dataclass(frozen=True)
class Term:
    """A vocabulary match over tokens [start, end)."""

    concept: str
    start: int
    end: int
    surface: str


@dataclass
class Scan:
    """A question's tokens with their terms, and the numbers already bound to a term."""

    tokens: list[Token]
    terms: list[Term]
    lex: Lexicon
    term_of: dict[int, Term] = field(default_factory=dict)
    claimed: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        for term in self.terms:
            for i in range(term.start, term.end):
                self.term_of[i] = term

    # --- looking up -------------------------------------------------------------------------

    def find(self, *concepts: str) -> list[Term]:
        """Terms of these concepts ("effect." matches every concept under it)."""
        return [
            t
            for t in self.terms
            if any(
                t.concept == c or (c.endswith(".") and t.concept.startswith(c)) for c in concepts
            )
        ]

    def has(self, *concepts: str) -> bool:
        """Whether any term of these concepts is in the question."""
        return bool(self.find(*concepts))

    def says(self, phrases: tuple[tuple[str, ...], ...]) -> bool:
        """Whether the question's words contain one of the phrases ("i attack")."""
        words = " " + " ".join(t.folded for t in self.tokens if t.kind == "word") + " "
        return any(f" {' '.join(p)} " in words for p in phrases)

    def concept(self, i: int) -> str | None:
        """The concept of the term covering token `i`, if any."""
        term = self.term_of.get(i)
        return term.concept if term else None

    def is_number(self, i: int, nouns: frozenset[str] = frozenset()) -> bool:
        """Token `i` is a usable number: not a term's own word, a weak one only before `nouns`."""
        tok = self.tokens[i]
        if tok.number is None or i in self.claimed:
            return False
        if i in self.term_of or tok.weak:
            # "null" / "a" / "keine" count only before a noun: "null Karten", "a card",
            # "keine im Ablagestapel" (two small words at most in between)
            return self._noun_follows(i, nouns | {"card"})
        return True

    def _noun_follows(self, i: int, nouns: frozenset[str], gap: int = 2) -> bool:
        for k in range(i + 1, min(len(self.tokens), i + 2 + gap)):
            concept = self.concept(k)
            if concept in nouns:
                return True
            if (
                self.tokens[k].kind != "word"
                or (concept is not None and concept not in PASSABLE)
                or self.concept(i) == "null_card"
            ):  # "null" right before its noun only
                return False
        return False

    def numbers(self) -> list[int]:
        """Indices of the strong numbers not yet bound."""
        return [
            t.index
            for t in self.tokens
            if t.number is not None
            and not t.weak
            and t.index not in self.term_of
            and t.index not in self.claimed
        ]

    def modifiers(self) -> list[int]:
        """Indices of the signed modifier tokens ("+1", "x2") not yet bound."""
        return [t.index for t in self.tokens if t.kind == "mod" and t.index not in self.claimed]

    def negated(self, term: Term, window: int = 2) -> bool:
        """A negation word ("no", "ohne", "senza"...) just before the term."""
        for i in range(term.start - 1, max(-1, term.start - 1 - window), -1):
            if self.concept(i) == "negation":
                return True
            if self.tokens[i].text in BARRIERS:
                return False
        return False

    # --- binding numbers to terms -----------------------------------------------------------

    def reach(
        self,
        term: Term,
        step: int,
        window: int,
        nouns: frozenset[str] = frozenset(),
        counted: frozenset[str] = frozenset(),
    ) -> tuple[int, int] | None:
        """The nearest free number from `term` in direction `step`: (token index, distance).

        A number right before a word of a `counted` concept counts that ("an attack with
        3 targets") and is not the term's.
        """
        i = term.end if step > 0 else term.start - 1
        skipped = 0
        while 0 <= i < len(self.tokens) and skipped <= window:
            tok = self.tokens[i]
            if self.is_number(i, nouns):
                after = self.concept(i + 1) if i + 1 < len(self.tokens) else None
                return None if after in counted else (i, skipped)
            if tok.text in BARRIERS or tok.kind in ("mod", "num"):
                return None
            concept = self.concept(i)
            if concept is not None and concept not in PASSABLE:
                return None
            skipped += 1
            i += step
        return None

    def bind(
        self,
        wanted: Iterable[tuple[Term, tuple[tuple[int, int], ...]]],
        nouns: frozenset[str] = frozenset(),
        counted: frozenset[str] = frozenset(),
    ) -> dict[Term, int]:
        """Give each term its nearest free number; each number goes to one term, closest first.

        `wanted` lists (term, ((step, window), ...)): the directions a term takes its number
        from, the first preferred (a later direction costs one more step of distance).
        """
        pairs: list[tuple[int, int, Term, int]] = []
        for order, (term, directions) in enumerate(wanted):
            for rank, (step, window) in enumerate(directions):
                hit = self.reach(term, step, window, nouns, counted)
                if hit is not None:
                    pairs.append((hit[1] + rank, order, term, hit[0]))
        bound: dict[Term, int] = {}
        for _, _, term, index in sorted(pairs, key=lambda p: (p[0], p[1])):
            if term in bound or index in self.claimed:
                continue
            bound[term] = index
            self.claimed.add(index)
        return bound

    def value(self, index: int) -> int:
        """The number of token `index` (a number token)."""
        number = self.tokens[index].number
        assert number is not None
        return number

    def block(self, *concepts: str) -> None:
        """Numbers that name a thing, not a quantity ("item 225", "page 18"): never bound."""
        for term in self.find(*(concepts or ("blocker",))):
            hit = self.reach(term, 1, 1)
            if hit is not None:
                self.claimed.add(hit[0])

    def text_between(self, start: int, end: int) -> str:
        """The original words of tokens [start, end) (for names)."""
        return surface(self.tokens, start, end)


# --- building a scan -------------------------------------------------------------------------


def tokenize(text: str, lex: Lexicon) -> list[Token]:
    """Tokens of `text`; number words of the language are numbers ("drei", "tre", "trois")."""
    tokens: list[Token] = []
    for match in _TOKEN.finditer(text.translate(_DASHES)):
        kind = match.lastgroup or "punct"
        raw = match.group()
        folded = fold(raw)
        i = len(tokens)
        if kind == "mod":
            sign, digits = raw[0], raw[1:]
            tokens.append(Token(i, raw, folded, "mod", modifier=f"{sign}{int(digits)}"))
        elif kind == "x2":
            tokens.append(Token(i, raw, folded, "mod", modifier="x2"))
        elif kind == "num":
            tokens.append(Token(i, raw, folded, "num", number=int(raw)))
        elif kind == "word":
            number, weak = lex.numbers.get(folded), False
            if number is None and folded in lex.weak_numbers:
                number, weak = lex.weak_numbers[folded], True
            elif number is None and folded in lex.zero_words:
                number, weak = 0, True
            tokens.append(Token(i, raw, folded, "word", number=number, weak=weak))
        else:
            tokens.append(Token(i, raw, folded, "punct", quote=_quote_side(text, match)))
    return _compound_numbers(tokens)


QUOTES = frozenset("'\"«»„“”‘’‹›")


def _quote_side(text: str, match: re.Match) -> str | None:
    """Whether a quotation mark opens or closes a quote: an opening one follows a space (or
    the start) and touches what follows; a closing one touches what precedes and is followed by
    a space, a punctuation mark or the end. The apostrophe of "j'ai" / "l'archive" is neither."""
    if match.group() not in QUOTES:
        return None
    before = text[match.start() - 1] if match.start() else " "
    after = text[match.end()] if match.end() < len(text) else " "
    if (before.isspace() or before in "(:[") and not after.isspace():
        return "open"
    if not before.isspace() and (after.isspace() or not after.isalnum()):
        return "close"
    return None


def _compound_numbers(tokens: list[Token]) -> list[Token]:
    """ "forty-five", "vingt-deux", "dix-sept": a tens word, a hyphen, a units word."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if (
            i + 2 < len(tokens)
            and tok.kind == "word"
            and not tok.weak
            and tok.number
            and tok.number % 10 == 0
            and tokens[i + 1].text == "-"
            and tokens[i + 2].kind == "word"
            and (units := tokens[i + 2].number) is not None
            and 0 < units < 10
        ):
            text = "".join(t.text for t in tokens[i : i + 3])
            out.append(Token(len(out), text, fold(text), "word", number=tok.number + units))
            i += 3
            continue
        out.append(
            Token(
                len(out),
                tok.text,
                tok.folded,
                tok.kind,
                tok.number,
                tok.weak,
                tok.modifier,
                tok.quote,
            )
        )
        i += 1
    return out


def surface(tokens: list[Token], start: int, end: int) -> str:
    """Tokens [start, end) as typed: spaces between words, none around joiners."""
    out = ""
    for tok in tokens[start:end]:
        glue = "" if not out or tok.text in JOINERS or out[-1] in JOINERS else " "
        out += glue + tok.text
    return out


def _joined(tokens: list[Token], positions: list[int]) -> bool:
    """Consecutive word positions separated by nothing but joiners ("Algox-Archer")."""
    return all(
        all(t.text in JOINERS for t in tokens[a + 1 : b]) for a, b in zip(positions, positions[1:])
    )


def annotate(tokens: list[Token], lex: Lexicon) -> list[Term]:
    """Vocabulary terms over the word tokens, longest phrase first."""
    stream = [t.index for t in tokens if t.kind == "word"]
    words = [tokens[i].folded for i in stream]
    terms: list[Term] = []
    j = 0
    while j < len(stream):
        tok = tokens[stream[j]]
        entry = lex.match_at(words, j)
        if entry is not None and not _joined(tokens, stream[j : j + len(entry.words)]):
            entry = None
        number_word = tok.number is not None and not tok.weak
        if entry is not None and number_word and not entry.native and len(entry.words) == 1:
            entry = None  # Danish "fire" is four, not the English element
        if entry is None and tok.number is None:
            entry = lex.fuzzy(words[j])
        if entry is None:
            j += 1
            continue
        span = stream[j : j + len(entry.words)]
        start, end = span[0], span[-1] + 1
        terms.append(Term(entry.concept, start, end, surface(tokens, start, end)))
        j += len(entry.words)
    return terms


def scan(text: str, lex: Lexicon) -> Scan:
    """The annotated scan of one question."""
    tokens = tokenize(text, lex)
    return Scan(tokens, annotate(tokens, lex), lex)


__all__ = ["BARRIERS", "Scan", "Term", "Token", "annotate", "scan", "tokenize"]
