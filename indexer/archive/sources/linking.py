"""Edition linking: find the records of the same game in other languages that state the same rule.

An imported paragraph (say German Gloomhaven) is compared with every record of the same game
and kind in another language (the candidates). What is compared, and why:

* **Every language version of a candidate**, not only its original: its original text, our
  translations and the official editions it is linked to. The imported text is closest to the
  version in its own language, but a record imported earlier may have no translation into it;
  comparing only the originals (cross-lingual, e.g. German with Danish) left almost no gap
  between same and different rules (figures below).
* **Page-reference segments**: a record may state several rules, each with its page reference
  (gh-da-2: initiative ties "(side 18)", then the order of actions "(side 18)"); texts are also
  compared segment by segment, so a paragraph stating one of them still matches (by content,
  never by position in the file).
* **A margin, not a raw cosine**: e5 cosines sit in a narrow band (0.80-0.99) whose level
  depends on the languages compared (for different rules, German with our German translations
  0.82-0.89, German with the Danish originals 0.80-0.85). For each language version, a
  candidate's cosine minus the mean cosine of the paragraph with every candidate's version in
  that language (at least ``MIN_BACKGROUND`` of them) says how much closer it is than the
  rest; the score is the best margin over languages.
* **Page references as a hint**: a score from ``POSSIBLE_MARGIN`` up links when the pages agree
  (editions usually keep the pagination), from ``LINK_MARGIN`` up links whatever the pages.
* **Length** (as in Gale-Church sentence alignment): a paragraph much shorter or longer than the
  candidate's original (ratio outside ``WHOLE_LENGTH``..1/``WHOLE_LENGTH``) states only part of
  it, or more: the two are linked, but the candidate keeps its own translation (an official
  edition replaces our translation only when it is the whole rule).

Calibration (``calibrate_links``, multilingual-e5-small; test: tests/archive/test_growth.py): the links the
archive knows, fh-nl-N <-> fh-it-N, scored as if unknown, are the positives; every other pair
of those records (fh-nl-1 vs fh-it-2 ...) and every pair of different Danish rulings
(gh-da-N vs gh-da-M) the negatives. 12 positives: lowest 0.067 (fh-it-3 -> fh-nl-3), mean 0.080;
80 negatives: highest 0.036 (gh-da-2 -> gh-da-4), then 0.035 (fh-it-2 -> fh-nl-1).
``LINK_MARGIN`` 0.05 lies between; ``POSSIBLE_MARGIN`` 0.03 reports the near misses. On the
test files (tests/archive/growth_data.py: German Gloomhaven, Spanish and French Frosthaven, each against
the archive as shipped): 23 positives from 0.066, 122 negatives up to 0.027. Other choices,
measured over the calibration pairs and the test files together: the same margin over the
originals only, lowest positive 0.030 vs highest negative 0.027; the raw cosine over every
version, 0.885 vs 0.904 (overlapping).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from indexer.archive.schema import Ruling, Translation
from indexer.archive.sources.pages import PAGE_REF
from indexer.model.embedder import Embedder, encode_passages

log = logging.getLogger(__name__)

LINK_MARGIN = 0.05
POSSIBLE_MARGIN = 0.03
MIN_BACKGROUND = 3
WHOLE_LENGTH = 0.7


@dataclass(frozen=True)
class Match:
    """An imported record and a record that states (or may state) the same rule."""

    record: str
    other: str
    score: float  # the margin (see the module docstring)
    cosine: float  # the best cosine behind it
    lang: str  # the language version of `other` that matched best
    pages_agree: bool
    linked: bool
    note: str = ""

    def line(self) -> str:
        """One line for the import report."""
        sign = "<->" if self.linked else "~"
        pages = "pages agree" if self.pages_agree else "pages differ"
        extra = f"; {self.note}" if self.note else ""
        return (
            f"{self.record} {sign} {self.other}: score {self.score:.3f} (cosine {self.cosine:.3f} "
            f"with its {self.lang} text; {pages}{extra})"
        )

    def as_dict(self) -> dict:
        return {
            "record": self.record,
            "other": self.other,
            "score": round(self.score, 4),
            "cosine": round(self.cosine, 4),
            "lang": self.lang,
            "pages_agree": self.pages_agree,
            "note": self.note,
        }


@dataclass
class LinkReport:
    links: list[Match] = field(default_factory=list)
    possible: list[Match] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def segments(text: str) -> list[str]:
    """The text cut after each page reference; the whole text first when there are several."""
    cuts: list[str] = []
    start = 0
    for m in PAGE_REF.finditer(text):
        piece = text[start : m.end()].strip(" ;.")
        if piece:
            cuts.append(piece)
        start = m.end()
    tail = text[start:].strip(" ;.")
    if cuts and len(tail) > 20:  # text after the last reference, unless it is only a full stop
        cuts.append(tail)
    return [text, *cuts] if len(cuts) > 1 else [text]


def expand_pages(pages: Iterable[str]) -> set[str]:
    """['25-27', '31'] -> {'25', '26', '27', '31'} (pages as printed otherwise)."""
    out: set[str] = set()
    for page in pages:
        first, _, last = page.partition("-")
        if (
            last
            and first.isdigit()
            and last.isdigit()
            and int(first) <= int(last) <= int(first) + 50
        ):
            out.update(str(n) for n in range(int(first), int(last) + 1))
        else:
            out.add(page)
    return out


def versions(rec: Ruling, excluding: str | None = None) -> dict[str, str]:
    """A record's text in each language: its original, our translations, its linked editions
    (except the edition that is `excluding`'s own text)."""
    out: dict[str, str] = {rec.lang: rec.text}
    for lang, tr in rec.translations.items():
        if tr.edition_of is None or tr.edition_of != excluding:
            out[lang] = tr.text
    return out


class Similarity:
    """Cosines between texts (best over their page-reference segments), each embedded once."""

    def __init__(self, embedder: Embedder):
        self.embedder = embedder
        self._vectors: dict[str, np.ndarray] = {}

    def prepare(self, texts: Iterable[str]) -> None:
        todo = sorted({piece for text in texts for piece in segments(text)} - set(self._vectors))
        if todo:
            self._vectors.update(zip(todo, encode_passages(self.embedder, todo)))

    def cosine(self, a: str, b: str) -> float:
        self.prepare([a, b])
        left = np.stack([self._vectors[p] for p in segments(a)])
        right = np.stack([self._vectors[p] for p in segments(b)])
        return float((left @ right.T).max())


def score_candidates(
    text: str, candidates: list[Ruling], sim: Similarity, excluding: str | None = None
) -> dict[str, tuple[float, float, str]]:
    """Candidate id -> (margin, cosine, language of the best version); see the module docstring."""
    texts = {c.id: versions(c, excluding) for c in candidates}
    sim.prepare([text, *(t for vs in texts.values() for t in vs.values())])
    best: dict[str, tuple[float, float, str]] = {}
    for lang in sorted({lang for vs in texts.values() for lang in vs}):
        having = [cid for cid, vs in texts.items() if lang in vs]
        if len(having) < MIN_BACKGROUND:
            continue
        cosines = {cid: sim.cosine(text, texts[cid][lang]) for cid in having}
        background = float(np.mean(list(cosines.values())))
        for cid, cos in cosines.items():
            margin = cos - background
            if cid not in best or margin > best[cid][0]:
                best[cid] = (margin, cos, lang)
    return best


def candidates_for(rec: Ruling, records: dict[str, Ruling]) -> list[Ruling]:
    """The records that may state the same rule in another edition: same game and kind, other language."""
    return [
        r
        for r in records.values()
        if r.game == rec.game and r.kind == rec.kind and r.lang != rec.lang and r.id != rec.id
    ]


def match_record(
    rec: Ruling, records: dict[str, Ruling], sim: Similarity
) -> tuple[list[Match], list[str]]:
    """Links and possible links of one imported record, best first; notes when it cannot be compared."""
    pool = candidates_for(rec, records)
    scores = score_candidates(rec.text, pool, sim, excluding=rec.id)
    if not scores:
        return [], [
            f"{rec.id}: too few {rec.game} {rec.kind} records in other languages to "
            f"compare with (at least {MIN_BACKGROUND} in one language); not linked"
        ]
    pages = expand_pages(rec.citation.pages)
    out: list[Match] = []
    for cid, (margin, cos, lang) in sorted(scores.items(), key=lambda kv: -kv[1][0]):
        if margin < POSSIBLE_MARGIN:
            continue
        agree = bool(pages & expand_pages(records[cid].citation.pages))
        linked = margin >= LINK_MARGIN or agree
        note = "" if margin >= LINK_MARGIN or not agree else "linked on the page hint"
        out.append(Match(rec.id, cid, margin, cos, lang, agree, linked, note))
    linked_ids = {m.other for m in out if m.linked}
    # The known editions of what it links to, when content alone did not link them: said, not written.
    for m in [m for m in out if m.linked]:
        for other in records[m.other].related:
            if (
                other not in linked_ids
                and other in scores
                and records[other].lang != rec.lang
                and all(x.other != other for x in out)
            ):
                margin, cos, lang = scores[other]
                agree = bool(pages & expand_pages(records[other].citation.pages))
                out.append(
                    Match(
                        rec.id,
                        other,
                        margin,
                        cos,
                        lang,
                        agree,
                        False,
                        f"an edition of {m.other}, below the threshold",
                    )
                )
    return out, []


def _whole(part: Ruling, whole: Ruling) -> bool:
    """Whether `part` states all of `whole` (their lengths agree), not a piece of it."""
    ratio = len(part.text) / max(1, len(whole.text))
    return WHOLE_LENGTH <= ratio <= 1 / WHOLE_LENGTH


def _edition_text(rec: Ruling, of: Ruling, sim: Similarity) -> str:
    """`of`'s original as `rec`'s edition: the whole, or the segment `rec` states when it is a part."""
    pieces = segments(of.text)
    if _whole(rec, of) or len(pieces) == 1:
        return of.text
    return max(pieces[1:], key=lambda piece: sim.cosine(rec.text, piece))


def apply_links(
    batch: list[Ruling],
    matches: dict[str, list[Match]],
    records: dict[str, Ruling],
    sim: Similarity,
    report: LinkReport,
) -> None:
    """Write the links of one file's records into `records`, both ways (related, editions)."""
    linked_by: dict[tuple[str, str], list[str]] = {}
    for rec in batch:
        links = [m for m in matches.get(rec.id, []) if m.linked]
        translations = dict(rec.translations)
        for m in links:  # best first: the best record of a language is its edition
            other = records[m.other]
            linked_by.setdefault((m.other, rec.lang), []).append(rec.id)
            if other.lang not in translations:
                translations[other.lang] = Translation(
                    title=other.title,
                    context=other.context,
                    text=_edition_text(rec, other, sim),
                    edition_of=other.id,
                )
        related = sorted({*rec.related, *(m.other for m in links)})
        records[rec.id] = rec.model_copy(update={"related": related, "translations": translations})
    for (other_id, _), ids in linked_by.items():
        other = records[other_id]
        translations = dict(other.translations)
        new = records[ids[0]]
        current = translations.get(new.lang)
        if current is not None and current.edition_of:
            report.notes.append(f"{other_id}: keeps its {new.lang} edition {current.edition_of}")
        elif len(ids) > 1:
            report.notes.append(
                f"{other_id}: stated in parts by {', '.join(ids)}; keeps our {new.lang} translation"
            )
        elif not _whole(new, other):
            report.notes.append(
                f"{other_id}: {new.id} states only part of it (or more); keeps our {new.lang} translation"
            )
        else:
            translations[new.lang] = Translation(
                title=new.title, context=new.context, text=new.text, edition_of=new.id
            )
            report.notes.append(
                f"{other_id}: its {new.lang} text is now the official edition {new.id}"
                + (" (was our translation)" if current is not None else "")
            )
        related = sorted({*other.related, *ids})
        records[other_id] = other.model_copy(
            update={"related": related, "translations": translations}
        )


def link_records(
    batches: list[list[Ruling]], records: dict[str, Ruling], embedder: Embedder
) -> tuple[dict[str, Ruling], LinkReport]:
    """Link the imported records (one batch per file, in order) to the same rules in other editions.

    `records` is the archive before the import. Returns every record that is new or changed
    (new records with their links; existing ones with the back-links and editions) and the
    report. A batch sees the records of the batches before it, so files of several languages
    imported together are linked with each other too.
    """
    sim = Similarity(embedder)
    current = dict(records)
    report = LinkReport()
    for batch in batches:
        matches: dict[str, list[Match]] = {}
        for rec in batch:
            found, notes = match_record(rec, current, sim)
            matches[rec.id] = found
            report.notes.extend(notes)
            report.links.extend(m for m in found if m.linked)
            report.possible.extend(m for m in found if not m.linked)
        current.update({rec.id: rec for rec in batch})
        apply_links(batch, matches, current, sim, report)
    changed = {rid: rec for rid, rec in current.items() if records.get(rid) != rec}
    return changed, report


@dataclass
class LinkCalibration:
    positives: list[tuple[str, str, float]]
    negatives: list[tuple[str, str, float]]

    def lowest_positive(self) -> tuple[str, str, float]:
        return min(self.positives, key=lambda p: p[2])

    def highest_negative(self) -> tuple[str, str, float]:
        return max(self.negatives, key=lambda p: p[2])


def calibrate_links(
    records: dict[str, Ruling], embedder: Embedder, kind: str = "rulebook"
) -> LinkCalibration:
    """Score the archive's known links as if unknown (positives) and pairs of different rules.

    Each record of `kind` is scored against the records of its game and kind in other
    languages (positives: its `related`), or, when there are none (gh-da-*), against the others
    of its game and kind (all negatives: different rules).
    """
    sim = Similarity(embedder)
    cal = LinkCalibration([], [])
    for rec in records.values():
        if rec.kind != kind:
            continue
        pool = candidates_for(rec, records) or [
            r for r in records.values() if r.game == rec.game and r.kind == kind and r.id != rec.id
        ]
        for cid, (margin, _, _) in score_candidates(rec.text, pool, sim, excluding=rec.id).items():
            (cal.positives if cid in rec.related else cal.negatives).append((rec.id, cid, margin))
    return cal
