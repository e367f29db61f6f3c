"""The parsed-archive cache: a load from it equals a load from YAML, and no change is missed."""

from __future__ import annotations

import os
import pickle
import shutil
import threading
from pathlib import Path

import pytest
import yaml

import indexer.archive.load as archive_module
from indexer.archive.load import check_archive, load_archive
from indexer.archive.record_cache import CACHE_FORMAT, archive_cache_path
from service.cli import cli
from tests.conftest import REPO


@pytest.fixture()
def root(tmp_path) -> Path:
    """A copy of the whole archive (games and every record)."""
    shutil.copytree(
        REPO / "rulings", tmp_path / "rulings", ignore=shutil.ignore_patterns("sources")
    )
    return tmp_path / "rulings"


@pytest.fixture()
def cache(tmp_path) -> Path:
    return tmp_path / "index.archive-cache"


@pytest.fixture()
def parsed(monkeypatch) -> list[str]:
    """The record files parsed and validated (not taken from the cache), by lint name."""
    seen: list[str] = []
    real = archive_module._record

    def counting(raw: bytes, rel: str):
        seen.append(Path(rel).name)
        return real(raw, rel)

    monkeypatch.setattr(archive_module, "_record", counting)
    return seen


def assert_same(a, b) -> None:
    """Equal archives: same records in the same order, field by field, and the same games."""
    assert list(a.records) == list(b.records)
    for rid, rec in a.records.items():
        other = b.records[rid]
        assert rec == other
        assert rec.model_dump() == other.model_dump()
        assert rec.model_fields_set == other.model_fields_set
    assert (a.root, a.games, a.other_games) == (b.root, b.games, b.other_games)
    assert a == b


def entries(cache: Path) -> dict:
    return pickle.loads(cache.read_bytes())["entries"]


def test_a_cached_load_equals_the_uncached_one(root, cache, parsed):
    uncached = load_archive(root)
    assert len(parsed) == len(uncached) and not cache.exists()
    parsed.clear()
    cold = load_archive(root, cache=cache)
    assert len(parsed) == len(uncached) and len(entries(cache)) == len(uncached)
    parsed.clear()
    warm = load_archive(root, cache=cache)
    assert parsed == []  # every record came from the cache
    assert_same(uncached, cold)
    assert_same(uncached, warm)
    assert check_archive(root, cache=cache)[1:] == check_archive(root)[1:]  # problems, warnings


def test_an_edited_file_is_seen_and_only_it_is_parsed(root, cache, parsed):
    load_archive(root, cache=cache)
    path = root / "records" / "fh-errata-09.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["text"] = data["text"] + " Edited."
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    parsed.clear()
    warm = load_archive(root, cache=cache)
    assert parsed == ["fh-errata-09.yaml"]
    assert warm.records["fh-errata-09"].text.endswith(" Edited.")
    assert_same(load_archive(root), warm)
    assert len(entries(cache)) == len(warm)  # the old version's entry is gone


def test_an_edit_keeping_size_and_mtime_is_seen(root, cache):
    """The key is the content: an edit that keeps the file's size and time is not missed."""
    load_archive(root, cache=cache)
    path = root / "records" / "fh-errata-09.yaml"
    stat = path.stat()
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    changed = text.replace(data["text"][:12], data["text"][:12].swapcase(), 1)
    assert changed != text and len(changed.encode()) == stat.st_size
    path.write_text(changed, encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert (
        load_archive(root, cache=cache).records["fh-errata-09"].text
        == yaml.safe_load(changed)["text"]
    )


def test_a_removed_file_is_gone_and_an_added_one_is_there(root, cache, parsed):
    load_archive(root, cache=cache)
    before = len(entries(cache))
    (root / "records" / "gh-da-1.yaml").unlink()
    (root / "records" / "fh-new-1.yaml").write_text(
        (root / "records" / "fh-errata-09.yaml")
        .read_text(encoding="utf-8")
        .replace("id: fh-errata-09", "id: fh-new-1"),
        encoding="utf-8",
    )
    parsed.clear()
    warm = load_archive(root, cache=cache)
    assert parsed == ["fh-new-1.yaml"]
    assert "gh-da-1" not in warm.records and "fh-new-1" in warm.records
    assert_same(load_archive(root), warm)
    assert len(entries(cache)) == before  # one entry dropped, one added


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: b"",  # empty
        lambda raw: raw[: len(raw) // 2],  # half written (as no write of ours is)
        lambda raw: b"not a pickle at all" + raw[:100],
        lambda raw: pickle.dumps(["a list"]),
        lambda raw: pickle.dumps({**pickle.loads(raw), "format": CACHE_FORMAT + 1}),
        lambda raw: pickle.dumps({**pickle.loads(raw), "fingerprint": "written by other code"}),
        # Right format, but the values are not records: not served.
        lambda raw: pickle.dumps(
            {**pickle.loads(raw), "entries": {k: {"id": "x"} for k in pickle.loads(raw)["entries"]}}
        ),
    ],
    ids=[
        "empty",
        "truncated",
        "garbage",
        "not-a-mapping",
        "other-format",
        "other-code",
        "not-records",
    ],
)
def test_a_corrupt_or_foreign_cache_is_ignored_and_rebuilt(root, cache, parsed, damage):
    load_archive(root, cache=cache)
    cache.write_bytes(damage(cache.read_bytes()))
    parsed.clear()
    archive = load_archive(root, cache=cache)
    assert len(parsed) == len(archive)  # all parsed again
    assert_same(load_archive(root), archive)
    parsed.clear()
    assert_same(archive, load_archive(root, cache=cache))
    assert parsed == []  # and the rewritten cache is whole again


def test_a_malformed_file_is_reported_as_without_the_cache_and_never_cached(root, cache):
    load_archive(root, cache=cache)
    (root / "records" / "fh-errata-09.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    (root / "records" / "gh-da-1.yaml").write_bytes(b"id: x\n\xff")
    uncached = check_archive(root)
    assert check_archive(root, cache=cache) == uncached
    assert check_archive(root, cache=cache) == uncached  # the same again, from the cache
    assert uncached[0] is None and any("malformed YAML" in p for p in uncached[1])
    assert any("cannot read" in p for p in uncached[1])
    assert len(entries(cache)) == len(list((root / "records").glob("*.yaml"))) - 2


def test_lint_writes_no_cache_and_says_what_it_said(root, tmp_path, runner):
    (root / "records" / "fh-errata-09.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    result = runner.invoke(
        cli, ["--archive", str(root), "--index", str(tmp_path / "index"), "lint"]
    )
    assert result.exit_code == 1
    assert "rulings/records/fh-errata-09.yaml: malformed YAML (line 2, column 1)" in result.output
    assert not list(tmp_path.glob("*.archive-cache"))


def test_loads_at_once_leave_a_whole_cache(root, cache, parsed):
    """Two workers reloading together: each writes its own temporary file and renames it."""
    errors: list[BaseException] = []

    def load() -> None:
        try:
            load_archive(root, cache=cache)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=load) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [p.name for p in cache.parent.iterdir() if p.name.startswith(".")] == []  # no temp file
    uncached = load_archive(root)
    parsed.clear()
    assert_same(uncached, load_archive(root, cache=cache))
    assert parsed == []


def test_a_cache_that_cannot_be_written_costs_only_time(root, cache, monkeypatch, caplog):
    import indexer.archive.record_cache

    def refuse(*args, **kwargs):
        raise PermissionError("read-only")

    monkeypatch.setattr(indexer.archive.record_cache, "write_atomic", refuse)
    assert_same(load_archive(root), load_archive(root, cache=cache))
    assert not cache.exists() and "not written" in caplog.text


def test_the_cache_file_is_readable_by_other_users(root, cache):
    """Written 0644: an image builds it as root and serves as another user."""
    load_archive(root, cache=cache)
    assert cache.stat().st_mode & 0o777 == 0o644


def test_build_fills_the_cache_the_service_starts_from(
    root, tmp_path, runner, monkeypatch, fake_embedder, parsed
):
    import indexer.model.embedder
    from service.engine import Engine, EngineConfig

    monkeypatch.setattr(indexer.model.embedder, "load_embedder", lambda *a, **k: fake_embedder)
    index = tmp_path / "index"
    built = runner.invoke(cli, ["--archive", str(root), "--index", str(index), "build", "--quiet"])
    assert built.exit_code == 0, built.output
    assert archive_cache_path(index) == tmp_path / "index.archive-cache"
    assert archive_cache_path(Path(".")).name == f"{Path.cwd().name}.archive-cache"
    assert archive_cache_path(Path("/")) == Path("/index.archive-cache")
    assert archive_cache_path(index).exists()
    parsed.clear()
    engine = Engine(EngineConfig(archive_dir=root, index_dir=index))
    assert parsed == []  # the start parsed no record
    assert_same(load_archive(root), engine.archive)
