"""A damaged, mismatched or stale index is refused with a clear message; an interrupted build
leaves the previous index intact; an update re-embeds only what changed.

Small indexes of a 4-record copy of the archive keep this quick (the model is the session's).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from indexer.search.index import CorruptIndexError, StaleIndexError, build_index, load_index
from tests.conftest import REPO

pytestmark = pytest.mark.slow

N_RECORDS = 4


def _standalone(rec) -> bool:
    """A record that links to no other record (so a small copy of the archive still lints)."""
    return (
        not rec.related
        and not any(a.record for a in rec.amends)
        and not any(tr.edition_of for tr in rec.translations.values())
    )


def copy_archive(archive, dest: Path) -> Path:
    ids = [rid for rid, rec in archive.records.items() if _standalone(rec)][:N_RECORDS]
    assert len(ids) == N_RECORDS
    (dest / "records").mkdir(parents=True)
    shutil.copy(REPO / "rulings" / "games.yaml", dest / "games.yaml")
    for rid in ids:
        shutil.copy(REPO / "rulings" / "records" / f"{rid}.yaml", dest / "records" / f"{rid}.yaml")
    return dest


def edit_record(root: Path, suffix: str = " (edited)") -> str:
    """Append to the text of the first record; returns its id."""
    import yaml

    path = sorted((root / "records").glob("*.yaml"))[0]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["text"] = data["text"] + suffix
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return data["id"]


@pytest.fixture(scope="module")
def small(tmp_path_factory, archive, embedder):
    """(archive folder, built index folder) of the small archive, built once for the module."""
    from indexer.archive.load import load_archive

    root = copy_archive(archive, tmp_path_factory.mktemp("small") / "rulings")
    index = tmp_path_factory.mktemp("small-index") / "index"
    build_index(load_archive(root), embedder, index, show_progress=False)
    return root, index


@pytest.fixture()
def index_copy(small, tmp_path) -> Path:
    dest = tmp_path / "index"
    shutil.copytree(small[1], dest)
    return dest


def snapshot(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def reseal(folder: Path, name: str) -> None:
    """Update the manifest checksum of `name` so only the deeper consistency checks can catch it."""
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"][name] = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))


def refused_by_service(small, index: Path, error: type, fragment: str) -> None:
    from service.http.app import create_app

    with pytest.raises(error) as info:
        create_app(
            {
                "TESTING": True,
                "ARCHIVE_DIR": str(small[0]),
                "INDEX_DIR": str(index),
                "EAGER_LOAD": True,
            }
        )
    assert fragment in str(info.value)
    assert "rulings build" in str(info.value)


def test_intact_index_loads(small, index_copy, embedder):
    from indexer.archive.load import load_archive

    idx = load_index(index_copy, load_archive(small[0]), embedder.name)
    assert idx.faiss_index.ntotal == len(idx.passages) == len(idx.vectors) > N_RECORDS


# -- corruption ---------------------------------------------------------------------------
def test_truncated_faiss_file(small, index_copy):
    faiss_file = index_copy / "index.faiss"
    faiss_file.write_bytes(faiss_file.read_bytes()[:100])
    with pytest.raises(CorruptIndexError, match=r"index\.faiss does not match its checksum"):
        load_index(index_copy)
    refused_by_service(
        small, index_copy, CorruptIndexError, "index.faiss does not match its checksum"
    )


def test_truncated_faiss_file_with_matching_checksum(small, index_copy):
    faiss_file = index_copy / "index.faiss"
    faiss_file.write_bytes(faiss_file.read_bytes()[:100])
    reseal(index_copy, "index.faiss")
    with pytest.raises(CorruptIndexError, match="is corrupt"):
        load_index(index_copy)
    refused_by_service(small, index_copy, CorruptIndexError, "is corrupt")


def test_missing_file(small, index_copy):
    (index_copy / "vectors.npy").unlink()
    with pytest.raises(CorruptIndexError, match="vectors.npy is missing"):
        load_index(index_copy)
    refused_by_service(small, index_copy, CorruptIndexError, "vectors.npy is missing")


def test_vectors_do_not_match_passages(small, index_copy):
    vectors = np.load(index_copy / "vectors.npy")
    np.save(index_copy / "vectors.npy", vectors[:-1])
    with pytest.raises(CorruptIndexError, match="vectors.npy does not match its checksum"):
        load_index(index_copy)
    reseal(index_copy, "vectors.npy")
    with pytest.raises(CorruptIndexError, match=r"\d+ vectors of dimension \d+ for \d+ passages"):
        load_index(index_copy)
    refused_by_service(small, index_copy, CorruptIndexError, "passages")


def test_passages_do_not_match_vectors(small, index_copy):
    rows = json.loads((index_copy / "passages.json").read_text())
    (index_copy / "passages.json").write_text(json.dumps(rows[:-2]))
    reseal(index_copy, "passages.json")
    with pytest.raises(CorruptIndexError, match=r"for \d+ passages"):
        load_index(index_copy)
    refused_by_service(small, index_copy, CorruptIndexError, "passages")


def test_passages_not_json(small, index_copy):
    (index_copy / "passages.json").write_text('[{"record": ')
    reseal(index_copy, "passages.json")
    with pytest.raises(CorruptIndexError, match="is corrupt"):
        load_index(index_copy)


@pytest.mark.parametrize(
    "edit, fragment",
    [
        (lambda m: m.update(passages=m["passages"] + 1), "passages"),
        (lambda m: m.update(dimension=m["dimension"] * 2), "dimension"),
        (
            lambda m: m["files"].update({"index.faiss": "0" * 64}),
            "index.faiss does not match its checksum",
        ),
        (lambda m: m.update(format=99), "has format 99"),
        (lambda m: m.pop("files"), "is corrupt"),
    ],
)
def test_edited_manifest(small, index_copy, edit, fragment):
    manifest = json.loads((index_copy / "manifest.json").read_text())
    edit(manifest)
    (index_copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(CorruptIndexError) as info:
        load_index(index_copy)
    assert fragment in str(info.value)
    refused_by_service(small, index_copy, CorruptIndexError, fragment)


def test_manifest_not_json(small, index_copy):
    (index_copy / "manifest.json").write_text("{not json")
    with pytest.raises(CorruptIndexError, match="is corrupt"):
        load_index(index_copy)
    refused_by_service(small, index_copy, CorruptIndexError, "is corrupt")


# -- staleness ----------------------------------------------------------------------------
def test_stale_index_after_archive_edit(small, index_copy, tmp_path, embedder):
    from indexer.archive.load import load_archive

    root = tmp_path / "rulings"
    shutil.copytree(small[0], root)
    edit_record(root)
    with pytest.raises(StaleIndexError, match="the archive changed since it was built"):
        load_index(index_copy, load_archive(root), embedder.name)
    refused_by_service((root, index_copy), index_copy, StaleIndexError, "archive changed")
    # The unedited archive still accepts it.
    load_index(index_copy, load_archive(small[0]), embedder.name)


def test_stale_index_other_model(small, index_copy):
    with pytest.raises(StaleIndexError, match="built with model"):
        load_index(index_copy, model_name="some-other-model")


# -- interrupted builds -------------------------------------------------------------------
class Boom(Exception):
    pass


def test_build_failing_after_embedding_keeps_previous(small, index_copy, tmp_path, embedder):
    from indexer.archive.load import load_archive

    root = tmp_path / "rulings"
    shutil.copytree(small[0], root)
    edit_record(root)
    before = snapshot(index_copy)

    def fail():
        raise Boom("killed part-way")

    with pytest.raises(Boom):
        build_index(load_archive(root), embedder, index_copy, show_progress=False, after_embed=fail)
    assert snapshot(index_copy) == before
    load_index(index_copy, load_archive(small[0]), embedder.name)  # the previous index, intact
    assert not [p for p in index_copy.parent.iterdir() if p.name.startswith(".index.")], (
        "a build left a temporary folder behind"
    )


def test_build_killed_with_sigkill_keeps_previous(small, index_copy, tmp_path, embedder):
    """A real `rulings build` killed with SIGKILL while it embeds: the old index stays."""
    from indexer.archive.load import load_archive

    root = tmp_path / "rulings"
    shutil.copytree(small[0], root)
    edit_record(root)
    before = snapshot(index_copy)
    env = dict(
        os.environ,
        TOKENIZERS_PARALLELISM="false",
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "--archive",
            str(root),
            "--index",
            str(index_copy),
            "build",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    seen = threading.Event()
    captured = bytearray()

    def watch():
        # The progress bar ("Batches") appears on stderr as embedding starts.
        while True:
            chunk = proc.stderr.read1(256) if hasattr(proc.stderr, "read1") else proc.stderr.read(1)
            if not chunk:
                return
            captured.extend(chunk)
            if b"Batches" in captured:
                seen.set()

    threading.Thread(target=watch, daemon=True).start()
    killed_while_embedding = seen.wait(timeout=240)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert killed_while_embedding, f"the build never started embedding: {bytes(captured)[-1000:]!r}"
    assert proc.returncode == -signal.SIGKILL
    assert snapshot(index_copy) == before
    load_index(index_copy, load_archive(small[0]), embedder.name)
    # A later build completes and picks up the edit.
    _, stats = build_index(load_archive(root), embedder, index_copy, show_progress=False)
    assert stats["changed_records"] == 1
    load_index(index_copy, load_archive(root), embedder.name)


def test_backup_left_by_a_build_dying_between_renames_is_restored(small, index_copy, embedder):
    from indexer.archive.load import load_archive

    backup = index_copy.with_name(f".{index_copy.name}.old")
    os.replace(index_copy, backup)
    load_index(index_copy, load_archive(small[0]), embedder.name)
    assert index_copy.exists() and not backup.exists()


# -- incremental update -------------------------------------------------------------------
def test_update_reembeds_only_the_changed_record(small, index_copy, tmp_path, embedder):
    from indexer.archive.load import load_archive

    root = tmp_path / "rulings"
    shutil.copytree(small[0], root)
    old = load_index(index_copy)
    rid = edit_record(root)
    archive = load_archive(root)
    # Every passage of the changed record: its seven language versions and its search keys.
    from indexer.search.passages import record_passages

    n_changed = len(record_passages(archive.records[rid]))
    new, stats = build_index(archive, embedder, index_copy, show_progress=False)
    assert stats["changed_records"] == 1
    assert stats["embedded_passages"] == n_changed
    assert stats["reused_passages"] == stats["passages"] - n_changed
    # Other records keep their exact vectors; the edited (original-language) text has a new one.
    for i, p in enumerate(new.passages):
        j = old.passages.index(p)
        if p.record != rid:
            assert np.array_equal(new.vectors[i], old.vectors[j]), p
        elif p.lang == archive.records[rid].lang and p.kind == "text":
            assert not np.array_equal(new.vectors[i], old.vectors[j]), p
    load_index(index_copy, archive, embedder.name)
    # Building again with nothing changed embeds nothing.
    _, again = build_index(archive, embedder, index_copy, show_progress=False)
    assert again["embedded_passages"] == 0 and again["changed_records"] == 0
