"""Per-rule scores of a search signal over numpy arrays, and the best few of any signal.

A signal scores thousands of rules at scale (BM25 most of them, a flat index every one); a
question reads only the best few of each and its candidates' scores, so `Searcher` keeps them
as arrays behind a read-only mapping instead of building and sorting a dict of them all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from indexer.language import LANGUAGES


class RuleScores(Mapping[str, float]):
    """A read-only {rule: score} over numpy arrays: a signal scores thousands of rules at
    scale (BM25 most of them, a flat index every one), and a question reads only its best few
    and the candidates' scores, so no dict of them all is built. Iterates in the order the
    rules first occur among the rows, as a dict filled by a loop over the rows would."""

    def __init__(
        self,
        names: list[str],
        number: dict[str, int],
        rules: np.ndarray,
        values: np.ndarray,
        first: np.ndarray,
    ):
        # `rules` sorted (for lookups), `values` theirs, `first` the row each first occurs
        # at (the iteration order, sorted only when someone iterates).
        self._names, self._number = names, number
        self._rules, self._values, self._first = rules, values, first

    def __getitem__(self, rule: str) -> float:
        ix = self._number.get(rule)
        pos = int(np.searchsorted(self._rules, ix)) if ix is not None else len(self._rules)
        if pos == len(self._rules) or self._rules[pos] != ix:
            raise KeyError(rule)
        return float(self._values[pos])

    def __contains__(self, rule: object) -> bool:
        ix = self._number.get(rule) if isinstance(rule, str) else None
        if ix is None:
            return False
        pos = int(np.searchsorted(self._rules, ix))
        return pos < len(self._rules) and self._rules[pos] == ix

    def __iter__(self):
        order = np.argsort(self._first, kind="stable")
        return iter([self._names[i] for i in self._rules[order].tolist()])

    def __len__(self) -> int:
        return len(self._rules)

    def replaced(self, values: np.ndarray) -> RuleScores:
        """These scores, with those of the rules `values` (indexed by rule number) gives a
        finite value for replaced by it."""
        new = values[self._rules]
        swap = np.isfinite(new)
        if not swap.any():
            return self
        out = np.where(swap, new, self._values).astype(self._values.dtype)
        return RuleScores(self._names, self._number, self._rules, out, self._first)

    def rule_numbers(self) -> np.ndarray:
        """The rules scored, as sorted rule numbers."""
        return self._rules

    def lookup(self, rules: list[str]) -> dict[str, float]:
        """{rule: score} for those of `rules` scored here, found at once."""
        if not len(self._rules):
            return {}
        ix = np.array([self._number.get(r, -1) for r in rules], dtype=np.int64)
        pos = np.minimum(np.searchsorted(self._rules, ix), len(self._rules) - 1)
        held = (self._rules[pos] == ix) & (ix >= 0)
        return {r: v for r, v, h in zip(rules, self._values[pos].tolist(), held.tolist()) if h}

    def top(self) -> float | None:
        """The highest score, None when there is none."""
        return float(self._values.max()) if len(self._values) else None

    def best(self, n: int) -> list[str]:
        """See `best`."""
        values = self._values
        kept: Sequence[int]
        if len(values) <= n:
            kept = range(len(values))
        else:
            # Every rule scoring at least the n-th best: ties at the cut are all kept, then sorted.
            cut = np.partition(values, len(values) - n)[len(values) - n]
            kept = np.flatnonzero(values >= cut).tolist()
        rules = self._rules
        return [
            name for _, name in sorted((-float(values[i]), self._names[rules[i]]) for i in kept)[:n]
        ]


def _best_first_key(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """One int64 per rule whose ascending order is (value descending, row descending): the
    order a sorted search lists them in, as RuleScores' iteration key. Built without sorting
    (RuleScores sorts it only if someone iterates, which the ask path does not). For values
    of magnitude below 2 (cosines), whose ordered bits stay under 2**30: no overflow."""
    bits = (np.asarray(values, dtype=np.float32) + np.float32(0.0)).view(np.int32)  # -0.0 -> 0.0
    # The float's bits as an int32 in the order of the floats (negatives' bits run backwards).
    ordered = np.where(bits < 0, bits ^ np.int32(0x7FFFFFFF), bits).astype(np.int64)
    return (-ordered) * (1 << 32) - rows.astype(np.int64)


class RowGroups:
    """Rows of one kind (texts or search keys) of a flat index, grouped by rule: each rule's
    best row over every row's cosine in one pass (``np.maximum.reduceat``), not a sort."""

    def __init__(
        self, rows: np.ndarray, row_rule: np.ndarray, names: list[str], number: dict[str, int]
    ):
        # `row_rule`: each row's rule number; `names` / `number`: rule numbers <-> rule ids.
        self.names, self.number = names, number
        order = np.lexsort((rows, row_rule[rows]))  # by rule, then row
        self.rows = rows[order]
        rules = row_rule[self.rows]
        self.starts = (
            np.flatnonzero(np.r_[True, rules[1:] != rules[:-1]])
            if len(rules)
            else np.zeros(0, dtype=np.int64)
        )
        self.sizes = np.diff(np.r_[self.starts, len(rules)])
        self.rules = rules[self.starts]  # ascending rule numbers
        self.row_rule = row_rule

    def best_per_rule(self, scores: np.ndarray, allowed: np.ndarray) -> Mapping[str, float]:
        """RuleScores of each allowed rule's best cosine, iterated best first (ties: the rule
        whose best row is highest-numbered first), as the sorted search's rows give them."""
        keep = allowed[self.rules]
        if not keep.any():
            return {}
        grouped = scores[self.rows]
        best = np.maximum.reduceat(grouped, self.starts)
        at_best = grouped == np.repeat(best, self.sizes)
        best_row = np.maximum.reduceat(np.where(at_best, self.rows, -1), self.starts)
        rules, best, best_row = self.rules[keep], best[keep], best_row[keep]
        return RuleScores(self.names, self.number, rules, best, _best_first_key(best, best_row))

    def nearest(self, scores: np.ndarray, allowed: np.ndarray, n: int) -> np.ndarray:
        """The `n` allowed rows of best cosine, best first (equal cosines: descending row)."""
        rows = self.rows[allowed[self.row_rule[self.rows]]]
        values = scores[rows]
        if len(rows) > n:
            cut = np.partition(values, len(values) - n)[len(values) - n]
            rows, values = rows[values >= cut], values[values >= cut]
        return rows[np.lexsort((-rows, -values))][:n]


class RowLanguages:
    """Each index row's language, to score fairly the rulings without a text in the asker's
    language (an imported one, not translated yet): e5's cosines between two languages sit
    below those within one, and a question sits nearer other questions (the search keys) than
    passages, so such a ruling would lose for lacking a translation or keys, not for answering
    less. The rulings of the curated archive have texts in every language and keys: their
    scores are never changed."""

    def __init__(self, langs: list[str], is_key: np.ndarray, row_rule: np.ndarray, rules: int):
        number: dict[str, int] = {lang: i for i, lang in enumerate(LANGUAGES)}
        self.row_lang = np.array([number.get(lang, 0) for lang in langs], dtype=np.int64)
        self.is_key = is_key
        self.text_rows = np.flatnonzero(~is_key)
        self.row_rule = row_rule
        self.per_lang = np.bincount(self.row_lang[self.text_rows], minlength=len(LANGUAGES))
        self.has_lang = np.zeros((rules, len(LANGUAGES)), dtype=bool)
        self.has_lang[row_rule[self.text_rows], self.row_lang[self.text_rows]] = True
        self._lacking: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def lacking(self, lang: str) -> tuple[np.ndarray, np.ndarray]:
        """The text rows (and their rules) of the rules with no text in `lang`."""
        found = self._lacking.get(lang)
        if found is None:
            own = LANGUAGES.index(lang) if lang in LANGUAGES else -1
            rules = self.row_rule[self.text_rows]
            missing = ~self.has_lang[:, own] if own >= 0 else np.zeros(len(self.has_lang), bool)
            keep = missing[rules]
            found = self._lacking[lang] = (self.text_rows[keep], rules[keep])
        return found

    def lacks(self, rule: int, lang: str) -> bool:
        """Whether rule number `rule` has no text in `lang`."""
        return lang in LANGUAGES and not self.has_lang[rule, LANGUAGES.index(lang)]

    def fair(
        self, text: RuleScores, scores: np.ndarray, lang: str, allowed: np.ndarray
    ) -> RuleScores:
        """`text` (each rule's best text cosine), with each allowed rule that has no text in
        `lang` scored by its best row shifted by the gap between the question's mean cosine
        with the texts of its own language and with those of the row's language."""
        rows, rules = self.lacking(lang)
        keep = allowed[rules]
        rows, rules = rows[keep], rules[keep]
        if not len(rows):
            return text
        texts = self.text_rows
        means = np.bincount(
            self.row_lang[texts], weights=scores[texts], minlength=len(LANGUAGES)
        ) / np.maximum(self.per_lang, 1)
        own = LANGUAGES.index(lang) if lang in LANGUAGES else 0
        shifted = scores[rows] + (means[own] - means[self.row_lang[rows]]).astype(scores.dtype)
        best = np.full(len(self.has_lang), -np.inf, dtype=scores.dtype)
        np.maximum.at(best, rules, shifted)
        return text.replaced(best)

    def key_gap(self, scores: np.ndarray, lang: str) -> float:
        """How much nearer the question is, on average, to the search keys of its language
        than to its texts (0 when the language has no keys or no texts)."""
        own = LANGUAGES.index(lang) if lang in LANGUAGES else 0
        mine = self.row_lang == own
        keys, texts = scores[self.is_key & mine], scores[~self.is_key & mine]
        return float(keys.mean() - texts.mean()) if len(keys) and len(texts) else 0.0


def per_rule(
    names: list[str],
    number: dict[str, int],
    rule_ix: np.ndarray,
    scores: np.ndarray,
    *,
    first: bool,
) -> Mapping[str, float]:
    """One score per rule from per-row scores (`rule_ix`: each row's rule number): the first
    row's (rows best first) or the highest; iterated in the order each rule first occurs, as a
    loop over the rows would."""
    if not len(rule_ix):
        return {}
    # The first row of each rule, found by a scatter (O(rows)) instead of sorting the rows:
    # a flat index returns every row, tens of thousands at scale.
    count = len(rule_ix)
    first_row = np.full(len(names), count, dtype=np.int64)
    np.minimum.at(first_row, rule_ix, np.arange(count, dtype=np.int64))
    uniq = np.flatnonzero(first_row < count)
    first_row = first_row[uniq]
    if first:
        values = scores[first_row]
    else:
        # The highest per rule: a BM25 signal.
        best = np.zeros(len(names), dtype=scores.dtype)
        np.maximum.at(best, rule_ix, scores)
        values = best[uniq]
    return RuleScores(names, number, uniq, values, first_row)


def best(scores: Mapping[str, float], n: int) -> list[str]:
    """The n best rules by score, ties by id: ``sorted(scores, key=(-score, id))[:n]``, without
    sorting (or calling a key function for) every rule of a signal."""
    if isinstance(scores, RuleScores):
        return scores.best(n)
    return sorted(scores, key=lambda r: (-scores[r], r))[:n]


def top(scores: Mapping[str, float]) -> float:
    """The highest score of a signal, 0.0 when it scores nothing."""
    if isinstance(scores, RuleScores):
        return scores.top() or 0.0
    return max(scores.values(), default=0.0)


def scores_of(scores: Mapping[str, float], rules: list[str]) -> dict[str, float]:
    """{rule: score} for those of `rules` a signal scores."""
    if isinstance(scores, RuleScores):
        return scores.lookup(rules)
    return {r: scores[r] for r in rules if r in scores}
