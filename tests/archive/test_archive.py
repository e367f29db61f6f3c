"""The curated archive: completeness, lint on every kind of broken record, the importer."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml

from indexer.archive.load import check_archive, load_archive
from indexer.archive.sources.formats import parse_file
from indexer.archive.sources.importer import import_files
from indexer.archive.sources.pages import normalise_pages, page_refs
from indexer.language import LANGUAGES
from service.cli import cli
from tests.conftest import IDS_FILE, REPO

SOURCES = REPO / "rulings" / "sources"


def expected_ids() -> list[str]:
    if not IDS_FILE.exists():
        pytest.skip(f"{IDS_FILE} not present")
    return list(yaml.safe_load(IDS_FILE.read_text(encoding="utf-8")))


# -- the archive as shipped ---------------------------------------------------------------
def test_lint_passes_on_the_archive(runner):
    result = runner.invoke(cli, ["lint", "--strict"])
    assert result.exit_code == 0, result.output
    assert "ok: 70 rulings" in result.output


def test_every_id_exists_with_the_counts_of_the_seeds(archive):
    assert sorted(archive.records) == sorted(expected_ids())
    kinds = Counter(rec.kind for rec in archive.records.values())
    assert kinds == {
        "rulebook": 17,
        "erratum": 13,
        "clarification": 20,
        "edge case": 17,
        "example": 3,
    }


def test_every_ruling_has_text_in_all_seven_languages(archive):
    for rec in archive.records.values():
        assert set(rec.languages()) == set(LANGUAGES), rec.id
        for lang, tr in rec.translations.items():
            assert tr.text.strip(), (rec.id, lang)


def test_every_ruling_has_four_to_six_search_keys_in_each_language(archive):
    """Four to six written by a curator; questions promoted from the review queue (kept in
    rulings/questions/answered.yaml) come on top of those."""
    import yaml

    from indexer.text import fold

    answered = archive.root / "questions" / "answered.yaml"
    promoted = {
        (rid, item.get("lang"), fold(item["q"]))
        for item in (yaml.safe_load(answered.read_text()) or [] if answered.exists() else [])
        for rid in item.get("expect", [])
    }
    for rec in archive.records.values():
        assert set(rec.asks) == set(LANGUAGES), rec.id
        for lang, keys in rec.asks.items():
            written = [k for k in keys if (rec.id, lang, fold(k)) not in promoted]
            assert 4 <= len(written) <= 6, (rec.id, lang, len(written))


@pytest.mark.parametrize(
    "rid, game", [("catan-example-1", "catan"), ("wingspan-example-1", "wingspan")]
)
def test_search_keys_of_other_games_examples_name_their_game(archive, rid, game):
    """A key must not make a Catan or Wingspan example answer a question naming neither game."""
    from indexer.text import fold

    names = [fold(n) for n in (archive.games[game].name, *archive.games[game].aliases)]
    for lang, keys in archive.records[rid].asks.items():
        for key in keys:
            assert any(name in fold(key) for name in names), (rid, lang, key)


def test_editions_of_the_same_rule_are_linked(archive):
    for n in range(1, 7):
        assert archive.records[f"fh-nl-{n}"].related == [f"fh-it-{n}"]
        assert archive.records[f"fh-it-{n}"].related == [f"fh-nl-{n}"]
        # The Italian text of a Dutch paragraph is the Italian edition itself, not our translation.
        assert archive.records[f"fh-nl-{n}"].translations["it"].edition_of == f"fh-it-{n}"


@pytest.mark.parametrize(
    "rid, label",
    [
        ("fh-errata-04", "Chaos Demon \u201cChilling Breath\u201d"),
        ("fh-errata-09", "Item 225"),
        ("fh-errata-10", "Town Guard \u201c1451\u201d"),
        ("fh-errata-12", "Building 74"),
        ("fh-errata-13", "Blinkblade \u201cMake It Count\u201d"),
    ],
)
def test_cards_rulings_are_about(archive, rid, label):
    assert label in [c.label for c in archive.records[rid].cards]


def test_erratum_names_the_passage_it_amends(archive):
    amend = archive.records["fh-errata-01"].amends[0]
    assert (amend.section, amend.pages) == ("Active Bonuses", ["30"])


def test_citations_are_as_the_sources_give_them(archive):
    faq = archive.records["fh-clar-10"].citation
    assert (faq.author, faq.site, faq.date) == (
        "dwarf74 (Bill, official FAQ maintainer for Cephalofair Games)",
        "boardgamegeek.com",
        "2026-07-14",
    )
    assert archive.records["fh-nl-4"].citation.pages == ["21", "13-14"]
    assert archive.records["fh-it-4"].citation.page_ref == "(pagg. 21, 13–14)"
    assert archive.records["gh-da-4"].citation.pages == ["29-30"]
    assert archive.records["catan-example-1"].citation.pages == ["7"]
    assert archive.records["gh-example-null"].game == "gloomhaven"
    # Rulebook excerpts give no author or date: none is invented.
    assert archive.records["fh-nl-1"].citation.author is None


# -- lint on broken records -----------------------------------------------------------------
@pytest.fixture()
def small_archive(tmp_path) -> Path:
    """A copy of the games registry and four records to break."""
    root = tmp_path / "rulings"
    (root / "records").mkdir(parents=True)
    shutil.copy(REPO / "rulings" / "games.yaml", root / "games.yaml")
    for rid in ("fh-nl-1", "fh-it-1", "fh-errata-09", "gh-da-1"):
        shutil.copy(REPO / "rulings" / "records" / f"{rid}.yaml", root / "records" / f"{rid}.yaml")
    return root


def _edit(root: Path, rid: str, change) -> None:
    path = root / "records" / f"{rid}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


_ERRATA_09 = yaml.safe_load(
    (REPO / "rulings" / "records" / "fh-errata-09.yaml").read_text(encoding="utf-8")
)
N_EN_ASKS = len(_ERRATA_09.get("asks", {}).get("en", []))  # where an appended key lands
N_DE_ASKS = len(_ERRATA_09.get("asks", {}).get("de", []))

BROKEN = [
    ("missing citation", lambda d: d.pop("citation"), "fh-errata-09: citation: missing"),
    (
        "unknown game",
        lambda d: d.update(game="monopoly"),
        "fh-errata-09: game: unknown game 'monopoly' (known: frosthaven, gloomhaven, catan, wingspan)",
    ),
    (
        "unknown kind",
        lambda d: d.update(kind="rumour"),
        "fh-errata-09: kind: must be 'rulebook', 'erratum', 'clarification', 'edge case' or 'example' (got 'rumour')",
    ),
    (
        "broken link",
        lambda d: d.update(related=["fh-nl-99"]),
        "fh-errata-09: related: unknown record 'fh-nl-99'",
    ),
    (
        "translation language",
        lambda d: d["translations"].update(pt={"text": "Item 225 ocupa ..."}),
        "fh-errata-09: translations.pt: language not in the list (en, nl, da, it, de, es, fr)",
    ),
    (
        "empty text",
        lambda d: d.update(text="   "),
        "fh-errata-09: text: Value error, text is empty",
    ),
    ("unknown field", lambda d: d.update(colour="red"), "fh-errata-09: colour: unknown field"),
    (
        "one-way link",
        lambda d: d.update(related=["gh-da-1"]),
        "fh-errata-09: related: 'gh-da-1' does not link back",
    ),
    (
        "asks language",
        lambda d: d["asks"].update(pt=["O item 225 é de uma mão?"]),
        "fh-errata-09: asks.pt: language not in the list (en, nl, da, it, de, es, fr)",
    ),
    (
        "empty ask",
        lambda d: d["asks"]["en"].insert(1, "  "),
        "fh-errata-09: asks.en[1]: key is empty",
    ),
    (
        "duplicate ask",
        lambda d: d["asks"]["en"].append(" " + d["asks"]["en"][0].upper()),
        f"fh-errata-09: asks.en[{N_EN_ASKS}]: duplicate of asks.en[0]",
    ),
    (
        "long ask",
        lambda d: d["asks"]["de"].append("Gegenstand 225? " * 13),
        f"fh-errata-09: asks.de[{N_DE_ASKS}]: key is 208 characters long (at most 200)",
    ),
    (
        "ask not a string",
        lambda d: d["asks"]["nl"].insert(0, ["nested"]),
        "fh-errata-09: asks.nl[0]: Input should be a valid string",
    ),
]


@pytest.mark.parametrize("what, change, message", BROKEN, ids=[b[0] for b in BROKEN])
def test_lint_names_file_record_and_field(runner, small_archive, what, change, message):
    _edit(small_archive, "fh-errata-09", change)
    result = runner.invoke(cli, ["--archive", str(small_archive), "lint"])
    assert result.exit_code == 1
    assert f"rulings/records/fh-errata-09.yaml: {message}" in result.output


def test_lint_reports_duplicate_ids(runner, small_archive):
    shutil.copy(
        small_archive / "records" / "fh-errata-09.yaml", small_archive / "records" / "copy.yaml"
    )
    result = runner.invoke(cli, ["--archive", str(small_archive), "lint"])
    assert result.exit_code == 1
    assert (
        "rulings/records/fh-errata-09.yaml: fh-errata-09: id: duplicate id (also in rulings/records/copy.yaml)"
    ) in result.output


def test_lint_reports_malformed_yaml(runner, small_archive):
    (small_archive / "records" / "gh-da-1.yaml").write_text(
        "id: gh-da-1\ntext: [unclosed\n", encoding="utf-8"
    )
    result = runner.invoke(cli, ["--archive", str(small_archive), "lint"])
    assert result.exit_code == 1
    assert "rulings/records/gh-da-1.yaml: malformed YAML (line 3, column 1)" in result.output


def test_lint_strict_fails_on_a_missing_translation(runner, small_archive):
    _edit(small_archive, "gh-da-1", lambda d: d["translations"].pop("fr"))
    assert runner.invoke(cli, ["--archive", str(small_archive), "lint"]).exit_code == 0
    result = runner.invoke(cli, ["--archive", str(small_archive), "lint", "--strict"])
    assert result.exit_code == 1
    assert "gh-da-1: translations: none yet for fr" in result.output


def test_lint_strict_fails_on_a_language_without_search_keys(runner, small_archive):
    _edit(small_archive, "gh-da-1", lambda d: d["asks"].pop("fr"))
    _edit(small_archive, "fh-errata-09", lambda d: d["asks"].update(es=[]))
    assert runner.invoke(cli, ["--archive", str(small_archive), "lint"]).exit_code == 0
    result = runner.invoke(cli, ["--archive", str(small_archive), "lint", "--strict"])
    assert result.exit_code == 1
    assert "rulings/records/gh-da-1.yaml: gh-da-1: asks: no search keys yet for fr" in result.output
    assert (
        "rulings/records/fh-errata-09.yaml: fh-errata-09: asks: no search keys yet for es"
        in result.output
    )


def test_search_keys_survive_a_write(small_archive):
    """record_to_yaml keeps asks: what is written loads back the same."""
    from indexer.archive.write import write_record

    archive = load_archive(small_archive)
    rec = archive.records["fh-errata-09"]
    assert rec.asks["en"], "fh-errata-09 has English search keys"
    write_record(rec, small_archive)
    assert load_archive(small_archive).records["fh-errata-09"].asks == rec.asks


# -- the importer -----------------------------------------------------------------------------
def test_importing_the_seeds_reproduces_the_archive(archive):
    """Every parsed record matches an archive record's original text and citation exactly."""
    by_text = {rec.text: rec for rec in archive.records.values()}
    parsed = [
        rec for path in sorted(SOURCES.glob("*.txt")) for rec in parse_file(path, archive).records
    ]
    assert len(parsed) == 70
    for rec in parsed:
        kept = by_text[rec.text]
        assert (kept.game, kept.kind, kept.lang, kept.title, kept.context_label, kept.context) == (
            rec.game,
            rec.kind,
            rec.lang,
            rec.title,
            rec.context_label,
            rec.context,
        ), kept.id
        assert kept.citation == rec.citation, kept.id
        if kept.kind != "example":
            assert kept.id == rec.id


@pytest.mark.parametrize(
    "ref, pages",
    [
        ("(p. 38)", ["38"]),
        ("(pp. 18, 20, 34)", ["18", "20", "34"]),
        ("(p. 25–27)", ["25-27"]),
        ("(pag. 31)", ["31"]),
        ("(pagg. 21, 13–14)", ["21", "13-14"]),
        ("(side 28)", ["28"]),
        ("(side 29–30)", ["29-30"]),
        ("(S. 12)", ["12"]),
        ("(S. 12–13)", ["12-13"]),
        ("(pág. 5)", ["5"]),
        ("(págs. 5, 7)", ["5", "7"]),
    ],
)
def test_page_reference_styles(ref, pages):
    assert page_refs(f"Some rule text {ref}.")[0] == pages


def test_normalise_pages_keeps_pages_as_printed():
    assert normalise_pages("13 – 14, 21") == ["13-14", "21"]


@pytest.mark.parametrize(
    "lang, text",
    [
        (
            "de",
            "Ein Schild verringert jeden Schaden eines Angriffs um seinen Wert, bevor Ward angewendet wird (S. 12–13).",
        ),
        (
            "es",
            "El Escudo reduce el daño de cada ataque en su valor antes de aplicar Ward (págs. 5, 7).",
        ),
        (
            "fr",
            "Le Bouclier réduit les dégâts de chaque attaque de sa valeur avant d'appliquer Ward (p. 5).",
        ),
    ],
)
def test_import_rulebook_files_in_other_languages(runner, small_archive, tmp_path, lang, text):
    source = tmp_path / f"excerpt-{lang}.txt"
    source.write_text(
        f"Frosthaven\n\n{text}\n\nA paragraph without any page reference.\n", encoding="utf-8"
    )
    result = runner.invoke(cli, ["--archive", str(small_archive), "import", str(source), "--json"])
    assert result.exit_code == 0, result.output
    assert f"fh-{lang}-1" in result.output
    assert "no page reference found, paragraph skipped" in result.output
    archive = load_archive(small_archive)
    rec = archive.records[f"fh-{lang}-1"]
    assert (rec.lang, rec.text) == (lang, text)
    assert runner.invoke(cli, ["--archive", str(small_archive), "lint"]).exit_code == 0


def test_import_never_overwrites(small_archive, tmp_path):
    archive = load_archive(small_archive)
    seed = SOURCES / "000_22aaad1f1f2e8cce.txt"
    report = import_files([seed], archive)
    # fh-nl-1 is already there (same text): kept; the rest are new.
    assert "fh-nl-1" in report.unchanged and "fh-nl-2" in report.written
    changed = tmp_path / "changed.txt"
    changed.write_text(
        "Frosthaven\n\nEen andere tekst voor dezelfde regel (p. 18).\n", encoding="utf-8"
    )
    report = import_files([changed], load_archive(small_archive), lang="nl")
    assert report.written == ["fh-nl-7"]
    assert (
        "changed.txt: id fh-nl-1 is taken by a different record; imported as fh-nl-7"
        in report.skipped
    )
    original = (REPO / "rulings" / "records" / "fh-nl-1.yaml").read_text(encoding="utf-8")
    assert (small_archive / "records" / "fh-nl-1.yaml").read_text(encoding="utf-8") == original


def test_import_of_an_unknown_game_is_one_clear_line(runner, small_archive, tmp_path):
    source = tmp_path / "x.txt"
    source.write_text("Monopoly\n\nPass Go, collect 200 (p. 3).\n", encoding="utf-8")
    result = runner.invoke(cli, ["--archive", str(small_archive), "import", str(source)])
    assert result.exit_code == 1
    assert (
        result.output.strip()
        .splitlines()[-1]
        .startswith("Error: x.txt: first line 'Monopoly' is not a known game")
    )


def test_check_archive_returns_problems_not_exceptions(small_archive):
    (small_archive / "games.yaml").write_text("games: [{id: x}]\n", encoding="utf-8")
    archive, problems, _ = check_archive(small_archive)
    assert archive is None and any("games.yaml: field games.0.name: missing" in p for p in problems)
