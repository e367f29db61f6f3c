"""The layout's promises: the catalogue needs no model or fresh index, one presentation, errors
that carry their status, models that validate and document the same thing, analysis once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from service.cli import cli
from tests.conftest import REPO


@pytest.fixture()
def stale_archive(tmp_path, fake_embedder):
    """A copy of the archive whose fh-clar-10 was edited after the index was built."""
    from indexer.archive.load import load_archive
    from indexer.search.index import build_index

    root = tmp_path / "rulings"
    shutil.copytree(REPO / "rulings", root)
    build_index(load_archive(root), fake_embedder, tmp_path / "index", show_progress=False)
    record = root / "records" / "fh-clar-10.yaml"
    record.write_text(
        record.read_text().replace(
            "Shield reduces the damage first", "Shield reduces the damage first (edited)"
        )
    )
    return root, tmp_path / "index"


def test_archive_commands_work_with_a_stale_index_and_no_model(runner, stale_archive, tmp_path):
    root, index = stale_archive
    base = ["--archive", str(root), "--index", str(index), "--model", str(tmp_path / "nowhere")]
    errata = runner.invoke(cli, [*base, "errata", "--json", "item 225"])
    assert errata.exit_code == 0, errata.output
    assert json.loads(errata.output)["results"][0]["id"] == "fh-errata-09"
    show = runner.invoke(cli, [*base, "show", "fh-clar-10"])
    assert show.exit_code == 0, show.output
    assert "(edited)" in show.output and "Source: Frosthaven FAQ · dwarf74" in show.output
    # A question needs the retriever: the model is missing, said in one line.
    asked = runner.invoke(cli, [*base, "ask", "Shield or Ward first?"])
    assert asked.exit_code == 1
    assert asked.output.startswith("Error: model folder") and len(asked.output.splitlines()) == 1


def test_a_stale_index_refuses_questions_in_one_line(runner, stale_archive):
    root, index = stale_archive
    from indexer.archive.load import load_archive
    from indexer.search.index import StaleIndexError, load_index
    from tests.fakes import FakeEmbedder

    with pytest.raises(StaleIndexError, match="is stale"):
        load_index(index, load_archive(root), FakeEmbedder.name)


def test_every_domain_error_carries_its_status_and_code():
    from checker import UnknownCheck
    from checker.base import CheckInputError
    from indexer.archive.load import ArchiveError
    from indexer.archive.sources.formats import SourceImportError
    from indexer.errors import InvalidRequest, NotFound, RulingsError
    from indexer.model.settings import ModelError
    from indexer.search.evaluate import EvalFileError
    from indexer.search.index import CorruptIndexError, MissingIndexError, StaleIndexError

    expected = {
        CheckInputError: 422,
        InvalidRequest: 422,
        EvalFileError: 422,
        SourceImportError: 422,
        NotFound: 404,
        UnknownCheck: 404,
        ArchiveError: 503,
        ModelError: 503,
        MissingIndexError: 503,
        CorruptIndexError: 503,
        StaleIndexError: 503,
    }
    for cls, status in expected.items():
        assert issubclass(cls, RulingsError), cls
        assert cls.status == status and cls.code, cls


def test_a_domain_error_reaches_http_with_its_own_status(fast_app, monkeypatch):
    from indexer.search.index import StaleIndexError

    engine = fast_app.extensions["rulings_engine"]

    def stale(*args, **kwargs):
        raise StaleIndexError("index at x is stale: the archive changed; run `rulings build`")

    monkeypatch.setattr(engine, "ask", stale)
    r = fast_app.test_client().get("/v1/ask?q=hello")
    assert r.status_code == 503 and r.get_json() == {
        "error": {
            "code": "index_unavailable",
            "message": "index at x is stale: the archive changed; run `rulings build`",
        }
    }


def test_405_names_the_allowed_methods(fast_client):
    r = fast_client.delete("/v1/ask")
    assert r.status_code == 405 and set(r.headers["Allow"].split(", ")) >= {"GET", "POST"}
    r = fast_client.get("/v1/check/damage")
    assert r.status_code == 405 and "POST" in r.headers["Allow"]


def test_one_citation_line_everywhere(fast_client, runner):
    """The page (server-rendered and JSON), the CLI and the bot show the same citation line."""
    from service.discord.embeds import ruling_embed

    ruling = fast_client.get("/v1/rulings/fh-it-1").get_json()
    label = ruling["citation"]["label"]
    assert label.endswith("pp. 18, 20, 34") and ruling["display_title"]
    assert label in fast_client.get("/r/fh-it-1").get_data(as_text=True)
    assert f"Source: {label}" in runner.invoke(cli, ["show", "fh-it-1"]).output
    fields = {f["name"]: f["value"] for f in ruling_embed(ruling)["fields"]}
    assert fields["Source"] == label


def test_the_page_script_builds_no_citation_of_its_own():
    static = REPO / "service" / "web" / "static"
    script = "".join((static / name).read_text() for name in ("app.js", "ruling.js"))
    assert "citation.label" in script and "display_title" in script
    assert "pp. " not in script and "p. ${" not in script


def test_question_is_analysed_once_per_ask(fake_engine, monkeypatch):
    from indexer.search.question import QuestionAnalyser

    calls = []
    real = QuestionAnalyser.analyse

    def counting(self, *args, **kwargs):
        calls.append(args)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(QuestionAnalyser, "analyse", counting)
    fake_engine.ask("Frosthaven: Shield before Ward?")
    assert len(calls) == 1


def test_question_analysis_reads_games_label_and_cards(fake_engine):
    q = fake_engine.searcher.analyse("Frosthaven: what does item 225 do in Gloomhaven?")
    assert q.games_named == {"frosthaven", "gloomhaven"} and q.game is None
    assert q.body == "what does item 225 do in Gloomhaven?"
    assert "fh-errata-09" in q.cards and q.other_game is None
    assert fake_engine.searcher.analyse("Root: can I rule the forest?").other_game == "root"


@pytest.mark.parametrize(
    "payload, accepted",
    [
        ({"game": "frosthaven", "attack": 31.0}, True),  # JSON Schema calls 31.0 an integer
        ({"game": "frosthaven", "attack": 31.5}, False),
        ({"game": "frosthaven", "attack": "31"}, False),
        ({"game": "frosthaven", "attack": True}, False),
    ],
)
def test_integers_are_json_integers(payload, accepted):
    from checker import run_check
    from checker.base import CheckInputError

    if accepted:
        assert run_check("damage", payload)["damage"] == 31
    else:
        with pytest.raises(CheckInputError, match="must be an integer"):
            run_check("damage", payload)


def test_the_openapi_document_comes_from_the_validating_models(fast_client):
    from checker import damage
    from service.http.models import AskBody

    doc = fast_client.get("/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    assert schemas["DamageRequest"]["properties"] == damage.REQUEST_SCHEMA["properties"]
    assert set(schemas["AskBody"]["properties"]) == set(AskBody.model_fields)
    game = next(p for p in doc["paths"]["/v1/ask"]["get"]["parameters"] if p["name"] == "game")
    assert {"", "frosthaven", "FH", "gloomhaven", "GH"} <= set(game["schema"]["enum"])


def test_every_ruling_a_check_cites_is_declared_by_it():
    from checker import CHECKS, check_module, check_rulings
    from indexer.archive.load import load_archive

    ids = set(load_archive(REPO / "rulings").records)
    for name in CHECKS:
        declared = check_rulings()[name]
        assert declared <= ids, name
        result = check_module(name).run(check_module(name).EXAMPLE)
        assert set(result["rulings"]) <= declared, name


def test_product_modules_stay_small():
    for folder in ("indexer", "service", "checker"):
        for path in (REPO / folder).rglob("*.py"):
            lines = len(path.read_text().splitlines())
            assert lines <= 450, f"{path.relative_to(REPO)} has {lines} lines"


PRODUCT = ("indexer", "service", "checker")


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for the product packages."""
    out = {}
    for folder in PRODUCT:
        for path in (REPO / folder).rglob("*.py"):
            name = ".".join(path.relative_to(REPO).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The product modules `name` imports (imports inside functions count)."""
    import ast

    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            targets = [
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                for a in node.names
            ]
        for target in targets:
            parts = target.split(".")
            for k in range(len(parts), 0, -1):  # the longest module the import names
                if ".".join(parts[:k]) in modules and ".".join(parts[:k]) != name:
                    found.add(".".join(parts[:k]))
                    break
    return found


def test_no_import_circles_in_the_product_packages():
    import graphlib

    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        pytest.fail(f"import circle: {' -> '.join(exc.args[1])}")


def test_functions_stay_short_and_folders_few():
    import ast

    long = []
    for path in _modules().values():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = node.end_lineno - node.lineno + 1
                if size > 80:
                    long.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name} ({size})")
    assert long == []
    for folder in PRODUCT:
        for root in [REPO / folder, *(p for p in (REPO / folder).rglob("*") if p.is_dir())]:
            modules = [p for p in root.glob("*.py") if p.name != "__init__.py"]
            assert len(modules) <= 12, f"{root.relative_to(REPO)} holds {len(modules)} modules"
