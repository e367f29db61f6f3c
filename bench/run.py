"""``make bench``: quality, latency and scale benchmarks -> bench/report.json + bench/report.md.

    python -m bench.run [--budget SECONDS] [--out DIR]
        [--sections quality,riskcoverage,backends,latency,http,asklog,documents,scale,monster,askpath]

Every figure stands beside a baseline measured in the same run. The whole run keeps to the
budget (default 27 min): the scale section gets what is left, and skips with a line what would
not fit.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from bench.common import REPO, load_average, log, machine, versions  # noqa: E402

OUT_DIR = REPO / "bench"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=27 * 60, help="seconds for the whole run")
    parser.add_argument(
        "--sections",
        default="quality,riskcoverage,backends,latency,http,asklog,documents,monster,askpath,scale",
    )
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    parser.add_argument(
        "--merge",
        action="store_true",
        help="keep the other sections of the report already in --out (their run's date "
        "stays; the sections run now are listed with theirs)",
    )
    parser.add_argument("--sizes", default="10000,100000,1000000", help="scale sizes (vectors)")
    parser.add_argument(
        "--askpath-sizes",
        default="1000,10000,100000",
        help="ask path at scale: synthetic archive sizes (rulings)",
    )
    parser.add_argument(
        "--http-requests", type=int, default=144, help="requests per concurrency level"
    )
    args = parser.parse_args(argv)
    sections = set(args.sections.split(","))
    started = time.monotonic()
    left = lambda: args.budget - (time.monotonic() - started)

    report: dict = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": machine(),
        "versions": versions(),
        "budget_s": args.budget,
    }
    from indexer.archive.load import load_archive
    from indexer.model.embedder import load_embedder, model_setting
    from indexer.search.index import build_index

    t = time.perf_counter()
    archive = load_archive()
    embedder = load_embedder(model_setting())
    report["model"] = {
        "name": embedder.name,
        "dimension": embedder.dimension,
        "load_s": round(time.perf_counter() - t, 2),
    }
    with tempfile.TemporaryDirectory(prefix="rulings-bench-") as tmp:
        index_dir = Path(tmp) / "index"
        t = time.perf_counter()
        index, stats = build_index(archive, embedder, index_dir, show_progress=False)
        build_s = time.perf_counter() - t
        report["archive_build"] = dict(
            stats, build_s=round(build_s, 2), passages_per_s=round(stats["passages"] / build_s, 1)
        )
        # What `rulings build` adds: the sentences the deciding sentence is picked among.
        from service.evidence import build_sentence_cache, sentence_cache_path

        t = time.perf_counter()
        sentences = build_sentence_cache(archive, embedder, sentence_cache_path(index_dir))
        report["archive_build"]["sentences"] = dict(
            sentences, build_s=round(time.perf_counter() - t, 2)
        )
        log(f"built the archive index: {stats['passages']} passages in {build_s:.1f}s")

        if "quality" in sections:
            from bench.quality import run_quality

            report["quality"] = run_quality(archive, embedder, index)
        if "riskcoverage" in sections:
            from bench.riskcoverage import run_riskcoverage

            report["riskcoverage"] = run_riskcoverage(archive, embedder, index, args.out)
        if "backends" in sections:
            from bench.backends import run_backends

            report["backends"] = run_backends(archive)
        if "latency" in sections or "http" in sections:
            from bench import latency

            if "latency" in sections:
                from service.engine import Engine, EngineConfig

                engine = Engine(EngineConfig(index_dir=index_dir))
                report["latency"] = latency.in_process(engine)
                log(
                    f"latency: ask p50 {report['latency']['ask_ms']['p50']} ms, bare "
                    f"{report['latency']['bare_embedding_ms']['p50']} ms"
                )
            if "http" in sections:
                if left() > 240:
                    report["http"] = latency.http(index_dir, args.http_requests)
                else:
                    report["http"] = {"skipped": f"only {left():.0f} s of the budget left"}
        if "asklog" in sections:
            from bench.asklog import run_asklog

            report["asklog"] = run_asklog(index_dir)
    if "documents" in sections:
        from bench.documents import run_documents, run_large

        report["documents"] = run_documents()
        report["documents"]["large"] = run_large(embedder)
        log(f"imported rulebooks: the large one {report['documents']['large']['import']}")
    if "monster" in sections:
        from bench.monster import run_monster_bench

        report["monster"] = run_monster_bench()
        log(f"monster solver: worst median {report['monster']['worst_median_s']} s")
    if "askpath" in sections:
        from bench.askpath import run_askpath_apart

        report["askpath"] = run_askpath_apart(tuple(int(x) for x in args.askpath_sizes.split(",")))
    if "scale" in sections:
        from bench.scale import run_scale

        report["scale"] = run_scale(
            embedder, budget_s=left() - 20, sizes=tuple(int(x) for x in args.sizes.split(","))
        )
    report["load_average_at_end"] = load_average()
    report["total_s"] = round(time.monotonic() - started, 1)
    if args.merge and (args.out / "report.json").exists():
        earlier = json.loads((args.out / "report.json").read_text(encoding="utf-8"))
        ran = sorted(sections & set(report))
        rerun = dict(earlier.get("rerun", {}), **{name: report["date"] for name in ran})
        report = dict(earlier, **{name: report[name] for name in ran}, rerun=rerun)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    (args.out / "report.md").write_text(render(report))
    log(f"wrote {args.out / 'report.md'} and report.json in {report['total_s']} s")
    return 0


# -- the readable report ------------------------------------------------------------------
COLUMNS = (
    "hit@1",
    "hit@3",
    "mrr@10",
    "wrongly_declined",
    "wrong_ruling_shown",
    "declined_unanswerable",
)
TARGETS = {
    "hit@1": ">= 0.95",
    "hit@3": ">= 0.99",
    "wrongly_declined": "<= 0.03",
    "declined_unanswerable": ">= 0.92",
}


def render_quality(q: dict) -> list[str]:
    svc = q["service"]
    head = "| | " + " | ".join(COLUMNS) + " |"
    line = lambda name, f: f"| {name} | " + " | ".join(_f(f.get(c)) for c in COLUMNS) + " |"  # noqa: E731
    out = [
        "## Quality: held-out folds beside in-sample",
        "",
        f"{svc['questions']} questions ({', '.join(f'{k} {v}' for k, v in svc['sets'].items())}), "
        f"{svc['folds']}-fold cross-validation stratified by language and answerability (seed "
        f"{svc['seed']}): every held-out figure comes from a reranker and answer model fitted "
        "on the other folds; the decline threshold is chosen on the training folds to decline "
        f"the most unanswerable questions while declining at most {svc['max_wrongly_declined']} "
        "of the answerable ones. `wrong_ruling_shown`: answerable questions answered with a "
        "wrong top ruling. The features and the regularisation were chosen by comparing "
        "variants on these same folds (the ablation rows are such variants), so the held-out "
        "figures carry some selection optimism; the question sets held elsewhere are the "
        "honest test.",
        "",
        head,
        "|---|" + "---|" * len(COLUMNS),
        line("**held-out folds**", svc["held_out"]["overall"]),
        line("in-sample (the fit the service ships)", svc["in_sample"]["overall"]),
        line("target", {c: TARGETS.get(c, "") for c in COLUMNS}),
        "",
        "Ablation (each row its own cross-validation):",
        "",
        head,
        "|---|" + "---|" * len(COLUMNS),
    ]
    out += [line(name, f) for name, f in svc["ablation"].items()]
    langs = svc["held_out"]["by_language"]
    out += [
        "",
        "Held-out by language (target hit@1 >= 0.90 each) and by question set:",
        "",
        head,
        "|---|" + "---|" * len(COLUMNS),
    ]
    out += [line(lang, f) for lang, f in langs.items()]
    out += [line(name, f) for name, f in svc["held_out"]["by_set"].items()]
    out += [
        "",
        f"Baselines on dev.yaml ({q['dev_questions']} questions):",
        "",
        head,
        "|---|" + "---|" * len(COLUMNS),
    ]
    out += [line(name, f) for name, f in q["baselines"].items()]
    out += ["", *[f"- `{n}`: {f['note']}" for n, f in q["baselines"].items()], ""]
    return out


def _f(v, digits=3) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def render(r: dict) -> str:
    m, v = r["machine"], r["versions"]
    out = [
        "# Benchmarks",
        "",
        f"Run {r['date']} in {r['total_s']} s (budget {r['budget_s']:.0f} s).",
        *(
            [
                "Sections run again later, on their own (`--merge`): "
                + ", ".join(f"{name} {date}" for name, date in sorted(r["rerun"].items()))
                + "."
            ]
            if r.get("rerun")
            else []
        ),
        "",
        f"- Machine: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, {m['platform']}; "
        f"load average at start {m['load_average_at_start']}, at end {r.get('load_average_at_end')}",
        f"- Versions: Python {v['python']}, torch {v['torch']} ({v['torch_threads']} threads), "
        f"faiss {v['faiss']}, sentence-transformers {v['sentence-transformers']}, "
        f"bm25s {v.get('bm25s')}, numpy {v['numpy']}",
        f"- Model: {r['model']['name']} ({r['model']['dimension']}-d), loaded in {r['model']['load_s']} s",
        f"- Archive index build: {r['archive_build']['records']} rulings, "
        f"{r['archive_build']['passages']} passages in {r['archive_build']['build_s']} s "
        f"({r['archive_build']['passages_per_s']} passages/s)",
        "",
    ]
    if (m.get("load_average_at_start") or [0])[0] > (m.get("cores") or 1):
        out += [
            "> The machine was busy with other work during this run (load average above the "
            "core count): timings are inflated, ratios measured side by side remain meaningful.",
            "",
        ]
    q = r.get("quality")
    if q:
        out += render_quality(q)
    if r.get("riskcoverage"):
        from bench.riskcoverage import render as render_riskcoverage

        out += render_riskcoverage(r["riskcoverage"])
    lat = r.get("latency")
    if lat:
        a, b = lat["ask_ms"], lat["bare_embedding_ms"]
        out += [
            "## Latency (in-process)",
            "",
            f"{lat['questions']} dev questions x {lat['repetitions']}, `engine.ask` and the bare "
            'model (`embedder.encode(["query: " + q])`) interleaved question by question.',
            "",
            "| | p50 ms | p95 ms | p99 ms | mean ms |",
            "|---|---|---|---|---|",
            f"| engine.ask | {a['p50']} | {a['p95']} | {a['p99']} | {a['mean']} |",
            f"| bare embedding (baseline) | {b['p50']} | {b['p95']} | {b['p99']} | {b['mean']} |",
            "",
            f"Ratio ask/bare at p50: **{lat['ratio_p50']}** (target <= {lat['target_ratio_p50']}: "
            f"{'met' if lat['target_met'] else 'missed'}).",
            "",
            "Median per stage (ms): "
            + ", ".join(f"{k} {v}" for k, v in lat["stage_median_ms"].items())
            + f"; everything but the model: {lat['non_model_median_ms_sum']} ms.",
            "",
        ]
    h = r.get("http")
    if h:
        out += ["## Latency over HTTP (gunicorn, loopback)", ""]
        from bench.latency import render_http

        out += render_http(h)
    if r.get("asklog"):
        from bench.asklog import render as render_asklog

        out += render_asklog(r["asklog"])
    b = r.get("backends")
    if b:
        from bench.backends import render as render_backends

        out += ["## Embedding backends (torch, ONNX fp32, ONNX int8)", "", *render_backends(b), ""]
    mb = r.get("monster")
    if mb:
        out += [
            "## Monster solver (large boards)",
            "",
            f"{mb['board']}: median of the runs per board (target: under {mb['target_s']} s).",
            "",
            "| board | median s | max s |",
            "|---|---|---|",
        ]
        for label, row in mb["boards"].items():
            out.append(
                f"| {label} | {_f(row.get('median_s'), 4)} | {_f(row.get('max_s'), 4)} |"
                if "error" not in row
                else f"| {label} | refused: {row['error']} | |"
            )
        out += [
            "",
            f"Worst median {_f(mb['worst_median_s'], 4)} s: target {'met' if mb['target_met'] else 'missed'}.",
            "",
        ]
    if r.get("documents"):
        from bench.documents import render as render_documents

        out += render_documents(r["documents"])
    if r.get("askpath"):
        from bench.askpath import render as render_askpath

        out += render_askpath(r["askpath"])
    s = r.get("scale")
    if s:
        out += [
            "## Scale (synthetic 384-d vectors)",
            "",
            f"{s['queries']} single-vector queries per size, recall@{s['k']} against exact search "
            "(IndexFlatIP, the baseline). `clustered` = Gaussian mixture (2,000 centres); `random` = "
            "uniform on the sphere (worst case for ANN).",
            "",
            "| kind | n | role | index | build s | p50 ms | p99 ms | recall@10 | index MiB | re-index one record |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for row in s["rows"]:
            fl = row["flat"]
            out.append(
                f"| {row['kind']} | {row['n']:,} | {_role(row, 'flat')} | flat (exact) | {fl['build_s']} | "
                f"{fl['search_ms']['p50']} | {fl['search_ms']['p99']} | 1.0 | {fl['index_mb']} | "
                f"replace row {fl['reindex_one_inplace_ms']} ms; rebuild {fl['reindex_one_rebuild_s']} s |"
            )
            hn = row.get("hnsw")
            if hn and "skipped" in hn:
                out.append(
                    f"| {row['kind']} | {row['n']:,} | {_role(row, 'hnsw')} | HNSW | "
                    f"skipped: {hn['skipped']} | | | | | |"
                )
            elif hn:
                out.append(
                    f"| {row['kind']} | {row['n']:,} | {_role(row, 'hnsw')} | "
                    f"HNSW M={hn['M']} efC={hn['efConstruction']} "
                    f"efS={hn['efSearch']} | {hn['build_s']} | {hn['search_ms']['p50']} | {hn['search_ms']['p99']} | "
                    f"{hn['recall@10']} | {hn['index_mb']} | rebuild {hn['reindex_one_rebuild_s']} s; add+mask "
                    f"{hn['reindex_one_add_and_mask_ms']} ms |"
                )
            iv = row.get("ivf")
            if iv:
                for nprobe, fig in iv["nprobe_sweep"].items():
                    out.append(
                        f"| {row['kind']} | {row['n']:,} | {_role(row, 'ivf')} | "
                        f"IVF nlist={iv['nlist']} nprobe={nprobe} | "
                        f"{iv['build_s']} | {fig['search_ms']['p50']} | {fig['search_ms']['p99']} | "
                        f"{fig['recall@10']} | {iv['index_mb']} | remove+add {iv['reindex_one_remove_add_ms']} ms |"
                    )
        for row in s["rows"]:
            hn = row.get("hnsw") or {}
            if "efSearch_sweep" in hn:
                out.append("")
                out.append(
                    f"HNSW efSearch sweep, {row['kind']} {row['n']:,} (50 queries): "
                    + "; ".join(
                        f"efS={k}: p50 {x['p50_ms']} ms, recall {x['recall@10']}"
                        for k, x in hn["efSearch_sweep"].items()
                    )
                )
        out.append("")
        out += [
            f"RSS after {row['kind']} {row['n']:,}: {row['rss_mb_after']} MiB" for row in s["rows"]
        ]
        bt = s.get("build_throughput")
        if bt:
            out += [
                "",
                f"Build with real embeddings: {bt['records']} generated records, {bt['passages']} "
                f"passages in {bt['build_s']} s ({bt['passages_per_s']} passages/s); after changing one "
                f"record the rebuild took {bt['rebuild_after_one_change_s']} s and embedded "
                f"{bt['rebuild_embedded_passages']} passage(s). {bt['note']}.",
            ]
        if s["skipped"]:
            out += ["", "Skipped:", *[f"- {line}" for line in s["skipped"]]]
        out.append("")
    return "\n".join(out)


def _role(row: dict, index_type: str) -> str:
    """How a table row relates to the service: the type it picks at that size, or the baseline."""
    if row["chosen_type"] == index_type:
        return "**service's choice**"
    return "baseline (exact)" if index_type == "flat" else "alternative"


if __name__ == "__main__":
    sys.exit(main())
