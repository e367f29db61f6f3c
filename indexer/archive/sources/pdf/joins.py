"""A block's lines joined into its text: a word hyphenated at a line end rejoined, unless
the book shows it is a compound, the icons' places and the spaces before punctuation left out."""

from __future__ import annotations

import re
from collections import Counter

from indexer.archive.sources.document import Block
from indexer.archive.sources.pdf.page import OBJECT


def join_texts(parts: list[tuple[Block, list[str]]]) -> None:
    """Each block's lines joined into its text: a word hyphenated at a line end is rejoined,
    unless the book never writes it joined and does write it, or a compound with either of
    its parts ("one-handed" for "two-/handed"), with a hyphen elsewhere, or the line goes on
    with a compound ("end-/of-turn"); before a capital the hyphen stays ("Home-/Made")."""
    words = Counter(
        w.lower() for _, lines in parts for t in lines for w in re.findall(r"[\w'-]+", t)
    )
    # The parts of the compounds the book writes whole (a line-end "guess-" is none).
    compound: set[str] = set()
    for w in (w.strip("-") for w in words):
        if "-" in w:
            pieces = w.split("-")
            compound.update(p for p in (pieces[0], pieces[-1]) if len(p) >= 3)
    for block, lines in parts:
        text = ""
        for t in lines:
            end = re.search(r"(\w+)-$", text)
            start = re.match(r"([a-z][\w']*)", t)
            if end and t[:1].isupper():
                text += t  # a compound broken at its hyphen before a capital ("Home-/Made")
            elif end and start:
                first, second = end.group(1).lower(), start.group(1).lower()
                seen = words[f"{first}-{second}"] or first in compound or second in compound
                # "end-" / "of-turn": a compound of three words, broken at one of its hyphens.
                seen = seen or bool(re.match(r"[a-z][\w']*-\w", t))
                keep = seen and not words[first + second]
                text = (text if keep else text[:-1]) + t
            else:
                text = f"{text} {t}".strip()
        text = re.sub(r"\s+", " ", text.replace(OBJECT, " "))
        block.text = text.replace(" .", ".").replace(" ,", ",").strip()


def join_wrapped(first: str, line: str) -> str:
    """A heading's or title's lines joined: a word hyphenated at the line end is rejoined
    ("Dam-/age": TeX hyphenates headings in a narrow column), a compound broken at its hyphen
    keeps it before a capital or a digit ("Home-/Made")."""
    if not re.search(r"\w-$", first):
        return f"{first} {line}"
    return first[:-1] + line if line[:1].islower() else first + line


def join_title(title: str | None, line: str) -> str:
    """A title's lines joined (`join_wrapped`)."""
    return line if title is None else join_wrapped(title, line)
