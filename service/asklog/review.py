"""The review queue: the asks the archive failed, grouped by meaning, for a curator.

``rulings review`` reads the question log for the declined asks and the answers voted
unhelpful that no curator has reviewed yet, embeds their questions with the service's own
model (the body search embeds, through the same "query: " path), and groups them by
average-link agglomeration on cosine similarity: two groups merge while the mean similarity of
their questions is at least ``SAME_MEANING``. Average link, not single link: a chain of
near-paraphrases must not pull two different questions together.

Before comparing, each vector has its language's mean removed (the mean of the archive's own
search keys in that language, read from the index) and is normalised again. e5's raw cosines
sit between 0.75 and 1 for any two questions and rank a same-language question on another rule
above the same question in another language; without the language's mean they separate:
on the labelled sets the ranking of "same ruling" pairs goes from AUC 0.85 to 0.93.

A group's id is a hash of its earliest ask's id: the same group keeps its id as new asks join
it, so ``rulings review promote GROUP`` after ``rulings review --json`` names the same group.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from sqlalchemy import Engine, insert, select

from indexer.errors import NotFound
from service.asklog.store import asks, feedback, now, reviews

#: The mean cosine (language means removed) at which two groups are one question. Chosen as
#: the best F0.5 (precision weighs double: a wrong merge can put a question on the wrong
#: ruling, a missed one only costs the curator another look) of "same ruling <=> same group"
#: over bench/eval/own.yaml's 175 questions: pairwise precision 0.64, recall 0.33 (a set built
#: of close rulings on purpose). ../shared/eval/dev.yaml (one question per ruling): 7 of its
#: 2556 pairs grouped, all wrongly. The archive's 2329 search keys: 0.74 / 0.37. Raw cosines
#: (no means removed) at their best F0.5 on own.yaml: 0.15 / 0.10.
SAME_MEANING = 0.36
#: How many rulings a group lists as nearest.
NEAREST = 3
#: The most distinct questions grouped at once (the similarity matrix is this squared).
MAX_QUESTIONS = 6000


class UnknownGroup(NotFound):
    """A group id that the review queue does not hold (now)."""

    def __init__(self, group: str):
        super().__init__(
            f"no group {group!r} in the review queue (run `rulings review` for the ids)"
        )


@dataclass(frozen=True)
class QueuedAsk:
    """An ask waiting for review, with what its votes said."""

    id: str
    asked_at: datetime
    question: str
    lang: str
    declined: bool
    answer: str | None
    matches: tuple[tuple[str, float], ...]  # (ruling, score), best first
    unhelpful: frozenset[str] = frozenset()  # rulings a vote called wrong for it
    answers_it: tuple[str, ...] = ()  # rulings a vote said answer it (on a decline)

    def as_dict(self) -> dict[str, Any]:
        return {
            "ask_id": self.id,
            "question": self.question,
            "lang": self.lang,
            "declined": self.declined,
            "answer": self.answer,
        }


@dataclass(frozen=True)
class Group:
    """Asks of one meaning, earliest first, and the rulings nearest to them."""

    id: str
    asks: tuple[QueuedAsk, ...]
    nearest: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.asks)

    @property
    def languages(self) -> list[str]:
        """The group's languages, most asked first."""
        return [lang for lang, _ in Counter(a.lang for a in self.asks).most_common()]

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "count": self.count,
            "languages": self.languages,
            "questions": [a.as_dict() for a in self.asks],
            "nearest": list(self.nearest),
        }


# -- reading the log --------------------------------------------------------------------------
def _since(days: int | None) -> datetime:
    return now() - timedelta(days=days) if days else datetime(1970, 1, 1, tzinfo=UTC)


def _aware(at: datetime) -> datetime:
    # SQLite hands back naive datetimes (stored as UTC); PostgreSQL aware ones.
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def _votes(engine: Engine, since: datetime) -> dict[str, list[tuple[bool, str | None]]]:
    """Each ask's votes, oldest first: (helpful, ruling)."""
    query = (
        select(feedback.c.ask_id, feedback.c.helpful, feedback.c.ruling)
        .join(asks, asks.c.id == feedback.c.ask_id)
        .where(asks.c.asked_at >= since)
        .order_by(feedback.c.at, feedback.c.id)
    )
    out: dict[str, list[tuple[bool, str | None]]] = defaultdict(list)
    with engine.connect() as conn:
        for ask_id, helpful, ruling in conn.execute(query):
            out[ask_id].append((bool(helpful), ruling))
    return out


def pending_asks(engine: Engine, days: int | None = None) -> list[QueuedAsk]:
    """The declined asks and the answers whose last vote on the answer is unhelpful, asked
    within `days` (None: all kept), not reviewed yet; earliest first."""
    since = _since(days)
    votes = _votes(engine, since)
    query = (
        select(asks)
        .where(asks.c.asked_at >= since)
        .where(asks.c.id.not_in(select(reviews.c.ask_id)))
        .order_by(asks.c.asked_at, asks.c.id)
    )
    out = []
    with engine.connect() as conn:
        for row in conn.execute(query).mappings():
            mine = votes.get(row["id"], [])
            # An answer's own votes: those naming no ruling (the answer, then) or it.
            on_answer = [h for h, r in mine if r in (None, row["answer"])]
            if not row["declined"] and not (on_answer and not on_answer[-1]):
                continue  # answered, and its last vote on the answer is not unhelpful
            out.append(
                QueuedAsk(
                    id=row["id"],
                    asked_at=_aware(row["asked_at"]),
                    question=row["question"],
                    lang=row["lang"],
                    declined=bool(row["declined"]),
                    answer=row["answer"],
                    matches=tuple(
                        (m["id"], float(m.get("score") or 0.0)) for m in row["matches"] or []
                    ),
                    unhelpful=frozenset(r or row["answer"] for h, r in mine if not h) - {None},
                    answers_it=tuple(dict.fromkeys(r for h, r in mine if h and r)),
                )
            )
    return out


def vote_rows(engine: Engine, days: int | None = None) -> list[dict[str, Any]]:
    """Every ask within `days` as ``risk_coverage_from_votes`` reads it: declined, score and
    its last vote on the answer (None: nobody voted on it)."""
    since = _since(days)
    votes = _votes(engine, since)
    query = select(asks.c.id, asks.c.declined, asks.c.score, asks.c.answer).where(
        asks.c.asked_at >= since
    )
    out = []
    with engine.connect() as conn:
        for ask_id, declined, score, answer in conn.execute(query):
            on_answer = [h for h, r in votes.get(ask_id, ()) if r in (None, answer)]
            out.append(
                {
                    "declined": bool(declined),
                    "score": score,
                    "helpful": on_answer[-1] if on_answer else None,
                }
            )
    return out


def mark_reviewed(engine: Engine, ask_ids: Iterable[str], action: str, ruling: str | None) -> int:
    """Record the asks as reviewed (``promoted`` to `ruling`, or ``dismissed``); how many."""
    with engine.begin() as conn:
        done = {r[0] for r in conn.execute(select(reviews.c.ask_id))}
        rows = [
            {"ask_id": a, "at": now(), "action": action, "ruling": ruling}
            for a in dict.fromkeys(ask_ids)
            if a not in done
        ]
        if rows:
            conn.execute(insert(reviews), rows)
    return len(rows)


# -- grouping ---------------------------------------------------------------------------------
def average_link(vectors: np.ndarray, threshold: float) -> list[list[int]]:
    """Clusters of unit `vectors` (row numbers, each sorted; clusters by their first row):
    average-link agglomeration stopped where the best mean cosine falls below `threshold`.

    The nearest-neighbour chain algorithm (average link is reducible): O(n^2) time, one n x n
    similarity matrix updated by Lance-Williams. A cluster whose best mean similarity is below
    the threshold can never reach it again (a merged cluster's mean lies between its parts'),
    so it is set aside as soon as it is found so.
    """
    n = len(vectors)
    sim = (vectors @ vectors.T).astype(np.float32)  # float32: 6000 questions in 144 MB
    np.fill_diagonal(sim, -np.inf)
    size = np.ones(n, dtype=np.float32)
    active = np.ones(n, dtype=bool)
    parent = list(range(n))
    chain: list[int] = []
    while active.sum() > 1:
        if not chain:
            chain.append(int(np.flatnonzero(active)[0]))
        a = chain[-1]
        row = np.where(active, sim[a], -np.inf)
        b = int(np.argmax(row))
        if row[b] < threshold:  # a stays alone (the chain's previous one is nearer others)
            active[a] = False
            chain.pop()
            continue
        if len(chain) > 1 and row[chain[-2]] >= row[b]:
            b = chain[-2]
        if len(chain) > 1 and b == chain[-2]:
            chain.pop()
            chain.pop()
            merged = (size[a] * sim[a] + size[b] * sim[b]) / (size[a] + size[b])
            sim[a], sim[:, a] = merged, merged
            sim[a, a] = -np.inf
            sim[b], sim[:, b] = -np.inf, -np.inf
            size[a] += size[b]
            active[b] = False
            parent[b] = a
        else:
            chain.append(b)
    roots: dict[int, list[int]] = defaultdict(list)
    for i in range(n):
        root = i
        while parent[root] != root:
            root = parent[root]
        roots[root].append(i)
    return sorted(roots.values(), key=lambda c: c[0])


def nearest_rulings(members: Sequence[QueuedAsk], k: int = NEAREST) -> tuple[str, ...]:
    """The rulings a vote said answer the group, then those search found nearest (summed
    score over its asks, leaving out a ruling a vote called wrong for that ask)."""
    said = Counter(r for a in members for r in a.answers_it)
    found: defaultdict[str, float] = defaultdict(float)
    for ask in members:
        for ruling, score in ask.matches:
            if ruling not in ask.unhelpful:
                found[ruling] += score
    ranked = [r for r, _ in said.most_common()]
    ranked += [r for r in sorted(found, key=lambda r: (-found[r], r)) if r not in said]
    return tuple(ranked[:k])


def group_id(members: Sequence[QueuedAsk]) -> str:
    """Eight hex digits from the group's earliest ask: kept as the group grows."""
    earliest = min(members, key=lambda a: (a.asked_at, a.id))
    return hashlib.sha256(earliest.id.encode()).hexdigest()[:8]


def group_asks(
    queued: Sequence[QueuedAsk],
    embed: Callable[[list[str]], np.ndarray],
    threshold: float = SAME_MEANING,
) -> list[Group]:
    """The asks grouped by meaning, most asked first. `embed`: distinct question texts -> their
    unit vectors (``question_vectors``); the same text asked twice is embedded once."""
    if not queued:
        return []
    texts = list(dict.fromkeys(" ".join(a.question.split()) for a in queued))
    if len(texts) > MAX_QUESTIONS:
        raise ValueError(
            f"{len(texts)} distinct questions to review: more than {MAX_QUESTIONS} at once; "
            "narrow them with --days"
        )
    clusters = average_link(embed(texts), threshold)
    cluster_of = {texts[i]: c for c, rows in enumerate(clusters) for i in rows}
    members: dict[int, list[QueuedAsk]] = defaultdict(list)
    for ask in queued:
        members[cluster_of[" ".join(ask.question.split())]].append(ask)
    groups = [Group(group_id(m), tuple(m), nearest_rulings(m)) for m in members.values()]
    return sorted(groups, key=lambda g: (-g.count, g.asks[0].asked_at, g.id))


def language_means(index: Any) -> dict[str, np.ndarray]:
    """The mean vector of the archive's search keys in each language (``VectorIndex``'s rows);
    "" holds the mean of all of them, for a language with none."""
    rows: dict[str, list[int]] = defaultdict(list)
    for i, passage in enumerate(index.passages):
        if passage.kind == "ask":
            rows[passage.lang].append(i)
            rows[""].append(i)
    vectors = index.vectors
    if not rows:  # an archive without keys: the texts' mean is the best there is
        return {"": np.asarray(vectors, dtype=np.float64).mean(axis=0)}
    return {
        lang: np.asarray(vectors[ix], dtype=np.float64).mean(axis=0) for lang, ix in rows.items()
    }


def question_vectors(
    analyser: Any, embedder: Any, means: dict[str, np.ndarray], texts: list[str]
) -> np.ndarray:
    """Unit question vectors to group by: the body search embeds (``Searcher.dense``: a leading
    game label removed, "query: " prefixed by ``encode_queries``), less the mean of the
    language the analyser reads the question in, normalised."""
    from indexer.model.embedder import encode_queries

    analysed = [analyser.analyse(t) for t in texts]
    vectors = np.asarray(
        encode_queries(embedder, [q.body or q.text for q in analysed]), dtype=np.float64
    )
    vectors -= np.stack([means.get(q.lang, means[""]) for q in analysed])
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


def find_group(groups: Sequence[Group], group: str) -> Group:
    found = [g for g in groups if g.id == group.strip().lower()]
    if not found:
        raise UnknownGroup(group)
    return found[0]
