"""The deciding sentence (`evidence`): offsets into the text the asker reads, and the share of
our labelled questions whose deciding sentence the model picks."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from service.evidence import SHORT_SENTENCE, EvidencePicker, sentence_spans

EVIDENCE_SET = Path(__file__).resolve().parents[1] / "data" / "evidence.yaml"


@pytest.mark.parametrize(
    ("text", "lang", "sentences"),
    [
        (
            "Du bliver udmattet. Se s. 38 for mere. Ja.",
            "da",
            ["Du bliver udmattet.", "Se s. 38 for mere.", "Ja."],
        ),
        ("Z. B. zählt ein Schild. Dann Ward.", "de", ["Z. B. zählt ein Schild.", "Dann Ward."]),
        ("One sentence only, no full stop", "en", ["One sentence only, no full stop"]),
        ("  Leading space. Trailing space.  ", "en", ["Leading space.", "Trailing space."]),
    ],
)
def test_sentences_are_split_by_each_languages_rules(text, lang, sentences):
    assert [text[a:b] for a, b in sentence_spans(text, lang)] == sentences


def test_a_pick_indexes_the_text_it_was_given(fake_embedder):
    picker = EvidencePicker(fake_embedder)
    text = "Yes. A summon cannot open doors. Monsters never open doors either."
    got = picker.pick("can monsters open doors?", text, "en")
    assert got["spans"] and all(text[s["start"] : s["end"]] in got["text"] for s in got["spans"])
    assert got["text"] == text[got["spans"][0]["start"] : got["spans"][-1]["end"]]
    if got["spans"][0]["start"] == 0:  # "Yes." is short: the sentence after it joins it
        assert len(got["spans"]) == 2 and len("Yes.") < SHORT_SENTENCE
    one = picker.pick("anything", "Just one.", "en")
    assert one == {"text": "Just one.", "spans": [{"start": 0, "end": 9}], "score": None}


def test_every_ruling_shown_carries_evidence_in_the_text_read_first(fast_client):
    answer = fast_client.get(
        "/v1/ask", query_string={"q": "Hvornår er jeg udmattet?", "lang": "da", "k": 3}
    ).get_json()
    assert answer["matches"]
    for match in answer["matches"]:
        evidence = match["evidence"]
        shown = match["translation"] if evidence["shown"] == "translation" else match
        assert evidence["lang"] == (shown["lang"])
        assert (evidence["shown"] == "translation") == (match["translation"] is not None)
        for span in evidence["spans"]:
            assert shown["text"][span["start"] : span["end"]] in evidence["text"]


def test_the_model_picks_the_deciding_sentence(embedder, archive):
    """Our 80 labelled questions (tests/data/evidence.yaml, seven languages): 52 of 80 (0.65)
    measured when this was built, against 27 (0.34) for always the first sentence."""
    items = yaml.safe_load(EVIDENCE_SET.read_text())
    picker = EvidencePicker(embedder)
    right = first = 0
    for item in items:
        rec = archive.records[item["ruling"]]
        text = rec.version(item["lang"])[0]
        got = picker.pick(item["q"], text, item["lang"])["text"]
        right += item["sentence"] in got
        start, end = sentence_spans(text, item["lang"])[0]
        first += item["sentence"] in text[start:end]
    assert len(items) >= 70
    assert right / len(items) >= 0.6 > first / len(items)


def test_the_sentences_built_beside_the_index_spare_the_ask_any_embedding(
    archive, fake_embedder, tmp_path
):
    from service.evidence import build_sentence_cache, sentence_cache_path

    path = sentence_cache_path(tmp_path / "index")
    first = build_sentence_cache(archive, fake_embedder, path)
    again = build_sentence_cache(archive, fake_embedder, path)
    assert first["sentences"] == again["sentences"] > 100
    assert first["embedded"] == first["sentences"] and again["embedded"] == 0  # reused

    class Counting:
        dimension, backend = fake_embedder.dimension, "fake"

        def __init__(self, name: str = fake_embedder.name):
            self.name, self.texts = name, []

        def encode(self, texts, **kwargs):
            self.texts += texts
            return fake_embedder.encode(texts, **kwargs)

    counting = Counting()
    picker = EvidencePicker(counting, path)  # type: ignore[arg-type]
    rec = archive.records["fh-edge-14"]
    text = rec.version("da")[0]
    got = picker.for_views("udmattet mastery", [{"translation": None, "lang": "da", "text": text}])
    assert got[0]["spans"] and not [t for t in counting.texts if t.startswith("passage: ")]
    # Another model's file is not used: its sentences are embedded on use.
    other = Counting("another-model")
    EvidencePicker(other, path).for_views("x", [{"translation": None, "lang": "da", "text": text}])  # type: ignore[arg-type]
    assert [t for t in other.texts if t.startswith("passage: ")]
