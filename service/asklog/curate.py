"""What a curator's review writes into the archive: search keys, and the real-use question sets.

``promote`` adds a group's questions to a ruling's search keys (``asks``), each in the language
the service reads it in, through the archive's own record writer (atomic, the file's style
kept), and appends them to ``questions/answered.yaml`` with that ruling expected. ``dismiss``
appends them to ``questions/outside.yaml``, expecting nothing. Both sets have the format of
``bench/eval/own.yaml`` so ``load_questions`` and ``rulings calibrate`` read them. Writing
twice is harmless: a key already there, or a question already in the set, is skipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from indexer.archive.schema import ASK_MAX_CHARS, Archive, Ruling, ask_problems
from indexer.archive.write import record_path, write_record
from indexer.errors import NotFound
from indexer.files import read_yaml, write_atomic
from indexer.language import LANGUAGES
from indexer.search.evaluate import EvalFileError, LabelledQuestion, load_questions
from indexer.text import fold
from service.asklog.review import Group

#: The real-use question sets, in the archive's folder.
QUESTIONS = "questions"
ANSWERED = "answered.yaml"
OUTSIDE = "outside.yaml"
#: The sets whose questions are also search keys of the ruling they expect: their held-out
#: figures in `rulings calibrate` are not independent of the index.
KEYED_SETS = (ANSWERED,)

_FIELDS = """\
# Item fields are those of bench/eval/own.yaml: q (the question as asked), lang (the language the
# service reads it in), game (the game it names, else null), expect (the rulings answering it,
# with their other editions; [] for none); and asked / reviewed, the days it was asked and
# reviewed. Appended by the command; a curator may edit or delete lines.
"""
HEADERS = {
    ANSWERED: f"""\
# Questions from real use: asks from the question log that the service declined, or answered
# with a ruling voted unhelpful, reviewed by a curator (`rulings review promote GROUP --to ID`)
# who named the ruling that answers them.
#
# Each question was also added to that ruling's search keys (asks:), so the service's figure
# on this set is not independent of the index: `rulings calibrate` fits on it and reports it
# apart from the held-out sets.
#
{_FIELDS}""",
    OUTSIDE: f"""\
# Questions from real use that the archive does not answer: asks from the question log that
# the service declined (or answered, voted unhelpful), reviewed by a curator (`rulings review
# dismiss GROUP`) who found no ruling answering them. The service should decline every one
# (expect: []). None is a search key, so `rulings calibrate`'s figure on it is a fair one.
#
{_FIELDS}""",
}


@dataclass
class Written:
    """What a review wrote: the keys added per language, the questions not made keys (why),
    the files written and how many questions the set gained."""

    added: dict[str, list[str]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    record: Path | None = None
    question_set: Path | None = None
    appended: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "skipped": self.skipped,
            "record": str(self.record) if self.record else None,
            "question_set": str(self.question_set) if self.question_set else None,
            "appended": self.appended,
        }


def key_text(question: str) -> str:
    """A question as a search key: its whitespace collapsed, no control characters (YAML
    refuses some in any file)."""
    return " ".join("".join(c for c in question if c.isprintable() or c.isspace()).split())


def with_keys(rec: Ruling, keys: Iterable[tuple[str, str]]) -> tuple[Ruling, Written]:
    """`rec` with (lang, question) keys added where they are usable and new (a key folding to
    one already there is a duplicate, as lint says); the record unchanged when none is."""
    asks: dict[str, list[str]] = {lang: list(keys_) for lang, keys_ in rec.asks.items()}
    done = Written()
    for lang, question in keys:
        key = key_text(question)
        if len(key) > ASK_MAX_CHARS:
            done.skipped.append(f"{key[:60]}...: longer than {ASK_MAX_CHARS} characters")
            continue
        trial = {lang: [*asks.get(lang, []), key]}
        problems = ask_problems(trial)
        if problems:
            done.skipped.append(f"{key}: {problems[0][1].replace('duplicate of', 'already')}")
            continue
        asks.setdefault(lang, []).append(key)
        done.added.setdefault(lang, []).append(key)
    if not done.added:
        return rec, done
    ordered = {lang: asks[lang] for lang in LANGUAGES if lang in asks}
    data = rec.model_dump(mode="json", exclude_defaults=True)
    return Ruling.model_validate({**data, "asks": ordered}), done


def promote(
    archive: Archive, analyser: Any, group: Group, ruling: str, today: date | None = None
) -> Written:
    """Add the group's questions to `ruling`'s keys and to ``questions/answered.yaml``."""
    rec = archive.get(ruling)
    if rec is None:
        near = ", ".join(group.nearest) or "none"
        raise NotFound(f"no ruling has the id {ruling!r} (nearest to this group: {near})")
    analysed = [(ask, analyser.analyse(ask.question)) for ask in group.asks]
    new, done = with_keys(rec, ((q.lang, q.text) for _, q in analysed))
    if new is not rec:
        done.record = write_record(new, archive.root)
    else:
        done.record = record_path(rec.id, archive.root)
    expect = list(archive.edition_group(ruling))
    items = [_item(ask, q, expect, today) for ask, q in analysed]
    done.question_set, done.appended = append_questions(archive.root, ANSWERED, items)
    return done


def dismiss(root: Path, analyser: Any, group: Group, today: date | None = None) -> Written:
    """Add the group's questions to ``questions/outside.yaml`` (expect nothing)."""
    items = [_item(ask, analyser.analyse(ask.question), [], today) for ask in group.asks]
    done = Written()
    done.question_set, done.appended = append_questions(root, OUTSIDE, items)
    return done


def _item(ask: Any, q: Any, expect: list[str], today: date | None) -> dict[str, Any]:
    return {
        "q": key_text(ask.question),
        "lang": q.lang,
        "game": q.game,
        "expect": expect,
        "asked": ask.asked_at.date().isoformat(),
        "reviewed": (today or date.today()).isoformat(),
    }


def append_questions(root: Path, name: str, items: Sequence[dict[str, Any]]) -> tuple[Path, int]:
    """Append the items a set does not hold yet (the same folded question and expectation);
    the file made with its header first. (path, how many appended)."""
    path = root / QUESTIONS / name
    text = path.read_text(encoding="utf-8") if path.exists() else HEADERS[name]
    held = {(fold(key_text(i.q)), i.expect) for i in load_question_set(path)}
    new = []
    for item in items:
        mark = (fold(item["q"]), tuple(item["expect"]))
        if mark not in held:
            held.add(mark)
            new.append(item)
    if new:
        body = "".join(_item_yaml(item) for item in new)
        write_atomic(path, text + ("" if text.endswith("\n") else "\n") + body)
    return path, len(new)


def _item_yaml(item: dict[str, Any]) -> str:
    """One item as bench/eval/own.yaml writes them: the question double-quoted (a JSON string is
    a YAML one), ids plain, the days quoted (YAML would read them as dates)."""
    game = item["game"] or "null"
    return (
        f"- q: {json.dumps(item['q'], ensure_ascii=False)}\n"
        f"  lang: {item['lang']}\n  game: {game}\n"
        f"  expect: [{', '.join(item['expect'])}]\n"
        f"  asked: '{item['asked']}'\n  reviewed: '{item['reviewed']}'\n"
    )


def load_question_set(path: Path) -> list[LabelledQuestion]:
    """A real-use set's questions: none for a missing file or one holding only its header."""
    if not path.exists():
        return []
    data, err = read_yaml(path)
    if err:
        raise EvalFileError(f"{path}: cannot read questions: {err}")
    return [] if data is None else load_questions(path)


def question_sets(root: Path) -> list[Path]:
    """The archive's real-use question sets (``questions/*.yaml``), by name."""
    folder = root / QUESTIONS
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []
