"""The ask path at scale: everything but the question's embedding, on synthetic archives.

    python -m bench.askpath [--sizes 1000,10000,100000] [--profile 100000] [--out FILE]

Each size is a generated archive (no model anywhere): rulings in the seven languages whose
texts, titles and search keys are drawn from the real archive's words in that language, card
names made of generated syllables (ability cards of a bounded pool of monsters and classes,
numbered items and buildings), an English translation (or, for English originals, one into
another language) and two search keys each: four passages per ruling. Vectors come from
``SyntheticEmbedder`` (384-d, a Gaussian mixture seeded by a hash of the text, as in
``bench.scale``), so FAISS does the work it would do on real vectors of that size.

Per size: the archive is written as YAML files and indexed (``build_index``) and loaded once
from YAML as ``rulings build`` loads it, filling the parsed-archive cache beside the index
(timed: the cold load); then the service's start is timed as it is after that build (load the
archive, its records from that cache; load the index; build the searcher: what the engine and
``open_searcher`` do, without a model), and beside it the cold start (the same with the cold
load: a start with no cache, or after every file changed); then questions (the real dev / own
question sets, and generated ones naming a card, a misspelt card or an item number) are asked
through ``Searcher.search`` and
the time spent in the embedder is subtracted from each: the non-model cost of an ask. The card
lookup (``CardLookup.match_folded``) is timed on its own too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.common import REPO, log, percentiles, rss_mb

DIM = 384
SIZES = (1_000, 10_000, 100_000)
TARGET_P50_MS = 5.0  # the target: everything but the embedding, p50 at 100k rulings
TARGET_START_S = 30.0  # the target: a service start with 100k rulings
TARGET_SIZE = 100_000
QUESTION_SETS = (REPO.parent / "shared" / "eval" / "dev.yaml", REPO / "bench" / "eval" / "own.yaml")
# Generated names: syllables of an onset, a vowel and a coda (about 2,600 of them), one to
# three per word, one to three words: "Brelor Thaxis", like invented fantasy names.
_ONSETS = (
    "b",
    "c",
    "d",
    "f",
    "g",
    "h",
    "j",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "w",
    "z",
    "br",
    "cr",
    "dr",
    "fr",
    "gr",
    "kr",
    "pr",
    "tr",
    "st",
    "sk",
    "sh",
    "th",
    "ch",
)
_VOWELS = ("a", "e", "i", "o", "u", "ae", "ei", "ou", "y")
_CODAS = ("", "n", "r", "l", "s", "th", "k", "m", "x", "rd")
_SYLLABLES = tuple(o + v + c for o in _ONSETS for v in _VOWELS for c in _CODAS)


class SyntheticEmbedder:
    """Deterministic 384-d unit vectors, no model: a Gaussian mixture (2,000 centres, spread
    0.05) with the centre and the noise drawn from a hash of the text."""

    name = "synthetic-384"
    backend = "synthetic"
    dimension = DIM

    def __init__(self, seed: int = 0):
        rng = np.random.default_rng(seed)
        centres = rng.standard_normal((2000, DIM), dtype=np.float32)
        self._centres = centres / np.linalg.norm(centres, axis=1, keepdims=True)
        self.seconds = 0.0  # time spent encoding: what the bench subtracts from an ask

    def encode(
        self, texts: list[str], *, batch_size: int = 32, show_progress: bool = False
    ) -> np.ndarray:
        """One vector per text."""
        started = time.perf_counter()
        out = np.empty((len(texts), DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
            rng = np.random.default_rng(seed)
            out[i] = self._centres[
                rng.integers(0, len(self._centres))
            ] + 0.05 * rng.standard_normal(DIM, dtype=np.float32)
        out /= np.linalg.norm(out, axis=1, keepdims=True)
        self.seconds += time.perf_counter() - started
        return out


def _name(rnd: random.Random, words: int) -> str:
    return " ".join(
        "".join(rnd.choice(_SYLLABLES) for _ in range(rnd.randint(1, 3))).title()
        for _ in range(words)
    )


def _vocabulary(real) -> dict[str, list[str]]:
    """The real archive's words per language (texts and search keys)."""
    from indexer.language import LANGUAGES
    from indexer.search.passages import passage_text

    out = {}
    for lang in LANGUAGES:
        words = set()
        for rec in real.records.values():
            text = passage_text(rec, lang) + " " + " ".join(rec.asks.get(lang, ()))
            words.update(w.strip(".,;:!?()\"'“”«»„") for w in text.split())
        out[lang] = sorted(w for w in words if len(w) > 2 and w.isalpha())
    return out


def synthetic_archive(n: int, seed: int = 0):
    """An Archive of `n` generated rulings with the real archive's games (see the module doc)."""
    from indexer.archive.load import load_archive
    from indexer.archive.schema import Archive, CardRef, Citation, Ruling, Translation
    from indexer.language import LANGUAGES

    real = load_archive()
    vocab = _vocabulary(real)
    rnd = random.Random(seed)
    monsters = sorted({_name(rnd, rnd.randint(1, 2)) for _ in range(300)})
    classes = sorted({_name(rnd, 1) for _ in range(60)})
    games = ("frosthaven", "gloomhaven")
    sentence = lambda lang, lo, hi: " ".join(
        rnd.choice(vocab[lang]) for _ in range(rnd.randint(lo, hi))
    )  # noqa: E731
    records = {}
    for i in range(n):
        game = games[0] if rnd.random() < 0.6 else games[1]
        lang = rnd.choice(LANGUAGES)
        cards = []
        for _ in range(rnd.choice((0, 1, 1, 2))):
            kind = rnd.random()
            if kind < 0.55:
                cards.append(
                    CardRef(
                        type="card",
                        name=_name(rnd, rnd.randint(1, 3)),
                        of=rnd.choice(monsters if rnd.random() < 0.5 else classes),
                    )
                )
            elif kind < 0.8:
                cards.append(
                    CardRef(type=rnd.choice(("item", "building")), name=str(rnd.randint(1, 2000)))
                )
            elif kind < 0.9:
                cards.append(CardRef(type="monster", name=rnd.choice(monsters)))
            else:
                cards.append(CardRef(type="class", name=rnd.choice(classes)))
        other = "en" if lang != "en" else rnd.choice(LANGUAGES[1:])
        keys = list(dict.fromkeys(sentence(lang, 6, 12) + "?" for _ in range(2)))
        rid = f"{'fh' if game == 'frosthaven' else 'gh'}-synth-{i:06d}"
        records[rid] = Ruling(
            id=rid,
            game=game,
            kind=rnd.choice(("rulebook", "erratum", "clarification", "edge case")),
            lang=lang,
            title=sentence(lang, 4, 8),
            text=sentence(lang, 25, 60) + ".",
            citation=Citation(source="synthetic"),
            cards=cards,
            translations={
                other: Translation(title=sentence(other, 4, 8), text=sentence(other, 25, 60) + ".")
            },
            asks={lang: keys},
        )
    return Archive(real.root, records, real.games, real.other_games)


def write_archive(archive, root: Path) -> None:
    """The archive as the service reads it: games.yaml and one YAML file per record."""
    import shutil

    import yaml

    (root / "records").mkdir(parents=True)
    shutil.copy(archive.root / "games.yaml", root / "games.yaml")
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    for rid, rec in archive.records.items():
        (root / "records" / f"{rid}.yaml").write_text(
            yaml.dump(
                rec.model_dump(mode="json", exclude_defaults=True),
                Dumper=dumper,
                allow_unicode=True,
                sort_keys=False,
            ),
            encoding="utf-8",
        )


def questions(archive, count: int, seed: int = 1) -> list[str]:
    """Real questions (dev and own sets) and generated ones naming a card (some misspelt) or
    an item; `count` in all."""
    from indexer.search.evaluate import load_questions

    real = [q.q for path in QUESTION_SETS if path.exists() for q in load_questions(path)]
    rnd = random.Random(seed)
    named = [(c.type, c.name) for r in archive.records.values() for c in r.cards]
    made = []
    while len(made) < count // 3:
        kind, name = rnd.choice(named)
        if kind in ("item", "building"):
            made.append(f"does {kind} {name} stack with itself?")
        else:
            if rnd.random() < 0.5:  # one letter dropped: a typo the lookup forgives
                pos = rnd.randrange(len(name))
                name = name[:pos] + name[pos + 1 :]
            made.append(f"how does {name} work when I am adjacent?")
    pool = made + real
    rnd.shuffle(pool)
    return (pool * (count // len(pool) + 1))[:count]


def measure(n: int, n_questions: int, workdir: Path) -> dict:
    """Start time, RSS and non-model ask figures for one size."""
    from indexer.archive.load import load_archive
    from indexer.archive.record_cache import archive_cache_path
    from indexer.search.index import build_index, load_index
    from indexer.search.searcher import Searcher
    from indexer.text import fold

    row: dict = {"rulings": n}
    t = time.perf_counter()
    archive = synthetic_archive(n, seed=n)
    root = workdir / f"archive-{n}"
    write_archive(archive, root)
    row["generate_s"] = round(time.perf_counter() - t, 1)
    embedder = SyntheticEmbedder()
    t = time.perf_counter()
    index_dir = workdir / f"index-{n}"
    index, stats = build_index(archive, embedder, index_dir, show_progress=False)
    row["build_s"] = round(time.perf_counter() - t, 1)
    row["passages"] = stats["passages"]
    row["index_type"] = index.manifest["index_type"]
    del index, archive
    # `rulings build` loads the archive from YAML (no cache yet), writing the cache it leaves.
    cache = archive_cache_path(index_dir)
    t = time.perf_counter()
    load_archive(root, cache=cache)
    archive_cold = time.perf_counter() - t
    row["archive_cache_mb"] = round(cache.stat().st_size / 2**20, 1)
    log(
        f"askpath {n}: generated in {row['generate_s']} s, indexed {row['passages']} passages "
        f"({row['index_type']}) in {row['build_s']} s, archive loaded from YAML in {archive_cold:.1f} s"
    )

    # The start: what the service does before its first answer after `rulings build`, but the model.
    rss0 = rss_mb()
    t0 = time.perf_counter()
    archive = load_archive(root, cache=cache)
    t1 = time.perf_counter()
    index = load_index(index_dir, archive, embedder.name, backend=embedder.backend)
    t2 = time.perf_counter()
    searcher = Searcher(archive, index, embedder)
    t3 = time.perf_counter()
    row["start_s"] = {
        "archive": round(t1 - t0, 2),
        "index": round(t2 - t1, 2),
        "searcher": round(t3 - t2, 2),
        "total": round(t3 - t0, 2),
        # The same start with the archive parsed from YAML (no usable cache).
        "archive_cold": round(archive_cold, 2),
        "total_cold": round(archive_cold + t3 - t1, 2),
    }
    row["rss_mb"] = {"before_start": rss0, "after_start": rss_mb()}

    asked = questions(archive, n_questions, seed=n)
    for q in asked[:10]:  # warm-up: first calls compile patterns, fill caches
        searcher.search(q)
    ask_ms, card_ms, model_ms = [], [], []
    for q in asked:
        embedder.seconds = 0.0
        t = time.perf_counter()
        searcher.search(q)
        total = time.perf_counter() - t
        ask_ms.append((total - embedder.seconds) * 1000)
        model_ms.append(embedder.seconds * 1000)
        folded = fold(q.strip())
        t = time.perf_counter()
        searcher.cards.match_folded(folded)
        card_ms.append((time.perf_counter() - t) * 1000)
    row["questions"] = len(asked)
    row["non_model_ask_ms"] = percentiles(ask_ms)
    row["card_lookup_ms"] = percentiles(card_ms)
    row["synthetic_embedding_ms"] = percentiles(model_ms)
    row["rss_mb"]["after_asks"] = rss_mb()
    log(
        f"askpath {n}: start {row['start_s']['total']} s (cold {row['start_s']['total_cold']} s), non-model ask p50 "
        f"{row['non_model_ask_ms']['p50']} ms p99 {row['non_model_ask_ms']['p99']} ms, card lookup "
        f"p50 {row['card_lookup_ms']['p50']} ms"
    )
    return row


def run_askpath(sizes=SIZES, questions_per_size: dict[int, int] | None = None) -> dict:
    """Every size's figures, beside the targets."""
    per = questions_per_size or {}
    with tempfile.TemporaryDirectory(prefix="rulings-askpath-") as tmp:
        rows = [measure(n, per.get(n, 300 if n < 100_000 else 200), Path(tmp)) for n in sizes]
    return _with_targets(rows)


def run_askpath_apart(sizes=SIZES) -> dict:
    """`run_askpath`, each size in a fresh process (``python -m bench.askpath --sizes N``), as
    a service starts: not in the bench's own, which by then holds the torch model and every
    earlier section's objects (its garbage collector walks them all through a start's
    allocations)."""
    import subprocess

    rows = []
    with tempfile.TemporaryDirectory(prefix="rulings-askpath-") as tmp:
        for n in sizes:
            result = Path(tmp) / f"askpath-{n}.json"
            # Its progress lines go to this run's stderr, as the in-process sections' do.
            done = subprocess.run(
                [sys.executable, "-m", "bench.askpath", "--sizes", str(n), "--out", str(result)],
                cwd=REPO,
                stdout=subprocess.DEVNULL,
            )
            if done.returncode != 0:
                raise RuntimeError(
                    f"bench.askpath --sizes {n} exited {done.returncode} (its output is above)"
                )
            rows += json.loads(result.read_text())["rows"]
    return _with_targets(rows, fresh_process_per_size=True)


def _with_targets(rows: list[dict], **about) -> dict:
    """The sizes' rows beside the targets, and whether the 100k row meets them."""
    out = {
        "target_non_model_p50_ms": TARGET_P50_MS,
        "target_start_s": TARGET_START_S,
        "passages_per_ruling": 4,
        **about,
        "rows": rows,
    }
    big = [r for r in rows if r["rulings"] == TARGET_SIZE]
    if big:
        out["target_p50_met"] = big[0]["non_model_ask_ms"]["p50"] <= TARGET_P50_MS
        out["target_start_met"] = big[0]["start_s"]["total"] <= TARGET_START_S
        out["target_start_cold_met"] = big[0]["start_s"]["total_cold"] <= TARGET_START_S
    return out


def render(a: dict) -> list[str]:
    """The report's section."""
    out = [
        "## Ask path at scale (synthetic archives, no model)",
        "",
        f"Generated rulings in seven languages ({a['passages_per_ruling']} passages each: original, "
        "one translation, two search keys; generated card names), synthetic 384-d vectors. "
        "Non-model ask = `Searcher.search` minus the time inside the embedder (question analysis, "
        "BM25 over texts and keys, FAISS, card lookup, reranker, collapse, decision). Start = the "
        "service's start after `rulings build` (no model): load the archive (each YAML file read "
        "and hashed; its records from the parsed-archive cache the build left beside the index) "
        "+ load the index + build the searcher. Cold start = the same with the archive parsed and "
        "validated from YAML (the build's own load, writing that cache; a start with no cache or "
        "after every file changed). "
        + (
            "Each size is measured in a fresh process, as a service starts."
            if a.get("fresh_process_per_size")
            else "Every size is measured in one process."
        ),
        "",
        "| rulings | passages | index | non-model ask p50 ms | p99 ms | card lookup p50 ms | "
        "start s (archive / index / searcher) | cold start s (archive from YAML) | "
        "RSS after start MiB |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in a["rows"]:
        s = r["start_s"]
        out.append(
            f"| {r['rulings']:,} | {r['passages']:,} | {r['index_type']} | "
            f"{r['non_model_ask_ms']['p50']} | {r['non_model_ask_ms']['p99']} | "
            f"{r['card_lookup_ms']['p50']} | {s['total']} ({s['archive']} / {s['index']} / "
            f"{s['searcher']}) | {s['total_cold']} ({s['archive_cold']}) | "
            f"{r['rss_mb']['after_start']} |"
        )
    if "target_p50_met" in a:
        big = next(r for r in a["rows"] if r["rulings"] == TARGET_SIZE)
        out += [
            "",
            f"Targets at {big['rulings']:,} rulings: non-model ask p50 <= {a['target_non_model_p50_ms']} ms: "
            f"{big['non_model_ask_ms']['p50']} ms, **{'met' if a['target_p50_met'] else 'missed'}**; "
            f"start < {a['target_start_s']:.0f} s: {big['start_s']['total']} s, "
            f"**{'met' if a['target_start_met'] else 'missed'}** (cold, the archive parsed from "
            f"YAML: {big['start_s']['total_cold']} s, "
            f"{'met' if a['target_start_cold_met'] else 'missed'}).",
        ]
    out.append("")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    parser.add_argument("--questions", type=int, default=0, help="questions per size (0: default)")
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        help="profile the asks at this size with pyinstrument instead",
    )
    parser.add_argument("--out", type=Path, help="write the figures (JSON) to this file instead")
    args = parser.parse_args(argv)
    sizes = tuple(int(s) for s in args.sizes.split(","))
    if args.profile:
        return profile(args.profile, args.questions or 200)
    result = run_askpath(sizes, {n: args.questions for n in sizes} if args.questions else None)
    if args.out:
        from indexer.files import write_atomic

        write_atomic(args.out, json.dumps(result, indent=1).encode())
        return 0
    print(json.dumps(result, indent=1))
    print("\n".join(render(result)))
    return 0


def profile(n: int, n_questions: int) -> int:
    """pyinstrument's view of the asks (and of the start) at one size, printed as text."""
    from pyinstrument import Profiler

    from indexer.search.index import build_index
    from indexer.search.searcher import Searcher

    archive = synthetic_archive(n, seed=n)
    embedder = SyntheticEmbedder()
    with tempfile.TemporaryDirectory(prefix="rulings-askpath-") as tmp:
        index, _ = build_index(archive, embedder, Path(tmp) / "index", show_progress=False)
        start = Profiler()
        start.start()
        searcher = Searcher(archive, index, embedder)
        start.stop()
        print(start.output_text(unicode=True, show_all=False))
        asked = questions(archive, n_questions, seed=n)
        for q in asked[:10]:
            searcher.search(q)
        prof = Profiler(interval=0.0002)
        prof.start()
        for q in asked:
            searcher.search(q)
        prof.stop()
        print(prof.output_text(unicode=True, show_all=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
