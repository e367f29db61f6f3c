"""The archive grows while the service runs: sources kept, editions linked, rebuild while serving.

The rulebook-excerpt files imported here are TEST DATA, not rulings (tests/archive/growth_data.py):
paragraphs restating rules the archive holds, in German, Spanish and French.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from indexer.archive.load import check_archive, load_archive
from service.cli import cli
from tests.archive.growth_data import excerpt_file
from tests.conftest import REPO


@pytest.fixture()
def archive_copy(tmp_path) -> Path:
    """A full copy of the archive (games, records, sources) to grow."""
    root = tmp_path / "rulings"
    shutil.copytree(REPO / "rulings", root)
    return root


def write_excerpt(folder: Path, lang: str, name: str | None = None) -> Path:
    path = folder / (name or f"excerpt-{lang}.txt")
    path.write_text(excerpt_file(lang), encoding="utf-8")
    return path


def record(root: Path, rid: str) -> dict:
    return yaml.safe_load((root / "records" / f"{rid}.yaml").read_text(encoding="utf-8"))


# -- 1. sources kept --------------------------------------------------------------------------
def test_import_keeps_the_source_and_cites_it(runner, archive_copy, tmp_path):
    source = write_excerpt(tmp_path, "de", "gloomhaven-de.txt")
    result = runner.invoke(cli, ["--archive", str(archive_copy), "import", str(source)])
    assert result.exit_code == 0, result.output
    assert "copied to rulings/sources/gloomhaven-de.txt" in result.output
    kept = archive_copy / "sources" / "gloomhaven-de.txt"
    assert kept.read_bytes() == source.read_bytes()
    lines = kept.read_text(encoding="utf-8").splitlines()
    rec = record(archive_copy, "gh-de-2")
    assert rec["citation"]["file"] == "gloomhaven-de.txt"
    assert lines[rec["citation"]["line"] - 1] == rec["text"]
    assert rec["citation"]["pages"] == ["28"] and rec["citation"]["page_ref"] == "(S. 28)"
    assert runner.invoke(cli, ["--archive", str(archive_copy), "lint"]).exit_code == 0
    # No temporary file is left beside it.
    assert not [p for p in (archive_copy / "sources").iterdir() if p.name.startswith(".")]


def test_the_same_file_again_is_fine(runner, archive_copy, tmp_path):
    source = write_excerpt(tmp_path, "es")
    assert (
        runner.invoke(cli, ["--archive", str(archive_copy), "import", str(source)]).exit_code == 0
    )
    again = runner.invoke(cli, ["--archive", str(archive_copy), "import", str(source), "--json"])
    assert again.exit_code == 0, again.output
    assert '"written": []' in again.output and '"copied": []' in again.output
    # The same bytes under another name: cited by the name already kept, not copied twice.
    other = tmp_path / "copy.txt"
    shutil.copy(source, other)
    report = runner.invoke(cli, ["--archive", str(archive_copy), "import", str(other), "--json"])
    assert report.exit_code == 0 and f'"{other}": "excerpt-es.txt"' in report.output
    assert not (archive_copy / "sources" / "copy.txt").exists()


def test_a_different_file_under_a_kept_name_is_refused_in_one_line(runner, archive_copy, tmp_path):
    taken = tmp_path / "000_22aaad1f1f2e8cce.txt"  # the name of the Dutch seed file
    taken.write_text(excerpt_file("es"), encoding="utf-8")
    before = sorted(p.name for p in (archive_copy / "records").iterdir())
    result = runner.invoke(cli, ["--archive", str(archive_copy), "import", str(taken)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: 000_22aaad1f1f2e8cce.txt: rulings/sources/ already holds a different file of that "
        "name; rename yours (e.g. 000_22aaad1f1f2e8cce-2.txt) and import again"
    ]
    assert sorted(p.name for p in (archive_copy / "records").iterdir()) == before
    assert (archive_copy / "sources" / taken.name).read_bytes() == (
        REPO / "rulings" / "sources" / taken.name
    ).read_bytes()


def test_dry_run_copies_nothing(runner, archive_copy, tmp_path):
    source = write_excerpt(tmp_path, "fr")
    result = runner.invoke(
        cli, ["--archive", str(archive_copy), "import", "--dry-run", str(source)]
    )
    assert result.exit_code == 0, result.output
    assert "would copy to rulings/sources/excerpt-fr.txt" in result.output
    assert not (archive_copy / "sources" / "excerpt-fr.txt").exists()
    assert not (archive_copy / "records" / "fh-fr-1.yaml").exists()


def test_a_seed_already_in_sources_is_not_copied(archive_copy):
    from indexer.archive.sources.importer import import_files

    seed = archive_copy / "sources" / "001_577a317efcb73ea3.txt"
    report = import_files([seed], load_archive(archive_copy))
    assert report.copied == [] and report.written == []
    assert report.sources == {str(seed): seed.name}
    assert check_archive(archive_copy)[1] == []


def test_lint_checks_that_an_edition_is_a_linked_record_in_that_language(runner, archive_copy):
    path = archive_copy / "records" / "fh-nl-1.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["translations"]["it"]["edition_of"] = "gh-da-1"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = runner.invoke(cli, ["--archive", str(archive_copy), "lint"])
    assert result.exit_code == 1
    assert "fh-nl-1: translations.it.edition_of: 'gh-da-1' is in da, not it" in result.output
    assert "fh-nl-1: translations.it.edition_of: 'gh-da-1' is not in related" in result.output


# -- 2. editions linked (the real model) --------------------------------------------------------
@pytest.fixture(scope="module")
def grown(tmp_path_factory, embedder):
    """A copy of the archive after `rulings import --link` of the German, Spanish, French files."""
    import json

    from click.testing import CliRunner

    root = tmp_path_factory.mktemp("grown") / "rulings"
    shutil.copytree(REPO / "rulings", root)
    files = [str(write_excerpt(root.parent, lang)) for lang in ("de", "es", "fr")]
    result = CliRunner().invoke(cli, ["--archive", str(root), "import", "--link", "--json", *files])
    assert result.exit_code == 0, result.output
    return root, json.loads(result.output)


def expected_links() -> dict[str, set[str]]:
    """New record id -> the records stating the same rule (the test data's answer key)."""
    from tests.archive.growth_data import FILES

    archive = load_archive(REPO / "rulings")
    out: dict[str, set[str]] = {}
    for lang, (game, paragraphs) in FILES.items():
        prefix = "gh" if game == "Gloomhaven" else "fh"
        for n, (_, target) in enumerate(paragraphs, start=1):
            out[f"{prefix}-{lang}-{n}"] = (
                {target, *archive.records[target].related} if target else set()
            )
    # The French file links to the Spanish records stating its rules too (imported before it).
    for n in range(1, 4):
        fr = out[f"fh-fr-{n}"]
        out[f"fh-fr-{n}"] = fr | {
            es for es, group in out.items() if es.startswith("fh-es-") and group == fr
        }
    return out


def expected_related() -> dict[str, set[str]]:
    """What each new record's `related` holds: its links, and the later records linking to it."""
    links = expected_links()
    return {
        rid: others | {later for later, theirs in links.items() if rid in theirs}
        for rid, others in links.items()
    }


class TableSimilarity:
    """Cosines from a table (text -> cosine with the imported text): the decisions, no model."""

    def __init__(self, table: dict[str, float]):
        self.table = table

    def prepare(self, texts) -> None:
        pass

    def cosine(self, a: str, b: str) -> float:
        return self.table.get(b, self.table.get(a, 0.0))


@pytest.mark.parametrize(
    "second_pages, linked, note",
    [
        (["2"], False, ""),  # 0.03 margin, pages differ: possible
        (["3"], True, "linked on the page hint"),  # the same margin, pages agree: linked
    ],
)
def test_link_decisions(second_pages, linked, note):
    from indexer.archive.schema import Citation, Ruling
    from indexer.archive.sources.linking import match_record

    def rec(rid, lang, pages, text):
        return Ruling(
            id=rid,
            game="gloomhaven",
            kind="rulebook",
            lang=lang,
            text=text,
            citation=Citation(source="test data", pages=pages),
        )

    records = {
        r.id: r
        for r in [
            rec("gh-da-1", "da", ["1"], "one"),
            rec("gh-da-2", "da", second_pages, "two"),
            rec("gh-da-3", "da", ["4"], "three"),
            rec("gh-da-4", "da", ["5"], "four"),
        ]
    }
    new = rec("gh-de-1", "de", ["3"], "neu")
    # Mean 0.84: margins 0.060 (links), 0.034 (above the 0.03 lower bound), -0.040, -0.054.
    sim = TableSimilarity({"one": 0.90, "two": 0.874, "three": 0.80, "four": 0.786})
    found, notes = match_record(new, records, sim)
    assert notes == []
    assert [(m.other, m.linked) for m in found] == [("gh-da-1", True), ("gh-da-2", linked)]
    assert found[1].note == note and round(found[1].score, 3) == 0.034
    assert found[0].line().startswith("gh-de-1 <-> gh-da-1: score 0.060")
    assert found[1].line().startswith(f"gh-de-1 {'<->' if linked else '~'} gh-da-2: score 0.034")


def test_too_few_candidates_is_said_not_guessed():
    from indexer.archive.schema import Citation, Ruling
    from indexer.archive.sources.linking import match_record

    one = Ruling(
        id="gh-da-1",
        game="gloomhaven",
        kind="rulebook",
        lang="da",
        text="one",
        citation=Citation(source="test data"),
    )
    new = one.model_copy(update={"id": "gh-de-1", "lang": "de", "text": "neu"})
    found, notes = match_record(new, {"gh-da-1": one}, TableSimilarity({"one": 0.99}))
    assert found == [] and "too few gloomhaven rulebook records in other languages" in notes[0]


def test_calibration_separates_known_links_from_different_rules(archive, embedder):
    from indexer.archive.sources.linking import LINK_MARGIN, POSSIBLE_MARGIN, calibrate_links

    cal = calibrate_links(archive.records, embedder)
    assert len(cal.positives) == 12 and len(cal.negatives) == 80
    assert {(a, b) for a, b, _ in cal.positives} >= {("fh-nl-1", "fh-it-1"), ("fh-it-6", "fh-nl-6")}
    assert cal.lowest_positive()[2] > LINK_MARGIN > POSSIBLE_MARGIN
    assert cal.highest_negative()[2] < LINK_MARGIN
    assert any(a.startswith("gh-da-") for a, _, _ in cal.negatives)


def test_imported_paragraphs_link_to_the_same_rule_both_ways(grown):
    root, report = grown
    archive = load_archive(root)
    for rid, others in expected_related().items():
        rec = archive.records[rid]
        assert set(rec.related) == others, rid
        for other in others:
            assert rid in archive.records[other].related, (other, rid)
    assert {(m["record"], m["other"]) for m in report["links"]} == {
        (rid, other) for rid, others in expected_links().items() for other in others
    }
    assert all(m["score"] >= 0.05 or m["pages_agree"] for m in report["links"])


def test_an_official_edition_replaces_our_translation(grown):
    root, _ = grown
    da, de = record(root, "gh-da-1"), record(root, "gh-de-2")
    assert da["translations"]["de"] == {"text": de["text"], "edition_of": "gh-de-2"}
    assert de["translations"]["da"] == {"text": da["text"], "edition_of": "gh-da-1"}
    es, nl, it = record(root, "fh-es-2"), record(root, "fh-nl-1"), record(root, "fh-it-1")
    assert es["translations"]["nl"] == {"text": nl["text"], "edition_of": "fh-nl-1"}
    assert es["translations"]["it"] == {"text": it["text"], "edition_of": "fh-it-1"}
    assert (
        nl["translations"]["es"]["edition_of"]
        == it["translations"]["es"]["edition_of"]
        == "fh-es-2"
    )
    assert nl["translations"]["it"]["edition_of"] == "fh-it-1"  # the known link is kept
    assert es["translations"]["fr"]["edition_of"] == "fh-fr-1"


def test_a_paragraph_stating_part_of_a_record_links_by_content(grown):
    """gh-de-3 states only gh-da-2's first rule (initiative ties): linked, but gh-da-2 keeps our
    German translation of both its rules, and gh-de-3 shows the Danish passage it states."""
    root, report = grown
    da2, de3 = record(root, "gh-da-2"), record(root, "gh-de-3")
    assert "gh-de-3" in da2["related"] and de3["related"] == ["gh-da-2"]
    ours = yaml.safe_load(
        (REPO / "rulings" / "records" / "gh-da-2.yaml").read_text(encoding="utf-8")
    )
    assert da2["translations"]["de"] == ours["translations"]["de"]
    part = de3["translations"]["da"]
    assert part["edition_of"] == "gh-da-2" and part["text"] in da2["text"]
    assert part["text"].endswith("(side 18)") and "topaktionen" not in part["text"]
    assert any("gh-da-2: gh-de-3 states only part of it" in n for n in report["link_notes"])


def test_a_rule_no_rulebook_record_states_links_to_nothing(grown):
    root, _ = grown
    assert record(root, "fh-fr-4").get("related", []) == []


def test_the_grown_archive_passes_lint_and_strict_lists_the_untranslated(grown):
    root, _ = grown
    from click.testing import CliRunner

    runner = CliRunner()
    result = runner.invoke(cli, ["--archive", str(root), "lint"])
    assert result.exit_code == 0, result.output
    assert "ok: 85 rulings" in result.output
    strict = runner.invoke(cli, ["--archive", str(root), "lint", "--strict"])
    assert strict.exit_code == 1
    assert "gh-de-2: translations: none yet for en, nl, it, es, fr" in strict.output
    assert "fh-es-2: translations: none yet for en, da, de" in strict.output


def test_dry_run_reports_the_links_and_writes_nothing(runner, archive_copy, tmp_path, embedder):
    source = write_excerpt(tmp_path, "de")
    before = {p.name: p.read_bytes() for p in (archive_copy / "records").iterdir()}
    result = runner.invoke(
        cli, ["--archive", str(archive_copy), "import", "--link", "--dry-run", str(source)]
    )
    assert result.exit_code == 0, result.output
    assert "links (5; would be written both ways):" in result.output
    assert "gh-de-2 <-> gh-da-1: score 0." in result.output
    assert (
        "would update 5 existing record(s): gh-da-1, gh-da-2, gh-da-3, gh-da-4, gh-da-5"
        in result.output
    )
    assert {p.name: p.read_bytes() for p in (archive_copy / "records").iterdir()} == before
    assert not (archive_copy / "sources" / source.name).exists()


# -- 3. imported rulings without our translations ------------------------------------------------
def test_a_ruling_without_a_translation_says_why():
    from indexer.archive.schema import Citation, Ruling, Translation
    from service.presentation import OFFICIAL_EDITION, ruling_view

    rec = Ruling(
        id="gh-de-2",
        game="gloomhaven",
        kind="rulebook",
        lang="de",
        text="Text (S. 28).",
        citation=Citation(source="test data"),
        related=["gh-da-1"],
        translations={"da": Translation(text="Tekst (side 28).", edition_of="gh-da-1")},
    )
    en = ruling_view(rec, "en")
    assert en["translation"] is None and en["translation_missing"] == "no translation into en yet"
    da = ruling_view(rec, "da")
    assert da["translation_missing"] is None
    assert (
        da["translation"]["edition_of"] == "gh-da-1"
        and da["translation"]["label"] == OFFICIAL_EDITION
    )
    assert ruling_view(rec, "de")["translation_missing"] is None  # the original's language
    assert ruling_view(rec, None)["translation_missing"] is None  # no language asked


def test_the_api_serves_the_marker(runner, archive_copy, tmp_path):
    from service.http.app import create_app

    source = write_excerpt(tmp_path, "de")
    assert (
        runner.invoke(cli, ["--archive", str(archive_copy), "import", str(source)]).exit_code == 0
    )
    client = create_app(
        {"TESTING": True, "ARCHIVE_DIR": str(archive_copy), "INDEX_DIR": str(tmp_path / "no-index")}
    ).test_client()
    body = client.get("/v1/rulings/gh-de-2?lang=fr").get_json()
    assert body["text"].startswith("Sinken die Lebenspunkte") and body["lang"] == "de"
    assert (
        body["translation"] is None and body["translation_missing"] == "no translation into fr yet"
    )
    assert client.get("/v1/rulings/gh-da-1?lang=fr").get_json()["translation_missing"] is None
    spec = client.get("/openapi.json").get_json()
    assert "translation_missing" in spec["components"]["schemas"]["RulingOut"]["properties"]


def _engine_over(root: Path, index_dir: Path, tmp: Path):
    """An engine over `root` with its index built beside it (reusing the session index's vectors)."""
    from indexer.model.embedder import load_embedder, model_setting
    from indexer.search.index import build_index
    from service.engine import Engine, EngineConfig

    index = tmp / "index"
    shutil.copytree(index_dir, index)
    build_index(load_archive(root), load_embedder(model_setting()), index, show_progress=False)
    return Engine(EngineConfig(archive_dir=root, index_dir=index))


@pytest.fixture(scope="module")
def grown_engine(grown, index_dir, tmp_path_factory):
    return _engine_over(grown[0], index_dir, tmp_path_factory.mktemp("grown-index"))


@pytest.mark.parametrize(
    "question, lang, expect",
    [
        ("Gloomhaven: wann ist mein Charakter erschöpft?", "de", "gh-de-2"),
        ("Gloomhaven: hvornår bliver min karakter udmattet?", "da", "gh-da-1"),
        ("Gloomhaven: when is my character exhausted?", "en", "gh-da-1"),
        ("Frosthaven: ¿puedo hacer dos acciones superiores en mi turno?", "es", "fh-es-2"),
        ("Frosthaven : puis-je faire deux actions du haut pendant mon tour ?", "fr", "fh-fr-1"),
        ("Frosthaven: can I do two top actions on my turn?", "en", "fh-it-1"),
    ],
)
def test_linked_editions_answer_in_the_askers_language(grown_engine, question, lang, expect):
    result = grown_engine.ask(question, lang=lang)
    answer = result["answer"]
    assert answer is not None and answer["id"] == expect, [m["id"] for m in result["matches"]]
    assert answer["translation_missing"] is None
    if answer["lang"] != lang:
        assert answer["translation"]["lang"] == lang


DENSE_QUESTIONS = {  # "when is a character exhausted?" in the seven languages
    "en": "Gloomhaven: when is a character exhausted?",
    "nl": "Gloomhaven: wanneer raakt een personage uitgeput?",
    "da": "Gloomhaven: hvornår er en karakter udmattet?",
    "it": "Gloomhaven: quando un personaggio diventa esausto?",
    "de": "Gloomhaven: wann ist ein Charakter erschöpft?",
    "es": "Gloomhaven: ¿cuándo queda agotado un personaje?",
    "fr": "Gloomhaven : quand un personnage est-il épuisé ?",
}


def test_an_untranslated_ruling_is_indexed_by_its_original(
    runner, archive_copy, tmp_path, index_dir
):
    """Imported without --link, gh-de-2 has its German original only: the dense index holds that
    passage, and a German question finds it. (From other languages it ranks below the records
    translated into them, 2nd to 8th when measured: README, "Adding rulings"; linking or
    translating it is what makes it found everywhere, next test.)"""
    source = write_excerpt(tmp_path, "de")
    assert (
        runner.invoke(cli, ["--archive", str(archive_copy), "import", str(source)]).exit_code == 0
    )
    engine = _engine_over(archive_copy, index_dir, tmp_path)
    searcher = engine.searcher
    assert [p.lang for p in searcher.index.passages if p.record == "gh-de-2"] == ["de"]
    q = searcher.analyse(DENSE_QUESTIONS["de"], lang="de")
    dense, _keys, _votes = searcher.dense(q, searcher.allowed(q))  # over the rulings' texts
    assert sorted(dense, key=lambda rid: -dense[rid]).index("gh-de-2") <= 1  # with gh-da-1
    # Answered with the same rule: the new German record, or gh-da-1, which states it too and
    # has German search keys of ours; the new record is shown among the first two (its texts
    # stand in for the keys it does not have yet).
    res = engine.ask(DENSE_QUESTIONS["de"], lang="de")
    assert res["answer"]["id"] in {"gh-de-2", "gh-da-1"}
    assert "gh-de-2" in [m["id"] for m in res["matches"][:2]]


@pytest.mark.parametrize("lang", sorted(DENSE_QUESTIONS))
def test_a_linked_ruling_is_found_from_every_language(grown_engine, lang):
    answer = grown_engine.ask(DENSE_QUESTIONS[lang], lang=lang)["answer"]
    assert answer is not None and answer["id"] == ("gh-de-2" if lang == "de" else "gh-da-1")
    assert answer["lang"] == lang or answer["translation"]["lang"] == lang


# -- 4. rebuild while serving -----------------------------------------------------------------
@pytest.fixture()
def fake_served(archive_copy, tmp_path, fake_embedder):
    """An engine over a copy of the archive and a fake embedder's index, checking every 0.1 s."""
    from indexer.search.index import build_index
    from indexer.search.question import QuestionAnalyser
    from indexer.search.searcher import Searcher
    from service.engine import Engine, EngineConfig

    index_path = tmp_path / "index"
    archive = load_archive(archive_copy)
    index, _ = build_index(archive, fake_embedder, index_path, show_progress=False)
    searcher = Searcher(archive, index, fake_embedder, analyser=QuestionAnalyser(archive))
    engine = Engine(
        EngineConfig(archive_dir=archive_copy, index_dir=index_path, reload_every=0.1),
        archive=archive,
        searcher=searcher,
    )
    return engine, archive_copy, index_path


def _wait_for(condition, seconds: float = 20.0) -> bool:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_rebuilt_index_is_switched_to_whole_under_load(
    runner, fake_served, tmp_path, fake_embedder
):
    import threading

    from indexer.errors import NotFound
    from indexer.search.index import build_index

    engine, root, index_path = fake_served
    before = engine.health()
    with pytest.raises(NotFound):
        engine.ruling("gh-de-2")
    failures: list[str] = []
    stop = threading.Event()

    def ask_on() -> None:
        while not stop.is_set():
            try:
                # A hit of the new index shown from the old archive would fail here (KeyError).
                engine.ask("Gloomhaven: wann ist ein Charakter erschöpft?", k=5)
                engine.find(card="225")
            except Exception as exc:  # any failure is a failed request
                failures.append(repr(exc))

    threads = [threading.Thread(target=ask_on) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        assert (
            runner.invoke(
                cli, ["--archive", str(root), "import", str(write_excerpt(tmp_path, "de"))]
            ).exit_code
            == 0
        )
        build_index(load_archive(root), fake_embedder, index_path, show_progress=False)
        assert _wait_for(lambda: engine.health()["records"] == 75)
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert failures == []
    after = engine.health()
    assert after["passages"] == before["passages"] + 5
    assert engine.ruling("gh-de-2")["lang"] == "de"
    assert engine.current().searcher.archive is engine.current().archive


def test_a_build_that_does_not_load_keeps_the_previous_one(
    fake_served, tmp_path, fake_embedder, caplog
):
    """An index built from another state of the archive (edited again since) is stale: the engine
    keeps serving what it has, and switches at the next good build."""
    import logging

    from indexer.archive.sources.importer import import_files
    from indexer.search.index import build_index

    engine, root, index_path = fake_served
    before = engine.health()["passages"]
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(root, elsewhere)
    import_files([write_excerpt(tmp_path, "es")], load_archive(elsewhere))
    with caplog.at_level(logging.WARNING, logger="service.reload"):
        build_index(load_archive(elsewhere), fake_embedder, index_path, show_progress=False)
        assert _wait_for(
            lambda: engine.health() and "still serving the previous one" in caplog.text
        )
    assert "is stale: the archive changed since it was built" in caplog.text
    assert engine.health()["records"] == 70 and engine.health()["passages"] == before
    assert engine.find(card="225")["total"] >= 1
    import_files([write_excerpt(tmp_path, "es")], load_archive(root))
    build_index(load_archive(root), fake_embedder, index_path, show_progress=False)
    assert _wait_for(lambda: engine.health()["records"] == 76)


# -- 5. the whole story on a real server ---------------------------------------------------------
@pytest.fixture()
def served_copy(tmp_path, index_dir):
    """`rulings serve` (gunicorn, two workers) over a copy of the archive and of the index."""
    from tests.conftest import serving

    root, index = tmp_path / "rulings", tmp_path / "index"
    shutil.copytree(REPO / "rulings", root)
    shutil.copytree(index_dir, index)
    with serving(
        {"RULINGS_ARCHIVE_DIR": str(root), "RULINGS_INDEX_DIR": str(index), "WEB_WORKERS": "2"}
    ) as url:
        yield url, root, index


class RequestStream:
    """Questions, rulings and health checks sent one after another from a thread, every
    answer recorded: a failed request is any error or any status but 200."""

    REQUESTS = [
        ("/v1/ask", {"q": "Gloomhaven: wann ist ein Charakter erschöpft?"}),
        ("/healthz", {}),
        ("/v1/ask", {"q": "Frosthaven: can I do two top actions?"}),
        ("/v1/rulings/gh-da-1", {"lang": "de"}),
        ("/v1/rulings", {"card": "item 225"}),
    ]

    def __init__(self, url: str):
        import threading

        self.url = url
        self.sent = 0
        self.failures: list[str] = []
        self.health: list[dict] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "RequestStream":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=60)

    def _run(self) -> None:
        import httpx

        with httpx.Client(base_url=self.url, timeout=30) as client:
            while not self._stop.is_set():
                path, params = self.REQUESTS[self.sent % len(self.REQUESTS)]
                self.sent += 1
                try:
                    response = client.get(path, params=params)
                    if response.status_code != 200:
                        self.failures.append(
                            f"{path}: {response.status_code} {response.text[:200]}"
                        )
                    elif path == "/healthz":
                        self.health.append(response.json())
                except httpx.HTTPError as exc:
                    self.failures.append(f"{path}: {exc!r}")


def test_rebuild_while_serving_switches_every_worker_with_no_failed_request(
    served_copy, tmp_path, runner
):
    import time

    import httpx

    url, root, index = served_copy
    before = httpx.get(f"{url}/healthz").json()
    assert before["records"] == 70
    with RequestStream(url) as stream:
        source = write_excerpt(tmp_path, "de")
        imported = runner.invoke(cli, ["--archive", str(root), "import", "--link", str(source)])
        assert imported.exit_code == 0, imported.output
        assert runner.invoke(cli, ["--archive", str(root), "lint"]).exit_code == 0
        built = runner.invoke(
            cli, ["--archive", str(root), "--index", str(index), "build", "--quiet"]
        )
        assert built.exit_code == 0, built.output
        built_at = time.monotonic()
        while time.monotonic() - built_at < 20 and not (
            len(stream.health) >= 6 and all(h["records"] == 75 for h in stream.health[-6:])
        ):
            time.sleep(0.2)
        switched = all(h["records"] == 75 for h in stream.health[-6:])
        # Each of the two workers serves the new index (new connections reach both), within
        # the same 20 s: a worker reloads when it next looks, so the other one may be later.
        tail: dict[int, dict] = {}
        while time.monotonic() - built_at < 40 and not (
            len(tail) == 2 and all(h["records"] == 75 for h in tail.values())
        ):
            health = httpx.get(f"{url}/healthz").json()
            tail[health["worker"]] = health
    assert switched, stream.health[-6:]
    assert len(tail) == 2
    assert all(
        h["records"] == 75 and h["index_built_at"] != before["index_built_at"]
        for h in tail.values()
    )
    assert stream.failures == [] and stream.sent > 20
    answer = httpx.get(
        f"{url}/v1/ask", params={"q": "Gloomhaven: wann ist ein Charakter erschöpft?"}
    ).json()
    assert answer["answer"]["id"] == "gh-de-2"
    assert answer["answer"]["translation"] is None and answer["answer"]["lang"] == "de"
    english = httpx.get(
        f"{url}/v1/ask", params={"q": "Gloomhaven: when is a character exhausted?"}
    ).json()
    assert english["answer"]["id"] == "gh-da-1" and english["answer"]["translation"]["lang"] == "en"
    assert (root / "sources" / source.name).exists()


def test_card_suggestions_follow_a_rebuild_while_serving(fake_served, fake_embedder):
    """/v1/cards?q= ranks the names of the archive in use: a card added to a record and built
    while serving is suggested once the service has switched, and not before."""
    from indexer.search.index import build_index
    from service.http.app import create_app

    engine, root, index_path = fake_served
    app = create_app({"TESTING": True})
    app.extensions["rulings_engine"] = engine
    client = app.test_client()
    assert "Item 777" not in client.get("/v1/cards?q=777").get_json()["cards"]
    assert client.get("/v1/cards?q=Item 225").get_json()["cards"][0] == "Item 225"
    record = root / "records" / "fh-clar-10.yaml"
    record.write_text(record.read_text() + "cards:\n- {type: item, name: '777'}\n")
    build_index(load_archive(root), fake_embedder, index_path, show_progress=False)
    assert _wait_for(lambda: "Item 777" in client.get("/v1/cards?q=777").get_json()["cards"])
    assert client.get("/v1/cards?q=777").get_json()["cards"][0] == "Item 777"
