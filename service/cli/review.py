"""`rulings review`: the questions the archive failed, grouped by meaning, and the curator's
verdict on each group (``promote GROUP --to RULING``, ``dismiss GROUP``); ``--stats`` the
risk-coverage of the answers from the log's votes."""

from __future__ import annotations

from typing import Any

import click

from service.cli.common import Failure, emit, one_line_errors


@click.group("review", invoke_without_command=True)
@click.option(
    "--log",
    "log_setting",
    default=None,
    help="The question log: a SQLite file or a postgresql:// URL [default: RULINGS_LOG].",
)
@click.option(
    "--days",
    type=click.IntRange(1, None),
    default=None,
    help="Only the asks of the last N days [default: all the log keeps].",
)
@click.option("--stats", is_flag=True, help="Risk-coverage from the log's votes.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@one_line_errors
def review(ctx, log_setting, days, stats, as_json):
    """List the declined questions and the answers voted unhelpful, grouped by meaning, most
    asked first, with their nearest rulings.

    A group listed with --days is promoted or dismissed with the same --days:
    `rulings review --days 7 promote GROUP --to RULING`.
    """
    ctx.obj["review"] = {"log": log_setting, "days": days, "json": as_json}
    if ctx.invoked_subcommand is not None:
        return
    if stats:
        _stats(ctx, as_json)
        return
    groups = _groups(ctx)
    emit({"groups": [g.as_dict() for g in groups]}, as_json, lambda _: _queue_text(groups))


@review.command()
@click.argument("group")
@click.option("--to", "ruling", required=True, help="The ruling that answers the group.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@one_line_errors
def promote(ctx, group, ruling, as_json):
    """Add the group's questions to RULING's search keys (each in its own language) and to
    questions/answered.yaml; then `rulings build` to answer them with it."""
    from service.asklog import curate
    from service.asklog.review import find_group, mark_reviewed

    archive, analyser, engine, groups = _reviewing(ctx)
    found = find_group(groups, group)
    written = curate.promote(archive, analyser, found, ruling.strip())
    _read(lambda: mark_reviewed(engine, [a.id for a in found.asks], "promoted", ruling.strip()))
    data = {"group": found.id, "action": "promoted", "ruling": ruling.strip(), **written.as_dict()}
    emit(data, as_json or ctx.obj["review"]["json"], _written_text)


@review.command()
@click.argument("group")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@one_line_errors
def dismiss(ctx, group, as_json):
    """Record the group's questions as ones the archive does not answer
    (questions/outside.yaml: the service should decline them)."""
    from service.asklog import curate
    from service.asklog.review import find_group, mark_reviewed

    archive, analyser, engine, groups = _reviewing(ctx)
    found = find_group(groups, group)
    written = curate.dismiss(archive.root, analyser, found)
    _read(lambda: mark_reviewed(engine, [a.id for a in found.asks], "dismissed", None))
    data = {"group": found.id, "action": "dismissed", "ruling": None, **written.as_dict()}
    emit(data, as_json or ctx.obj["review"]["json"], _written_text)


# -- the log, the model, the groups ------------------------------------------------------------
def _log(ctx: click.Context) -> Any:
    """The log's database engine, migrated; a missing file or an unreachable server in one
    line."""
    from pathlib import Path

    from service.asklog.store import database_url, migrate, open_database

    setting = ctx.obj["review"]["log"] or ctx.obj["settings"].ask_log
    if setting.strip().lower() == "off":
        raise Failure("the question log is off (RULINGS_LOG=off): give --log PATH or URL")
    url = database_url(setting)
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
        raise Failure(f"no question log at {url.removeprefix('sqlite:///')} (nothing asked yet?)")
    engine = open_database(setting)
    _read(lambda: migrate(engine))  # a log made by an older version: its tables brought up
    return engine


def _read(step: Any) -> Any:
    """Run a step on the log (a read, or the reviews' marks), a database error as one line."""
    from sqlalchemy.exc import SQLAlchemyError

    try:
        return step()
    except SQLAlchemyError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise Failure(f"the question log cannot be used: {first}") from None


def _groups(ctx: click.Context, parts: dict | None = None) -> list:
    from indexer.archive.load import load_archive
    from indexer.model.embedder import load_embedder, model_setting
    from indexer.search.index import load_index
    from indexer.search.question import QuestionAnalyser
    from service.asklog.review import group_asks, language_means, pending_asks, question_vectors

    engine = _log(ctx)
    queued = _read(lambda: pending_asks(engine, ctx.obj["review"]["days"]))
    archive = load_archive(ctx.obj["archive"])
    analyser = QuestionAnalyser(archive)
    if parts is not None:
        parts.update(archive=archive, analyser=analyser, engine=engine)
    if not queued:
        return []
    embedder = load_embedder(ctx.obj["model"] or model_setting())
    # The index only lends its keys' language means: a stale one (keys just promoted) will do.
    index = load_index(
        ctx.obj["index"],
        None,
        embedder.name,
        backend=embedder.backend,
        export=getattr(embedder, "export_id", None),
    )
    means = language_means(index)
    try:
        return group_asks(queued, lambda texts: question_vectors(analyser, embedder, means, texts))
    except ValueError as exc:
        raise Failure(str(exc)) from None


def _reviewing(ctx: click.Context) -> tuple:
    """(archive, question analyser, log engine, groups) for promote and dismiss."""
    parts: dict = {}
    groups = _groups(ctx, parts)
    return parts["archive"], parts["analyser"], parts["engine"], groups


# -- output ------------------------------------------------------------------------------------
def _queue_text(groups: list) -> str:
    if not groups:
        return "Nothing to review: no declined question and no answer voted unhelpful."
    asks = sum(g.count for g in groups)
    out = [f"{len(groups)} group(s) of {asks} question(s) to review, most asked first:"]
    for g in groups:
        near = ", ".join(g.nearest) or "-"
        out.append("")
        out.append(
            click.style(g.id, bold=True)
            + f"  {g.count} asked  in {', '.join(g.languages)}  nearest: {near}"
        )
        for ask in g.asks:
            how = "declined" if ask.declined else f"answered {ask.answer}, voted unhelpful"
            out.append(f"  [{ask.lang}] {ask.question}  ({how})")
    out.append("")
    out.append(
        "rulings review promote GROUP --to RULING   (make them search keys of RULING)\n"
        "rulings review dismiss GROUP               (the archive does not answer them)"
    )
    return "\n".join(out)


def _written_text(d: dict) -> str:
    if d["action"] == "dismissed":
        out = [f"group {d['group']}: dismissed"]
    else:
        added = sum(len(v) for v in d["added"].values())
        out = [f"group {d['group']}: {added} search key(s) added to {d['ruling']} ({d['record']})"]
        out += [f"  + [{lang}] {key}" for lang, keys in d["added"].items() for key in keys]
        out += [f"  = {line}" for line in d["skipped"]]
    out.append(f"{d['appended']} question(s) appended to {d['question_set']}")
    if d["action"] == "promoted":
        out.append("run `rulings build` to answer them with it (a running service switches)")
    return "\n".join(out)


# -- --stats -----------------------------------------------------------------------------------
def _stats(ctx: click.Context, as_json: bool) -> None:
    from indexer.riskcoverage import risk_coverage_from_votes
    from service.asklog.review import vote_rows

    engine = _log(ctx)
    rows = _read(lambda: vote_rows(engine, ctx.obj["review"]["days"]))
    try:
        figures = risk_coverage_from_votes(rows)
    except ValueError as exc:
        raise Failure(str(exc)) from None
    emit(figures, as_json, _stats_text)


def _stats_text(d: dict) -> str:
    point = d["operating_point"]
    out = [
        f"{d['asks']} asks, {d['answered']} answered, {d['voted']} of those voted on",
        f"{'':22}{'value':>8}  95 % interval",
    ]
    for name, key in [
        ("AURC (lower: better)", "aurc"),
        ("coverage at 2 % risk", "coverage@0.02"),
        ("coverage at 5 % risk", "coverage@0.05"),
    ]:
        fig = d[key]
        out.append(f"{name:22}{fig['value']:>8.3f}  {fig['low']:.3f} - {fig['high']:.3f}")
    out.append(
        f"as served: {point['coverage']:.1%} of asks answered, {point['risk']:.1%} of the voted "
        "answers unhelpful (declined asks count as not answered)"
    )
    return "\n".join(out)
