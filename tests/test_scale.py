"""The ask path at scale: the indexed card lookup finds exactly what comparing every name finds.

``CardLookup.match_folded`` scores only the names its ``NameIndex`` lets through; these tests
compare it with ``match_folded_exhaustive`` (every name scored, the lookup as it was) on the
real archive, for card names, labels, misspellings and the dev / own question sets in every
language, and on a generated archive of thousands of names.
"""
from __future__ import annotations

import random

import pytest

from indexer.cards import CardLookup
from indexer.evaluate import load_questions
from indexer.text import fold
from tests.conftest import DEV_SET, REPO

OWN_SET = REPO / "bench" / "eval" / "own.yaml"


def _misspelt(name: str, rnd: random.Random) -> str:
    """`name` with one to three letters dropped, doubled, swapped or replaced."""
    chars = list(name)
    for _ in range(rnd.randint(1, 3)):
        if len(chars) < 2:
            break
        pos = rnd.randrange(len(chars) - 1)
        op = rnd.randrange(4)
        if op == 0:
            del chars[pos]
        elif op == 1:
            chars.insert(pos, chars[pos])
        elif op == 2:
            chars[pos], chars[pos + 1] = chars[pos + 1], chars[pos]
        else:
            chars[pos] = rnd.choice("aeiourst")
    return "".join(chars)


def _texts(lookup: CardLookup, questions: list[str], seed: int) -> list[str]:
    """Names alone, misspelt, inside sentences, cut short, and whole questions."""
    rnd = random.Random(seed)
    names = sorted({e.folded for e in lookup.entries} | {fold(e.label) for e in lookup.entries})
    texts = list(names) + list(questions)
    for name in names:
        typo = _misspelt(name, rnd)
        texts += [typo, f"how does {typo} work?", f"{typo} and {rnd.choice(names)}",
                  name[: max(1, len(name) * 4 // 5)], f"kann ich {name} zweimal spielen"]
    return texts


def _assert_same(lookup: CardLookup, texts: list[str]) -> int:
    matched = 0
    for text in texts:
        folded = fold(text)
        fast = lookup.match_folded(folded)
        assert fast == lookup.match_folded_exhaustive(folded), text
        matched += bool(fast)
    return matched


def test_indexed_lookup_equals_scoring_every_name_on_the_real_archive(archive):
    if not DEV_SET.exists():
        pytest.skip(f"{DEV_SET} not present")
    lookup = CardLookup(archive)
    questions = [q.q for path in (DEV_SET, OWN_SET) for q in load_questions(path)]
    texts = _texts(lookup, questions, seed=18)
    assert len(texts) > 450
    # Not vacuous: many of the texts do name a card.
    assert _assert_same(lookup, texts) > 150


def test_indexed_lookup_equals_scoring_every_name_on_a_generated_archive():
    from bench.askpath import questions, synthetic_archive

    archive = synthetic_archive(3000, seed=7)
    lookup = CardLookup(archive)
    texts = _texts(lookup, questions(archive, 200, seed=7), seed=7)
    rnd = random.Random(7)
    texts = rnd.sample(texts, 1500)
    assert _assert_same(lookup, texts) > 300


def test_the_name_index_scores_few_of_many_names():
    """The point of the index: a question is compared with a small share of the names."""
    from bench.askpath import synthetic_archive

    lookup = CardLookup(synthetic_archive(3000, seed=8))
    total = len(lookup._fuzzy_names)
    found = lookup._names.candidates(fold("Can my summon attack an enemy that is invisible "
                                          "when it stands next to a trap?"))
    assert total > 2000
    assert len(found) < total / 10
