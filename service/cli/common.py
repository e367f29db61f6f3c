"""What every `rulings` command shares: one-line errors, the engine of the options given, and
JSON or readable output."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

import click

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


def engine_config(ctx: click.Context):
    from service.engine import EngineConfig

    obj = ctx.obj
    return EngineConfig(
        archive_dir=obj["archive"],
        index_dir=obj["index"],
        model=obj["model"],
        rebuild=obj.get("rebuild", False),
    )


def open_engine(ctx: click.Context):
    from service.engine import Engine

    return Engine(engine_config(ctx))


def emit(data: Any, as_json: bool, human: Callable[[Any], str]) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2) if as_json else human(data))
