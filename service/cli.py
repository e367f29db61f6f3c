"""The `rulings` command: one click group over the engine, the archive tools and the checker.

Human-readable output by default, ``--json`` for scripts; every error is one line on stderr
and a non-zero exit, never a traceback.
"""
from __future__ import annotations

import json
import logging
import os
import sys
from functools import wraps
from pathlib import Path
from typing import Any, Callable

import click

from indexer.archive.load import check_archive
from indexer.archive.schema import LANGUAGES
from service.terminal import format_computed, format_ruling, format_steps

log = logging.getLogger(__name__)


class Failure(click.ClickException):
    """A one-line error: `Error: ...` on stderr, exit 1."""


def one_line_errors(func: Callable) -> Callable:
    """Turn every domain error into one clear line: they all carry their own message."""
    @wraps(func)
    def wrapper(*args, **kwargs):
        from indexer.archive.load import ArchiveError
        from indexer.errors import RulingsError
        try:
            return func(*args, **kwargs)
        except ArchiveError as exc:  # one line per problem, the last as the error
            for problem in exc.problems[:-1]:
                click.echo(problem, err=True)
            raise Failure(exc.problems[-1] if exc.problems else exc.message) from None
        except RulingsError as exc:
            raise Failure(exc.message) from None
    return wrapper


def _settings(ctx: click.Context):
    from service.engine import EngineConfig
    obj = ctx.obj
    return EngineConfig(archive_dir=obj["archive"], index_dir=obj["index"], model=obj["model"],
                    rebuild=obj.get("rebuild", False))


def _engine(ctx: click.Context):
    from service.engine import Engine
    return Engine(_settings(ctx))


def _emit(data: Any, as_json: bool, human: Callable[[Any], str]) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2) if as_json else human(data))


@click.group()
@click.option("--archive", type=click.Path(path_type=Path), default=None,
              help="The archive folder [default: RULINGS_ARCHIVE_DIR or rulings/].")
@click.option("--index", "index_dir", type=click.Path(path_type=Path), default=None,
              help="The index folder [default: RULINGS_INDEX_DIR or index/].")
@click.option("--model", default=None,
              help="Model folder or hub name [default: RULINGS_MODEL or models/multilingual-e5-small].")
@click.option("-v", "--verbose", is_flag=True, help="Log progress to stderr.")
@click.version_option(package_name="rulings")
@click.pass_context
def cli(ctx: click.Context, archive: Path, index_dir: Path, model: str | None, verbose: bool) -> None:
    """Curated, cited rules answers for board games."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from service.settings import Settings, SettingsError
    try:  # every setting is checked at start: a bad value is one line, whatever the command
        settings = Settings.load()
    except SettingsError as exc:
        raise Failure(exc.message) from None
    ctx.obj = {"archive": archive or settings.archive_dir, "index": index_dir or settings.index_dir,
               "model": model or settings.model, "settings": settings}


@cli.command()
@click.argument("question", nargs=-1, required=True)
@click.option("--game", help="Game id or alias (FH, GH, ...).")
@click.option("--lang", type=click.Choice(LANGUAGES), help="Your language (detected when absent).")
@click.option("-k", "k", type=click.IntRange(1, 10), default=3, show_default=True, help="How many matches.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@one_line_errors
def ask(ctx, question, game, lang, k, as_json):
    """Answer a rules question with the ruling that answers it (or say none does)."""
    from service.http.models import AskBody, validated
    asked = validated(AskBody, {"question": " ".join(question), "k": k, "game": game, "lang": lang})
    result = _engine(ctx).ask(asked.question, game=asked.game, lang=asked.lang, k=asked.k)

    def human(res: dict) -> str:
        return "\n\n".join(filter(None, [format_computed(res.get("computed")), ruling_part(res)]))

    def ruling_part(res: dict) -> str:
        if res["declined"]:
            out = [click.style("No ruling answers this question.", fg="yellow") + f" ({res['reason']})"]
            if res["matches"]:
                out.append("Nearest rulings:")
                out += [f"  - {m['id']}: {m['display_title']}" for m in res["matches"]]
            return "\n".join(out)
        out = [format_ruling(res["answer"], res["answer"]["score"])]
        if len(res["matches"]) > 1:
            out.append("Related:")
            out += [f"  - {m['id']}: {m['display_title']}" for m in res["matches"][1:]]
        return "\n".join(out)
    _emit(result, as_json, human)


@cli.command()
@click.argument("record_id")
@click.option("--lang", type=click.Choice(LANGUAGES), help="Show the translation into this language too.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@one_line_errors
def show(ctx, record_id, lang, as_json):
    """Show one ruling by id (needs only the archive: no model, no index)."""
    _emit(_engine(ctx).ruling(record_id, lang), as_json, format_ruling)


@cli.command()
@click.argument("card", nargs=-1, required=True)
@click.option("--game", help="Game id or alias.")
@click.option("--lang", type=click.Choice(LANGUAGES), help="Show translations into this language.")
@click.option("--limit", type=click.IntRange(1, 100), default=20, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@one_line_errors
def errata(ctx, card, game, lang, limit, as_json):
    """Find the rulings about a card, item, monster or class (forgiving of typos; archive only)."""
    result = _engine(ctx).find(card=" ".join(card), game=game, lang=lang, limit=limit)

    def human(res: dict) -> str:
        if not res["results"]:
            return click.style("No ruling is about that card.", fg="yellow")
        return "\n\n".join(format_ruling(r) for r in res["results"])
    _emit(result, as_json, human)


@cli.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--lang", type=click.Choice(LANGUAGES), help="The language of a rulebook file (detected when absent).")
@click.option("--link", is_flag=True, help="Link each new record to the same rule in other editions (loads the model).")
@click.option("--dry-run", is_flag=True, help="Parse (and link) and report, write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@one_line_errors
def import_(ctx, files, lang, link, dry_run, as_json):
    """Turn rulebook-excerpt files and FAQ pages into archive records, keeping the files in sources/."""
    from indexer.archive.load import load_archive
    from indexer.archive.sources.importer import import_files
    archive = load_archive(ctx.obj["archive"])
    embedder = None
    if link:
        from indexer.model.embedder import load_embedder, model_setting
        embedder = load_embedder(ctx.obj["model"] or model_setting())
    report = import_files(list(files), archive, lang=lang, dry_run=dry_run, link=link, embedder=embedder)
    linking = report.linking
    data = {"written": report.written, "unchanged": report.unchanged, "updated": report.updated,
            "skipped": report.skipped, "sources": report.sources, "copied": report.copied,
            "links": [m.as_dict() for m in linking.links] if linking else [],
            "possible": [m.as_dict() for m in linking.possible] if linking else [],
            "link_notes": linking.notes if linking else [], "dry_run": dry_run}
    _emit(data, as_json, lambda d: _import_text(d, report, dry_run))


def _import_text(d: dict, report, dry_run: bool) -> str:
    """The import report for the terminal."""
    verb = "would write" if dry_run else "wrote"
    out = [f"{verb} {len(d['written'])} record(s), {len(d['unchanged'])} already in the archive, "
           f"{len(d['skipped'])} note(s)"]
    out += [f"  + {rid}" for rid in d["written"]]
    out += [f"  ! {line}" for line in d["skipped"]]
    for path, name in d["sources"].items():
        kept = ("would copy to" if dry_run else "copied to") if name in d["copied"] else "already in"
        out.append(f"  source {path}: {kept} rulings/sources/{name}")
    if report.linking:
        out.append(f"links ({len(d['links'])}; written both ways):" if not dry_run
                   else f"links ({len(d['links'])}; would be written both ways):")
        out += [f"  {m.line()}" for m in report.linking.links]
        if report.linking.possible:
            out.append(f"possible, not linked ({len(d['possible'])}; check by hand):")
            out += [f"  {m.line()}" for m in report.linking.possible]
        out += [f"  - {note}" for note in report.linking.notes]
        if d["updated"]:
            out.append(f"{'would update' if dry_run else 'updated'} {len(d['updated'])} existing "
                       f"record(s): {', '.join(d['updated'])}")
    return "\n".join(out)


@cli.command()
@click.option("--strict", is_flag=True, help="Treat warnings (missing translations or search keys) as problems.")
@click.pass_context
def lint(ctx, strict):
    """Validate the whole archive: one line per problem, non-zero exit if any."""
    archive, problems, warnings = check_archive(ctx.obj["archive"])
    for line in warnings:
        click.echo(f"warning: {line}", err=True)
    for line in problems:
        click.echo(line, err=True)
    if archive is not None and strict and warnings:
        # Typically newly imported rulings: served with the original (and linked editions)
        # and a "no translation yet" marker until someone translates them.
        untranslated = [rid for rid, rec in archive.records.items()
                        if len(rec.languages()) < len(LANGUAGES)]
        if untranslated:
            click.echo(f"{len(untranslated)} ruling(s) without a text in every language: "
                       f"{', '.join(untranslated)}", err=True)
    if problems or (strict and warnings):
        raise SystemExit(1)
    click.echo(f"ok: {len(archive)} rulings, {sum(len(r.translations) for r in archive.records.values())} translations")


@cli.command()
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.pass_context
@one_line_errors
def build(ctx, quiet):
    """Build or update the search index (re-embeds only changed records)."""
    from indexer.archive.load import load_archive
    from indexer.archive.record_cache import archive_cache_path
    from indexer.model.embedder import load_embedder, model_setting
    from indexer.search.index import build_index
    # Fills the parsed-archive cache too: the service's start after this build parses nothing.
    archive = load_archive(ctx.obj["archive"], cache=archive_cache_path(ctx.obj["index"]))
    embedder = load_embedder(ctx.obj["model"] or model_setting())
    _, stats = build_index(archive, embedder, ctx.obj["index"], show_progress=not quiet)
    click.echo(f"index {ctx.obj['index']}: {stats['records']} rulings, {stats['passages']} passages; "
               f"embedded {stats['embedded_passages']}, reused {stats['reused_passages']}")


@cli.command("eval")
@click.argument("questions", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the figures as JSON here.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--failures", is_flag=True, help="List the questions answered wrongly.")
@click.pass_context
@one_line_errors
def eval_(ctx, questions, out, as_json, failures):
    """Measure hit@1, hit@3, MRR@10 and declines on a question file (dev.yaml format)."""
    from indexer.files import write_atomic
    from indexer.search.evaluate import evaluate, load_questions
    engine = _engine(ctx)
    items = load_questions(questions)
    report = evaluate(items, lambda q: engine.searcher.search(q, k=10))
    data = report.as_dict()
    if out:
        write_atomic(out, json.dumps(data, indent=2, ensure_ascii=False))

    def human(d: dict) -> str:
        cols = ["hit@1", "hit@3", "mrr@10", "wrongly_declined", "declined_unanswerable"]
        fmt = lambda v: "   -  " if v is None else f"{v:6.3f}"
        rows = [f"{'lang':8}{'n':>4} " + " ".join(f"{c:>10}" for c in cols)]
        for name, fig in [*d["by_language"].items(), ("overall", d["overall"])]:
            rows.append(f"{name:8}{fig['answerable'] + fig['unanswerable']:>4} "
                        + " ".join(f"{fmt(fig[c]):>10}" for c in cols))
        if failures:
            rows += [f"  ✗ {f['q'][:70]} expect={f['expect']} got={f['got']} declined={f['declined']}"
                     for f in d["failures"]]
        return "\n".join(rows)
    _emit(data, as_json, human)




@cli.command()
@click.argument("questions", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--folds", type=click.IntRange(2, 20), default=5, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to save the calibration [default: indexer/search/calibration.json].")
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("build/calibration-report.json"), show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
@one_line_errors
def calibrate(ctx, questions, folds, out, report, as_json):
    """Fit the reranker and the decline model on question sets (k-fold CV figures reported).

    QUESTIONS default to the shared dev sets and the project's own (bench/eval/).
    """
    from indexer.files import write_atomic
    from indexer.paths import CALIBRATION_FILE, DEFAULT_QUESTION_SETS, REPO_ROOT
    from indexer.search.calibrate import calibrate as run
    from indexer.search.evaluate import load_questions
    from indexer.search.searcher import Searcher
    paths = list(questions) or [REPO_ROOT / p for p in DEFAULT_QUESTION_SETS]
    sets = {Path(p).stem: load_questions(p) for p in paths}
    searcher = _engine(ctx).searcher
    keyless = Searcher(searcher.archive, searcher.index, searcher.embedder, use_keys=False,
                       cited_by_computation=searcher.cited_by_computation)
    fitted, figures = run(searcher, sets, k=folds, keyless_searcher=keyless)
    write_atomic(out or CALIBRATION_FILE, json.dumps(fitted.to_dict(), indent=1) + "\n")
    write_atomic(report, json.dumps(figures, indent=1, ensure_ascii=False) + "\n")

    def human(d: dict) -> str:
        cols = ["hit@1", "hit@3", "wrongly_declined", "wrong_ruling_shown", "declined_unanswerable"]
        fmt = lambda v: "   -  " if v is None else f"{v:6.3f}"  # noqa: E731
        rows = [f"{'':34}" + " ".join(f"{c:>12}" for c in cols)]
        for name, fig in [("held-out folds", d["held_out"]["overall"]),
                          ("in-sample (the saved fit)", d["in_sample"]["overall"]),
                          *[(f"  ablation: {k}"[:34], v) for k, v in d["ablation"].items()]]:
            rows.append(f"{name:34}" + " ".join(f"{fmt(fig[c]):>12}" for c in cols))
        rows.append("held-out hit@1 by language: " + ", ".join(
            f"{lang} {f['hit@1']}" for lang, f in d["held_out"]["by_language"].items()))
        return "\n".join(rows)
    _emit(figures, as_json, human)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=None, type=int, help="The port [default: PORT or 8000].")
@click.option("--rebuild", is_flag=True, help="Rebuild a missing or stale index instead of refusing it.")
@click.option("--dev", is_flag=True, help="Flask's development server instead of gunicorn.")
@click.pass_context
@one_line_errors
def serve(ctx, host, port, rebuild, dev):
    """Serve the HTTP API and the page (gunicorn on 127.0.0.1 by default)."""
    from service.http.wsgi import serve as run
    config = {"ARCHIVE_DIR": str(ctx.obj["archive"]), "INDEX_DIR": str(ctx.obj["index"]),
              "MODEL": ctx.obj["model"], "REBUILD_INDEX": rebuild, "EAGER_LOAD": True}
    run(config, host, port or ctx.obj["settings"].port, dev)


@cli.command()
@click.argument("name")
@click.argument("file", type=click.File("r"), default="-")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@one_line_errors
def check(name, file, as_json):
    """Run a rules check (damage, initiative, advantage, exhaustion, monster) on a JSON request."""
    from checker import run_check
    try:
        payload = json.load(file)
    except ValueError as exc:
        raise Failure(f"the request is not valid JSON: {exc}") from None
    result = run_check(name, payload)

    def human(res: dict) -> str:
        out = format_steps(res["steps"])
        skip = {"steps", "rulings"}
        out.append("Result: " + json.dumps({k: v for k, v in res.items() if k not in skip}, ensure_ascii=False))
        out.append(f"Rulings: {', '.join(res['rulings']) or 'none'}")
        return "\n".join(out)
    _emit(result, as_json, human)


@cli.group("discord", invoke_without_command=True)
@click.option("--api-url", default=None,
              help="The HTTP API the bot calls [default: RULINGS_API_URL or http://127.0.0.1:8000].")
@click.option("--public-url", default=None,
              help="The page's public base URL, for permalinks [default: RULINGS_PUBLIC_URL].")
@click.option("--sync", is_flag=True,
              help="Sync the slash commands with Discord at this start (after changing them; "
                   "Discord rate-limits syncing, so it is not done at every start).")
@click.pass_context
def discord_(ctx, api_url, public_url, sync):
    """Run the Discord bot (token from DISCORD_TOKEN) against a running API server."""
    if ctx.invoked_subcommand is not None:
        return
    from service.discord.gateway import BotError, run_bot
    settings = ctx.obj["settings"]
    try:
        run_bot(settings.secret("discord_token"), api_url or settings.api_url,
                public_url or settings.public_url, sync=sync)
    except BotError as exc:
        raise Failure(str(exc)) from None


@discord_.command("register")
@click.option("--dry-run", is_flag=True, help="Print the command definitions instead of sending them.")
@click.option("--application-id", default=None,
              help="The application's id [default: DISCORD_APPLICATION_ID; asked of Discord when absent].")
@click.option("--guild", "guild_id", default=None,
              help="Register in this server only (shows at once; global commands take a while).")
@click.pass_context
@one_line_errors
def discord_register(ctx, dry_run, application_id, guild_id):
    """Send the slash commands (localised names and descriptions) to Discord, or print them."""
    import asyncio

    from service.discord.gateway import BotError, command_payloads, register_over_http
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice here: not worth a line
    from service.engine import Engine
    catalogue = Engine(_settings(ctx)).catalogue
    games = [(g["id"], g["name"]) for g in catalogue.games()]
    payloads = asyncio.run(command_payloads(games))
    if dry_run:
        click.echo(json.dumps(payloads, ensure_ascii=False, indent=2))
        return
    try:
        settings = ctx.obj["settings"]
        count = register_over_http(settings.secret("discord_token"), payloads, guild_id=guild_id,
                                   application_id=application_id or settings.discord_application_id)
    except BotError as exc:
        raise Failure(str(exc)) from None
    click.echo(f"registered {count} commands" + (f" in server {guild_id}" if guild_id else ""))


def main() -> None:  # pragma: no cover - console entry
    cli(prog_name="rulings")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
