"""The `rulings` command: one click group over the engine, the archive tools and the checker.

Human-readable output by default, ``--json`` for scripts; every error is one line on stderr
and a non-zero exit, never a traceback. The commands live by what they work on: questions
and the checker (``questions``), the archive and its index (``archive``), serving and the
Discord bot (``running``), the curator's queue of failed questions (``review``).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import click

from service.cli.archive import build, calibrate, eval_, import_, lint
from service.cli.common import Failure
from service.cli.questions import ask, check, errata, show
from service.cli.review import review
from service.cli.running import discord_, serve


@click.group()
@click.option(
    "--archive",
    type=click.Path(path_type=Path),
    default=None,
    help="The archive folder [default: RULINGS_ARCHIVE_DIR or rulings/].",
)
@click.option(
    "--index",
    "index_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="The index folder [default: RULINGS_INDEX_DIR or index/].",
)
@click.option(
    "--model",
    default=None,
    help="Model folder or hub name [default: RULINGS_MODEL or models/multilingual-e5-small].",
)
@click.option("-v", "--verbose", is_flag=True, help="Log progress to stderr.")
@click.version_option(package_name="rulings")
@click.pass_context
def cli(
    ctx: click.Context, archive: Path, index_dir: Path, model: str | None, verbose: bool
) -> None:
    """Curated, cited rules answers for board games."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from service.settings import Settings, SettingsError

    try:  # every setting is checked at start: a bad value is one line, whatever the command
        settings = Settings.load()
    except SettingsError as exc:
        raise Failure(exc.message) from None
    ctx.obj = {
        "archive": archive or settings.archive_dir,
        "index": index_dir or settings.index_dir,
        "model": model or settings.model,
        "settings": settings,
    }


def main() -> None:  # pragma: no cover - console entry
    cli(prog_name="rulings")


for command in (
    ask, show, errata, check, import_, lint, build, eval_, calibrate, review, serve, discord_
):  # fmt: skip
    cli.add_command(command)
