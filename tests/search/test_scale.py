"""The ask path at scale: the indexed card lookup finds exactly what comparing every name finds.

``CardLookup.match_folded`` scores only the names its ``NameIndex`` lets through; these tests
compare it with ``match_folded_exhaustive`` (every name scored, the lookup as it was) on the
real archive, for card names, labels, misspellings and the dev / own question sets in every
language, and on a generated archive of thousands of names.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from indexer.archive.cards import CardLookup
from indexer.search.evaluate import load_questions
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
        texts += [
            typo,
            f"how does {typo} work?",
            f"{typo} and {rnd.choice(names)}",
            name[: max(1, len(name) * 4 // 5)],
            f"kann ich {name} zweimal spielen",
        ]
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
    found = lookup._names.candidates(
        fold("Can my summon attack an enemy that is invisible when it stands next to a trap?")
    )
    assert total > 2000
    assert len(found) < total / 10


# -- the search signals: numpy grouping equals the plain loop over every row ----------------


def _reference_dense(searcher, q, allowed):
    """Searcher.dense as a plain loop over the rows, best first (the code before numpy)."""
    from indexer.model.embedder import encode_queries
    from indexer.search.searcher import KEY_NEIGHBOURS

    index = searcher.index
    scores, rows = index.search(encode_queries(searcher.embedder, [q.body]), len(index.passages))
    text, keys, votes, seen = {}, {}, {}, 0
    for score, row in zip(scores[0], rows[0]):
        passage = index.passages[row]
        rid = searcher.archive.edition_group(passage.record)[0]
        is_key = passage.kind == "ask"
        if rid not in allowed or (is_key and not searcher.use_keys):
            continue
        (keys if is_key else text).setdefault(rid, float(score))
        if is_key and seen < KEY_NEIGHBOURS:
            seen += 1
            votes[rid] = votes.get(rid, 0.0) + 1.0 / KEY_NEIGHBOURS
    text = _reference_language_fair(searcher, q, allowed, scores[0], rows[0], text)
    if searcher.use_keys:
        gap = _reference_key_gap(searcher, q, scores[0], rows[0])
        for rid in searcher._keyless.intersection(text):
            keys.setdefault(rid, text[rid] + gap)
    return text, keys, votes


def _row_order(index, scores, rows):
    import numpy as np

    out = np.empty(len(index.passages), dtype=scores.dtype)
    out[rows] = scores
    return out


def _reference_language_fair(searcher, q, allowed, scores, rows, text):
    """A rule with no text in the question's language: its best text row, each shifted by the
    question's mean cosine with its own language's texts less that with the row's language."""
    import numpy as np

    from indexer.language import LANGUAGES

    index = searcher.index
    by_row = _row_order(index, scores, rows)
    langs = np.array([LANGUAGES.index(p.lang) for p in index.passages])
    texts = np.array([p.kind != "ask" for p in index.passages])
    means = np.bincount(langs[texts], weights=by_row[texts], minlength=len(LANGUAGES)) / np.maximum(
        np.bincount(langs[texts], minlength=len(LANGUAGES)), 1
    )
    own = LANGUAGES.index(q.lang)
    having = {
        searcher.archive.edition_group(p.record)[0]
        for p in index.passages
        if p.kind != "ask" and p.lang == q.lang
    }
    fair = dict(text)
    best: dict[str, np.float32] = {}
    for row, p in enumerate(index.passages):
        rid = searcher.archive.edition_group(p.record)[0]
        if p.kind == "ask" or rid in having or rid not in allowed:
            continue
        shifted = by_row[row] + (means[own] - means[langs[row]]).astype(by_row.dtype)
        best[rid] = max(best.get(rid, shifted), shifted)
    fair.update({rid: float(v) for rid, v in best.items() if rid in fair})
    return fair


def _reference_key_gap(searcher, q, scores, rows):
    """The question's mean cosine with the keys of its language less that with its texts."""
    import numpy as np

    index = searcher.index
    if not searcher._keyless:
        return 0.0
    by_row = _row_order(index, scores, rows)
    mine = np.array([p.lang == q.lang for p in index.passages])
    keys = np.array([p.kind == "ask" for p in index.passages])
    if not (mine & keys).any() or not (mine & ~keys).any():
        return 0.0
    return float(by_row[mine & keys].mean() - by_row[mine & ~keys].mean())


def _reference_lexical(searcher, q, allowed):
    """Searcher.lexical as a plain loop over the rows BM25 scores above 0."""
    import numpy as np

    found = []
    for kind in ("text", "ask"):
        bm25 = searcher._bm25[kind][0]
        rows = [
            i
            for i, p in enumerate(searcher.index.passages)
            if p.kind == kind and (searcher.use_keys or kind == "text")
        ]
        out = {}
        if q.tokens and rows:
            scores = bm25.get_scores(q.tokens)
            for row in np.nonzero(scores > 0)[0]:
                rid = searcher.archive.edition_group(searcher.index.passages[rows[row]].record)[0]
                if rid in allowed and scores[row] > out.get(rid, 0.0):
                    out[rid] = float(scores[row])
        found.append(out)
    return tuple(found)


@pytest.fixture(scope="module")
def generated_search(tmp_path_factory):
    """A generated archive of 1,500 rulings (some linked as editions), indexed with the fake
    embedder, and its questions."""
    from bench.askpath import questions, synthetic_archive
    from indexer.search.index import build_index
    from tests.fakes import FakeEmbedder

    archive = synthetic_archive(1500, seed=11)
    # Link pairs of records as editions of one rule, so grouping rows per rule is exercised
    # across records too.
    ids = list(archive.records)
    for a, b in zip(ids[:200:2], ids[1:200:2]):
        archive.records[a] = archive.records[a].model_copy(update={"related": [b]})
        archive.records[b] = archive.records[b].model_copy(update={"related": [a]})
    index, _ = build_index(
        archive, FakeEmbedder(), tmp_path_factory.mktemp("gen") / "index", show_progress=False
    )
    asked = questions(archive, 120, seed=11)
    asked += [f"{q} in gloomhaven and frosthaven" for q in asked[:20]]
    return archive, index, asked


@pytest.mark.parametrize("use_keys", [True, False])
def test_dense_and_lexical_equal_the_plain_loops(generated_search, use_keys):
    from indexer.search.calibration import Calibration
    from indexer.search.searcher import Searcher, _best, _top
    from tests.fakes import FakeEmbedder

    archive, index, asked = generated_search
    searcher = Searcher(archive, index, FakeEmbedder(), Calibration.neutral(), use_keys=use_keys)
    nonempty_lexical = 0
    for text in asked:
        for game in (None, "gloomhaven"):
            q = searcher.analyse(text, game=game)
            allowed = searcher.allowed(q)
            dense = searcher.dense(q, allowed)
            # Equal values and the same key order: nothing downstream can tell them apart.
            assert [list(d.items()) for d in dense] == [
                list(d.items()) for d in _reference_dense(searcher, q, allowed)
            ], text
            lexical = searcher.lexical(q, allowed)
            assert [list(d.items()) for d in lexical] == [
                list(d.items()) for d in _reference_lexical(searcher, q, allowed)
            ], text
            nonempty_lexical += bool(lexical[0])
            for scores in lexical:  # the arrays' best few and top, as sorting a dict would
                plain = dict(scores.items())
                assert _best(scores, 8) == sorted(plain, key=lambda r: (-plain[r], r))[:8]
                assert _top(scores) == max(plain.values(), default=0.0)
    # Not vacuous: the questions do find rulings by their words.
    assert nonempty_lexical > len(asked)


# -- BM25 saved with the index: loaded, not rebuilt, and equal to a rebuild ------------------


def test_saved_bm25_models_score_as_rebuilt_ones(generated_search):
    import numpy as np

    from indexer.search.bm25 import BM25_KINDS, build_bm25
    from indexer.search.calibration import Calibration
    from indexer.search.index import load_index
    from indexer.search.searcher import Searcher
    from indexer.text import tokenize
    from tests.fakes import FakeEmbedder

    archive, built, asked = generated_search
    index = load_index(built.path, archive, FakeEmbedder.name, backend=FakeEmbedder.backend)
    assert sorted(index.bm25) == sorted(BM25_KINDS)
    searcher = Searcher(archive, index, FakeEmbedder(), Calibration.neutral())
    assert all(searcher._bm25[kind][0] is index.bm25[kind] for kind in BM25_KINDS)
    scored = 0
    for kind in BM25_KINDS:
        rebuilt = build_bm25(archive, index.passages, kind)
        assert index.bm25[kind].vocab_dict == rebuilt.vocab_dict
        for text in asked:
            tokens = tokenize(text, "en")
            saved, fresh = index.bm25[kind].get_scores(tokens), rebuilt.get_scores(tokens)
            assert np.array_equal(saved, fresh), text
            scored += bool(saved.any())
    assert scored > len(asked)


def test_a_damaged_or_missing_bm25_model_is_refused(generated_search, tmp_path):
    import shutil

    from indexer.search.index import CorruptIndexError, load_index

    folder = tmp_path / "index"
    shutil.copytree(generated_search[1].path, folder)
    data = folder / "bm25-text.data.csc.index.npy"
    data.write_bytes(data.read_bytes()[:-8])
    with pytest.raises(CorruptIndexError, match=r"bm25-text\.data\.csc\.index\.npy does not match"):
        load_index(folder)
    (folder / "bm25-ask.vocab.index.json").unlink()
    with pytest.raises(CorruptIndexError, match=r"bm25-ask\.vocab\.index\.json is missing"):
        load_index(folder)


# -- the rule vocabulary from saved word numbers equals word sets built from the texts --------


def _reference_vocabulary(archive, canonical, with_keys):
    """RuleVocabulary's word sets and IDF as first written: sets of words per rule and language."""
    import math

    from indexer.language import LANGUAGES
    from indexer.search.passages import passage_text
    from indexer.text import tokenize

    words, groups = {}, {}
    for rid, canon in canonical.items():
        groups.setdefault(canon, []).append(rid)
    for canon, members in groups.items():
        words[canon] = {}
        for lang in LANGUAGES:
            found = set()
            for rid in members:
                rec = archive.records[rid]
                found.update(tokenize(passage_text(rec, lang), lang))
                for key in rec.asks.get(lang, ()) if with_keys else ():
                    found.update(tokenize(key, lang))
            words[canon][lang] = frozenset(found)
    idf = {}
    for lang in LANGUAGES:
        df = {}
        for per_lang in words.values():
            for word in per_lang[lang]:
                df[word] = df.get(word, 0) + 1
        idf[lang] = {w: math.log((len(words) + 1) / (c + 0.5)) for w, c in df.items()}
    return words, idf


@pytest.mark.parametrize("with_keys", [True, False])
def test_saved_record_words_give_the_vocabulary_of_the_texts(generated_search, with_keys):
    from indexer.language import LANGUAGES
    from indexer.search.coverage import RuleVocabulary
    from indexer.search.index import load_index
    from tests.fakes import FakeEmbedder

    archive, built, asked = generated_search
    index = load_index(built.path, archive, FakeEmbedder.name)
    canonical = {rid: archive.edition_group(rid)[0] for rid in archive.records}
    vocabulary = RuleVocabulary(archive, canonical, with_keys=with_keys, saved=index.record_words)
    words, idf = _reference_vocabulary(archive, canonical, with_keys)
    assert vocabulary.idf == idf
    rules = sorted(words)
    for rule in rules[:300:7] + rules[:200:2]:  # linked editions are among the first 200
        for lang in LANGUAGES:
            assert vocabulary.words_of(rule, lang) == words[rule][lang], (rule, lang)
    assert any(len(archive.edition_group(r)) > 1 for r in rules[:200])
    # Coverage as first written, over the reference word sets.
    from indexer.text import tokenize

    covered = 0
    for n, text in enumerate(asked):
        lang = LANGUAGES[n % len(LANGUAGES)]
        weights = vocabulary.question_words(tokenize(text, lang), lang)
        rule, rival = rules[n % len(rules)], rules[(n * 7 + 1) % len(rules)]
        total = sum(weights.values())
        mine, theirs = words[rule][lang], words[rival][lang]
        expected = (
            sum(w for t, w in weights.items() if t in mine) / total,
            sum(w for t, w in weights.items() if t in mine and t not in theirs) / total,
            sum(w for t, w in weights.items() if t not in idf[lang]) / total,
        )
        got = vocabulary.coverage(weights, lang, rule, rival)
        assert (got.covered, got.distinct, got.unknown) == expected, text
        covered += got.covered > 0
    assert covered > 10


def test_best_rules_of_a_signal_equal_sorting_them_all():
    """candidates() takes each signal's best rules without sorting all: same rules, same order,
    ties (many at the cut) broken by id."""
    from indexer.search.searcher import _best

    rnd = random.Random(18)
    many_ties = 0
    for _ in range(2000):
        scores = {
            f"fh-{rnd.randrange(10**6)}": rnd.choice([0.25, 0.5, 0.75, rnd.random()])
            for _ in range(rnd.choice([0, 3, 31, 33, 400]))
        }
        n = rnd.choice([1, 8, 10])
        expected = sorted(scores, key=lambda r: (-scores[r], r))[:n]
        assert _best(scores, n) == expected
        many_ties += len(scores) > 32 and len({scores[r] for r in expected}) < len(expected)
    assert many_ties > 100


# -- the name index's cheaper counting lets through exactly the names chunk counting does ----


def _reference_candidates(index, all_names, text):
    """NameIndex.candidates as first written: every chunk's bigrams counted for every name."""
    import numpy as np

    from indexer.archive.cards import _bigrams

    def passing(ids, names, chunk, needed):
        grams = _bigrams(chunk)
        return [
            i
            for local, (i, name) in enumerate(zip(ids, names))
            if len(_bigrams(name) & grams) >= needed[local]
        ]

    found = set()
    for size, by_name in index._exact.items():
        for j in range(len(text) - size + 1):
            found.update(by_name.get(text[j : j + size], ()))
    for lmax, ids, _postings, strong, weak, _grams in index._buckets:
        names = [all_names[i] for i in ids]
        ids = ids.tolist()
        for chunk in dict.fromkeys((text[:lmax], text[-lmax:])):
            found.update(passing(ids, names, chunk, weak))
        if strong is not None:
            for start in range(0, len(text), lmax):
                found.update(passing(ids, names, text[start : start + 2 * lmax], strong))
    return np.array(sorted(found), dtype=np.int64)


def test_name_index_candidates_equal_counting_every_chunk():
    import numpy as np

    from bench.askpath import questions, synthetic_archive
    from indexer.archive.cards import NameIndex

    archive = synthetic_archive(400, seed=5)
    lookup = CardLookup(archive)
    index = NameIndex(lookup._fuzzy_names)
    rnd = random.Random(5)
    texts = _texts(lookup, questions(archive, 60, seed=5), seed=5)
    texts = rnd.sample(texts, 250) + ["", "a", "ab" * 40, "x" * 200]
    passed = 0
    for text in texts:
        folded = fold(text)
        found = index.candidates(folded)
        assert np.array_equal(found, _reference_candidates(index, lookup._fuzzy_names, folded)), (
            text
        )
        passed += len(found)
    assert passed > len(texts)  # not vacuous: names do pass


def test_dense_signals_equal_plain_dicts_with_keyless_rulings(generated_search, tmp_path):
    """Records without search keys get their text score as key score; the arrays behind the
    signals answer lookups, the best few and the top as plain dicts of the loop would."""
    from indexer.search.calibration import Calibration
    from indexer.search.index import build_index
    from indexer.search.rulescores import scores_of
    from indexer.search.searcher import Searcher, _best, _top
    from tests.fakes import FakeEmbedder

    archive, _index, asked = generated_search
    records = dict(archive.records)
    for rid in list(records)[300:340]:
        records[rid] = records[rid].model_copy(update={"asks": {}})
    keyless = type(archive)(archive.root, records, archive.games, archive.other_games)
    index, _ = build_index(keyless, FakeEmbedder(), tmp_path / "index", show_progress=False)
    searcher = Searcher(keyless, index, FakeEmbedder(), Calibration.neutral())
    assert searcher._keyless
    for text in asked[:60]:
        q = searcher.analyse(text)
        allowed = searcher.allowed(q)
        dense = searcher.dense(q, allowed)
        reference = _reference_dense(searcher, q, allowed)
        assert [list(d.items()) for d in dense] == [list(d.items()) for d in reference], text
        for got, plain in zip(dense[:2], reference[:2]):
            assert _best(got, 8) == sorted(plain, key=lambda r: (-plain[r], r))[:8]
            assert _top(got) == max(plain.values(), default=0.0)
            asked_for = list(plain)[:5] + ["no-such-rule", sorted(searcher._keyless)[0]]
            for rid in asked_for:
                assert (rid in got) == (rid in plain) and got.get(rid) == plain.get(rid)
            assert scores_of(got, asked_for) == {r: plain[r] for r in asked_for if r in plain}
        for got in searcher.lexical(q, allowed):  # the BM25 arrays, looked up at once
            rules = list(got)[:20] + ["no-such-rule"]
            assert scores_of(got, rules) == {r: got[r] for r in rules if r in got}


@pytest.mark.parametrize("use_keys", [True, False])
def test_dense_signals_over_every_row_order_equal_cosines_as_the_sorted_search(
    generated_search, tmp_path, use_keys
):
    """A flat index's rows are scored in row order and grouped per rule (Searcher._every_row);
    rulings sharing texts and keys tie exactly, and their order must still be the sorted
    search's (FAISS lists equal cosines by descending row)."""
    import numpy as np

    from indexer.search.calibration import Calibration
    from indexer.search.index import build_index
    from indexer.search.searcher import Searcher
    from tests.fakes import FakeEmbedder

    archive, _index, asked = generated_search
    records = dict(archive.records)
    ids = list(records)
    for source, copy in zip(ids[400:460], ids[460:520]):  # same words, other rulings
        records[copy] = records[copy].model_copy(
            update={
                field: getattr(records[source], field)
                for field in (
                    "lang",
                    "title",
                    "context_label",
                    "context",
                    "text",
                    "translations",
                    "asks",
                )
            }
        )
    tied = type(archive)(archive.root, records, archive.games, archive.other_games)
    index, _ = build_index(tied, FakeEmbedder(), tmp_path / "index", show_progress=False)
    assert len(np.unique(np.asarray(index.vectors), axis=0)) < len(index.vectors)  # ties exist
    searcher = Searcher(tied, index, FakeEmbedder(), Calibration.neutral(), use_keys=use_keys)
    assert searcher._row_groups is not None  # the flat path
    questions = asked[:40] + [records[rid].text for rid in ids[400:430]]
    tied = with_copies = 0
    for text in questions:
        q = searcher.analyse(text)
        allowed = searcher.allowed(q)
        # A question for one game leaves out the other game's rulings, copies and all.
        with_copies += any({a, b} <= allowed for a, b in zip(ids[400:460], ids[460:520]))
        dense = searcher.dense(q, allowed)
        reference = _reference_dense(searcher, q, allowed)
        assert [list(d.items()) for d in dense] == [list(d.items()) for d in reference], text
        values = list(dense[0].values())
        tied += len(set(values)) < len(values)
    # Not vacuous: the copies' cosines tie in every question that may meet them.
    assert tied == with_copies >= 30


def test_one_question_is_searched_on_one_thread_and_the_setting_restored():
    """A flat index of 10,000+ rows: one question is scored on one OpenMP thread (the same
    rows and scores as a batch of one on one thread), and the caller's thread count is kept."""
    import faiss

    from indexer.search.index import VectorIndex

    rnd = np.random.default_rng(3)
    vectors = rnd.standard_normal((12_000, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    flat = faiss.IndexFlatIP(32)
    flat.add(vectors)
    index = VectorIndex(
        path=None, manifest={}, passages=[None] * len(vectors), vectors=vectors, faiss_index=flat
    )
    query = vectors[:1] + 0.01
    before = faiss.omp_get_max_threads()
    scores, rows = index.search(query, 50)
    assert faiss.omp_get_max_threads() == before
    faiss.omp_set_num_threads(1)
    try:
        expected_scores, expected_rows = flat.search(np.ascontiguousarray(query), 50)
    finally:
        faiss.omp_set_num_threads(before)
    assert (rows == expected_rows).all() and (scores == expected_scores).all()
    assert rows[0][0] == 0
