"""Faster code paths of the start: each must give exactly what the code it replaced gave."""

from __future__ import annotations

import hashlib
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.search.passages import passage_prefix, record_hash, record_passages


def _fold_before(text: str) -> str:
    """`fold` as it was written first: the reference the faster one must equal."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    quotes = str.maketrans("\u201c\u201d\u201e\u00ab\u00bb\u2018\u2019", '"""""\'\'')
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).translate(quotes)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_fold_equals_the_reference(text):
    from indexer.text import fold

    assert fold(text) == _fold_before(text)


def test_fold_equals_the_reference_on_every_character_and_the_archive(archive):
    from indexer.search.passages import passage_text
    from indexer.text import fold

    marks = "".join(chr(c) for c in range(0x300, 0x370))
    samples = [chr(c) for c in range(0x3000)] + ["e" + marks + "x\u201c\u0903", "Ægir “Ölé” ﬁ"]
    for rec in archive.records.values():
        samples += [passage_text(rec, lang) for lang in rec.languages()]
        samples += [key for keys in rec.asks.values() for key in keys]
    assert [fold(s) for s in samples] == [_fold_before(s) for s in samples]


def test_record_hash_is_the_hash_of_its_passages(archive):
    for rec in archive.records.values():
        h = hashlib.sha256()
        for passage, text in record_passages(rec):
            h.update(
                f"\x1e{passage.lang}\x1d{passage.kind}\x1f{passage_prefix(passage)}{text}".encode()
            )
        assert record_hash(rec) == h.hexdigest()[:16], rec.id


def test_record_files_are_those_glob_found(tmp_path):
    from indexer.archive.load import _record_files

    for name in ("b.yaml", "a.yaml", ".yaml", ".hidden.yaml", "C.YAML", "x.yml", "a.yaml.tmp"):
        (tmp_path / name).write_text("x")
    (tmp_path / "dir.yaml").mkdir()
    assert _record_files(tmp_path) == [p.name for p in sorted(tmp_path.glob("*.yaml"))]
    assert _record_files(tmp_path / "missing") == []
