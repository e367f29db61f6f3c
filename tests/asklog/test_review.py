"""The review queue (`rulings review`): which asks wait for a curator, how they are grouped, what
promote and dismiss write, the votes' risk-coverage, and the whole story on a live server.

The log is filled directly through ``service.asklog.store``; the commands run through click's
CliRunner. Grouping embeds with the real model, so those tests ask for the session's index
(`index_dir`: the language means come from its search keys) and are marked slow with it.
"""

from __future__ import annotations

import json
import shutil
import time
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

from service.asklog.review import (
    QueuedAsk,
    average_link,
    group_asks,
    mark_reviewed,
    nearest_rulings,
    pending_asks,
)
from service.asklog.store import AskEntry, Vote, migrate, now, open_database, write_asks, write_vote
from service.cli import cli
from tests.conftest import REPO

PARAPHRASES = [
    "can monsters open doors?",
    "Do monsters open doors in Frosthaven?",
    "können Monster Türen öffnen?",
]
#: The same question as the service declines it today (it answers "can monsters open doors?"
#: and "können Monster Türen öffnen?" already, with fh-edge-15): in German, as one group.
DECLINED = [
    "Dürfen Monster Türen öffnen?",
    "Öffnen Monster Türen?",
    "Können Monster Türen aufmachen?",
]
OTHER = "does poison add +1 to every attack or only to the first one?"
RULING = "fh-edge-15"  # "Only characters can open doors"


def entry(n: int, question: str, *, declined: bool = True, answer: str | None = None,
          days_ago: float = 0, matches: tuple = ()) -> AskEntry:  # fmt: skip
    return AskEntry(
        id=f"{n:032x}",
        asked_at=now() - timedelta(days=days_ago, minutes=100 - n),
        question=question,
        lang="en",
        game=None,
        declined=declined,
        reason_code="low_confidence" if declined else "answered",
        answer=answer,
        score=matches[0][1] if matches else None,
        matches=[{"id": rid, "score": score} for rid, score in matches],
    )


def ask_id(n: int) -> str:
    return f"{n:032x}"


@pytest.fixture()
def log_path(tmp_path) -> Path:
    """A log of the three paraphrases (declined; the third voted "fh-edge-15 answers it"), an
    unrelated decline, an answer voted helpful and one voted unhelpful."""
    path = tmp_path / "asks.sqlite3"
    engine = open_database(path)
    migrate(engine)
    near = (("fh-clar-03", 0.13), (RULING, 0.12))
    write_asks(
        engine,
        [
            *(entry(i, q, matches=near) for i, q in enumerate(PARAPHRASES, start=1)),
            entry(4, OTHER, matches=(("fh-clar-13", 0.05),)),
            entry(
                5,
                "Shield or Ward first?",
                declined=False,
                answer="fh-clar-10",
                matches=(("fh-clar-10", 0.9),),
            ),  # fmt: skip
            entry(
                6,
                "when am I exhausted?",
                declined=False,
                answer="fh-nl-6",
                matches=(("fh-nl-6", 0.4), ("fh-nl-2", 0.3)),
            ),  # fmt: skip
        ],
    )
    write_vote(engine, Vote(ask_id(3), True, RULING))
    write_vote(engine, Vote(ask_id(5), True))
    write_vote(engine, Vote(ask_id(6), False))
    engine.dispose()
    return path


@pytest.fixture()
def archive_copy(tmp_path) -> Path:
    root = tmp_path / "rulings"
    shutil.copytree(REPO / "rulings", root)
    return root


def run(runner, *args: str, archive: Path | None = None, index: Path | None = None):
    base = [*(["--archive", str(archive)] if archive else []),
            *(["--index", str(index)] if index else [])]  # fmt: skip
    return runner.invoke(cli, [*base, *args])


def one_line_error(result) -> str:
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


# -- which asks wait, and how they group (no model) ------------------------------------------------
def test_the_queue_holds_declines_and_answers_voted_down_not_yet_reviewed(log_path):
    engine = open_database(log_path)
    write_asks(engine, [entry(7, "an old decline", days_ago=30),
                        entry(8, "a changed mind", declined=False, answer="fh-nl-1")])  # fmt: skip
    write_vote(engine, Vote(ask_id(8), False))
    write_vote(engine, Vote(ask_id(8), True), at=now() + timedelta(seconds=1))  # the last counts
    write_asks(engine, [entry(9, "a related ruling voted down", declined=False, answer="fh-nl-1")])
    write_vote(engine, Vote(ask_id(9), False, "fh-it-3"))  # not the answer: nothing to review
    queued = {a.id: a for a in pending_asks(engine)}
    assert sorted(queued) == [ask_id(n) for n in (1, 2, 3, 4, 6, 7)]
    assert queued[ask_id(6)].unhelpful == {"fh-nl-6"} and not queued[ask_id(6)].declined
    assert queued[ask_id(3)].answers_it == (RULING,)
    assert [a.id for a in pending_asks(engine, days=7)] == [ask_id(n) for n in (1, 2, 3, 4, 6)]
    assert mark_reviewed(engine, [ask_id(1), ask_id(4), ask_id(1)], "dismissed", None) == 2
    assert mark_reviewed(engine, [ask_id(1)], "dismissed", None) == 0
    assert [a.id for a in pending_asks(engine, days=7)] == [ask_id(n) for n in (2, 3, 6)]


def _naive_average_link(vectors: np.ndarray, threshold: float) -> list[list[int]]:
    clusters = [[i] for i in range(len(vectors))]
    sim = vectors @ vectors.T
    while len(clusters) > 1:
        best, pair = -np.inf, None
        for i in range(len(clusters)):
            for j in range(i + 1, len(clusters)):
                mean = sim[np.ix_(clusters[i], clusters[j])].mean()
                if mean > best:
                    best, pair = mean, (i, j)
        if best < threshold or pair is None:
            break
        i, j = pair
        clusters[i] = sorted(clusters[i] + clusters.pop(j))
    return sorted(clusters, key=lambda c: c[0])


@pytest.mark.parametrize("seed", range(6))
def test_average_link_matches_the_textbook_algorithm(seed):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(4, 16))
    vectors = np.repeat(centres, 6, axis=0) + rng.normal(scale=0.8, size=(24, 16))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for threshold in (0.1, 0.3, 0.5, 0.7):
        assert average_link(vectors, threshold) == _naive_average_link(vectors, threshold)


def test_average_link_does_not_chain():
    """b is close to a and to c, which are unrelated: a and b group, c stays apart."""
    a, c = np.array([1.0, 0, 0]), np.array([0, 1.0, 0])
    b = np.array([0.55, 0.45, np.sqrt(1 - 0.55**2 - 0.45**2)])
    assert average_link(np.stack([a, b, c]), 0.36) == [[0, 1], [2]]


def _queued(n: int, question: str, matches: tuple = (), **kw) -> QueuedAsk:
    e = entry(n, question)
    return QueuedAsk(e.id, e.asked_at, question, "en", True, None, matches, **kw)


def _embed(texts: list[str]) -> np.ndarray:
    """Questions by topic: the same first word, the same direction."""
    axes = {"door": 0, "poison": 1}
    out = np.zeros((len(texts), 3))
    for i, t in enumerate(texts):
        out[i, axes.get(t.split()[0], 2)] = 1.0
    return out


def test_group_ids_hold_as_a_group_grows_and_groups_come_most_asked_first():
    asks = [_queued(1, "poison a"), _queued(2, "door a"), _queued(3, "door b")]
    first = group_asks(asks, _embed)
    assert [g.count for g in first] == [2, 1]
    later = group_asks([*asks, _queued(9, "door c"), _queued(10, "poison b")], _embed)
    assert {g.id for g in later} == {g.id for g in first}
    assert [len(g.asks) for g in later] == [3, 2]
    assert later[0].id == first[0].id and [a.id for a in later[0].asks][0] == ask_id(2)


def test_a_vote_naming_a_ruling_puts_it_first_and_a_wrong_answer_is_not_offered():
    asks = [
        _queued(1, "door a", matches=(("fh-clar-03", 0.3), ("fh-nl-6", 0.2))),
        _queued(
            2,
            "door b",
            matches=(("fh-clar-03", 0.2), ("fh-edge-15", 0.1)),
            answers_it=("fh-edge-15",),
        ),  # fmt: skip
        _queued(3, "door c", matches=(("fh-nl-6", 0.9),), unhelpful=frozenset({"fh-nl-6"})),
    ]
    assert nearest_rulings(asks) == ("fh-edge-15", "fh-clar-03", "fh-nl-6")
    assert nearest_rulings(asks[2:]) == ()


# -- what promote and dismiss write (no model) -----------------------------------------------------
def test_keys_are_added_once_in_their_language_and_the_file_keeps_its_style(archive_copy):
    from indexer.archive.load import load_archive
    from indexer.archive.write import record_to_yaml
    from service.asklog.curate import with_keys

    rec = load_archive(archive_copy).records[RULING]
    first_en = rec.asks["en"][0]
    new, done = with_keys(
        rec,
        [
            ("en", "  can   monsters open doors? "),
            ("en", "CAN MONSTERS OPEN DOORS?"),
            ("en", f" {first_en.upper()}"),
            ("de", "können Monster Türen öffnen?"),
            ("fr", "x" * 201),
        ],  # fmt: skip
    )
    assert done.added == {
        "en": ["can monsters open doors?"],
        "de": ["können Monster Türen öffnen?"],
    }
    assert len(done.skipped) == 3 and "already asks.en[0]" in done.skipped[1]
    assert new.asks["en"] == [*rec.asks["en"], "can monsters open doors?"]
    before = record_to_yaml(rec).splitlines()
    after = record_to_yaml(new).splitlines()
    assert [line for line in after if line not in before] == [
        "  - can monsters open doors?",
        "  - können Monster Türen öffnen?",
    ]


def test_question_sets_are_appended_once_and_read_by_the_eval_loader(tmp_path):
    from indexer.search.evaluate import load_questions
    from service.asklog.curate import ANSWERED, append_questions

    item = {"q": 'a "quoted" question: #1?', "lang": "en", "game": None,
            "expect": ["fh-nl-1", "fh-it-1"], "asked": "2026-01-02", "reviewed": "2026-01-03"}  # fmt: skip
    path, n = append_questions(tmp_path, ANSWERED, [item, dict(item, q=item["q"].upper())])
    assert n == 1 and append_questions(tmp_path, ANSWERED, [item])[1] == 0
    text = path.read_text()
    assert text.startswith("# Questions from real use") and "reviewed by a curator" in text
    (loaded,) = load_questions(path)
    assert loaded.q == item["q"] and loaded.expect == ("fh-nl-1", "fh-it-1")


# -- the command ----------------------------------------------------------------------------------
def test_review_groups_the_paraphrases_apart_from_another_question(runner, log_path, index_dir):
    result = run(runner, "review", "--log", str(log_path), "--json", index=index_dir)
    assert result.exit_code == 0, result.output
    groups = json.loads(result.output)["groups"]
    door = groups[0]
    assert set(door) == {"id", "count", "languages", "questions", "nearest"}
    assert door["count"] == 3 and len(door["id"]) == 8
    assert [q["question"] for q in door["questions"]] == PARAPHRASES
    assert set(door["questions"][0]) == {"ask_id", "question", "lang", "declined", "answer"}
    assert door["nearest"][0] == RULING  # the vote "this one answers it" comes first
    others = {q["question"] for g in groups[1:] for q in g["questions"]}
    assert others == {OTHER, "when am I exhausted?"}
    again = run(runner, "review", "--log", str(log_path), "--json", index=index_dir)
    assert [g["id"] for g in json.loads(again.output)["groups"]] == [g["id"] for g in groups]
    human = run(runner, "review", "--log", str(log_path), index=index_dir)
    assert human.exit_code == 0 and door["id"] in human.output and PARAPHRASES[2] in human.output


def _door_group(runner, log_path, index_dir) -> str:
    result = run(runner, "review", "--log", str(log_path), "--json", index=index_dir)
    return json.loads(result.output)["groups"][0]["id"]


def test_promote_adds_the_keys_in_their_languages_and_lint_passes(
    runner, log_path, index_dir, archive_copy
):
    from indexer.archive.load import load_archive
    from indexer.language import detect_language
    from indexer.search.evaluate import load_questions

    group = _door_group(runner, log_path, index_dir)
    before = load_archive(archive_copy).records[RULING].asks
    done = run(runner, "review", "--log", str(log_path), "promote", group, "--to", RULING,
               archive=archive_copy, index=index_dir)  # fmt: skip
    assert done.exit_code == 0, done.output
    after = load_archive(archive_copy).records[RULING].asks
    for question in PARAPHRASES:
        lang = detect_language(question)  # as the service reads it
        assert after[lang] == [
            *before[lang],
            *[q for q in PARAPHRASES if detect_language(q) == lang],
        ]
    assert after["de"][-1] == "können Monster Türen öffnen?"
    lint = run(runner, "lint", archive=archive_copy)
    assert lint.exit_code == 0, lint.output
    answered = load_questions(archive_copy / "questions" / "answered.yaml")
    assert [q.q for q in answered] == PARAPHRASES
    assert all(q.expect == (RULING,) for q in answered)
    assert answered[1].game == "frosthaven" and answered[0].game is None
    # Reviewed: gone from the queue, and the group id is no longer one.
    queue = run(runner, "review", "--log", str(log_path), "--json", index=index_dir)
    assert group not in {g["id"] for g in json.loads(queue.output)["groups"]}
    again = run(runner, "review", "--log", str(log_path), "promote", group, "--to", RULING,
                archive=archive_copy, index=index_dir)  # fmt: skip
    assert f"no group {group!r}" in one_line_error(again)


def test_dismiss_writes_the_outside_set(runner, log_path, index_dir, archive_copy):
    from indexer.search.evaluate import load_questions

    group = _door_group(runner, log_path, index_dir)
    done = run(runner, "review", "--log", str(log_path), "dismiss", group,
               archive=archive_copy, index=index_dir)  # fmt: skip
    assert done.exit_code == 0, done.output
    outside = load_questions(archive_copy / "questions" / "outside.yaml")
    assert [q.q for q in outside] == PARAPHRASES and all(q.expect == () for q in outside)
    assert not (archive_copy / "questions" / "answered.yaml").exists()
    assert (archive_copy / "records" / f"{RULING}.yaml").read_text() == (
        REPO / "rulings" / "records" / f"{RULING}.yaml"
    ).read_text()


def test_a_bad_group_or_ruling_is_one_line(runner, log_path, index_dir, archive_copy):
    group = _door_group(runner, log_path, index_dir)
    args = ["review", "--log", str(log_path)]
    bad_group = run(runner, *args, "promote", "0badc0de", "--to", RULING,
                    archive=archive_copy, index=index_dir)  # fmt: skip
    assert "no group '0badc0de'" in one_line_error(bad_group)
    bad_ruling = run(runner, *args, "promote", group, "--to", "fh-nope-1",
                     archive=archive_copy, index=index_dir)  # fmt: skip
    assert f"no ruling has the id 'fh-nope-1' (nearest to this group: {RULING}" in (
        one_line_error(bad_ruling)
    )
    assert not (archive_copy / "questions").exists()
    dismissed = run(runner, *args, "dismiss", "x", archive=archive_copy, index=index_dir)
    assert "no group" in one_line_error(dismissed)


def test_a_missing_or_unreachable_log_is_one_line(runner, tmp_path):
    missing = run(runner, "review", "--log", str(tmp_path / "none.sqlite3"))
    assert "no question log at" in one_line_error(missing)
    refused = run(runner, "review", "--stats", "--log", "postgresql://x@127.0.0.1:9/none")
    assert "the question log cannot be used" in one_line_error(refused)


def test_stats_are_the_risk_coverage_of_the_votes(runner, log_path, tmp_path):
    result = run(runner, "review", "--log", str(log_path), "--stats", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert (figures["asks"], figures["answered"], figures["voted"]) == (6, 2, 2)
    # One of the two voted answers was unhelpful; the helpful one (0.9) was the surer.
    assert figures["operating_point"] == {"coverage": round(2 / 6, 4), "risk": 0.5}
    assert figures["aurc"]["value"] == pytest.approx(1 / 6 * 0 + 1 / 6 * 0.5, abs=1e-4)
    human = run(runner, "review", "--log", str(log_path), "--stats")
    assert "coverage at 5 % risk" in human.output and "AURC" in human.output
    empty = tmp_path / "empty.sqlite3"
    migrate(open_database(empty))
    assert "no answered ask" in one_line_error(
        run(runner, "review", "--log", str(empty), "--stats")
    )


def test_calibrate_reads_the_real_use_sets_and_says_which_leak(tmp_path):
    from service.asklog.curate import ANSWERED, OUTSIDE, append_questions
    from service.cli.archive import real_use_note, real_use_rows, real_use_sets

    item = {"q": "q?", "lang": "en", "game": None, "expect": [RULING], "asked": "2026-01-02",
            "reviewed": "2026-01-03"}  # fmt: skip
    append_questions(tmp_path, ANSWERED, [item])
    append_questions(tmp_path, OUTSIDE, [dict(item, expect=[])])
    (tmp_path / "questions" / "empty.yaml").write_text("# nothing yet\n")
    sets = real_use_sets(tmp_path)
    assert sorted(sets) == ["questions/answered", "questions/outside"]
    by_set = {"questions/answered": {"hit@1": 1.0}, "questions/outside": {"hit@1": None}}
    note = real_use_note(sets, {"held_out": {"by_set": by_set}})
    assert note["keyed"] == ["questions/answered"] and "not independent" in note["note"]
    counts = {name: len(items) for name, items in sets.items()}
    assert real_use_rows({"real_use": note, "sets": counts}) == [
        ("answered (1)", {"hit@1": 1.0}, True),
        ("outside (1)", {"hit@1": None}, False),
    ]


# -- the whole story on a running server ------------------------------------------------------------
def test_promoted_questions_are_answered_after_a_live_build(runner, tmp_path, index_dir):
    """Three declined paraphrases asked over HTTP form one group; promoted to the ruling and
    built while serving, each is answered with it."""
    import httpx

    from tests.conftest import serving

    root, index, log = tmp_path / "rulings", tmp_path / "index", tmp_path / "asks.sqlite3"
    shutil.copytree(REPO / "rulings", root)
    shutil.copytree(index_dir, index)
    settings = {"RULINGS_ARCHIVE_DIR": str(root), "RULINGS_INDEX_DIR": str(index),
                "RULINGS_LOG": str(log), "WEB_WORKERS": "2"}  # fmt: skip
    with serving(settings) as url:
        ids = []
        for question in [*DECLINED, OTHER]:
            answer = httpx.get(f"{url}/v1/ask", params={"q": question}, timeout=30).json()
            assert answer["declined"], (question, answer["answer"]["id"])
            ids.append(answer["ask_id"])
        vote = {"ask_id": ids[0], "helpful": True, "ruling": RULING}
        assert httpx.post(f"{url}/v1/feedback", json=vote, timeout=30).status_code == 200
        base = ["--archive", str(root), "--index", str(index), "review", "--log", str(log)]
        deadline, groups = time.monotonic() + 20, []
        while time.monotonic() < deadline and sum(g["count"] for g in groups) < 4:
            groups = json.loads(runner.invoke(cli, [*base, "--json"]).output)["groups"]
            time.sleep(0.2)  # each worker writes its asks from its own thread
        door = [g for g in groups if {q["ask_id"] for q in g["questions"]} & set(ids[:3])]
        assert len(door) == 1 and sorted(q["ask_id"] for q in door[0]["questions"]) == sorted(
            ids[:3]
        ), groups
        assert door[0]["nearest"][0] == RULING
        promoted = runner.invoke(cli, [*base, "promote", door[0]["id"], "--to", RULING])
        assert promoted.exit_code == 0, promoted.output
        built = runner.invoke(cli, ["--archive", str(root), "--index", str(index), "build",
                                    "--quiet"])  # fmt: skip
        assert built.exit_code == 0, built.output

        def answers() -> list:
            return [
                httpx.get(f"{url}/v1/ask", params={"q": q}, timeout=30).json()["answer"]
                for q in DECLINED
            ]

        # Both workers switch within seconds (each polls the manifest): three rounds in a row.
        deadline, streak = time.monotonic() + 40, 0
        while time.monotonic() < deadline and streak < 3:
            got = answers()
            streak = streak + 1 if all(a and a["id"] == RULING for a in got) else 0
            time.sleep(0.2)
        assert streak == 3, got
        other = httpx.get(f"{url}/v1/ask", params={"q": OTHER}, timeout=30).json()
        assert other["declined"]
