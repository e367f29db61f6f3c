"""`rulings serve` and `rulings discord`: the HTTP service and the Discord bot."""

from __future__ import annotations

import json
import logging

import click

from service.cli.common import Failure, engine_config, one_line_errors


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=None, type=int, help="The port [default: PORT or 8000].")
@click.option(
    "--rebuild", is_flag=True, help="Rebuild a missing or stale index instead of refusing it."
)
@click.option("--dev", is_flag=True, help="Flask's development server instead of gunicorn.")
@click.pass_context
@one_line_errors
def serve(ctx, host, port, rebuild, dev):
    """Serve the HTTP API and the page (gunicorn on 127.0.0.1 by default)."""
    from service.http.wsgi import serve as run

    config = {
        "ARCHIVE_DIR": str(ctx.obj["archive"]),
        "INDEX_DIR": str(ctx.obj["index"]),
        "MODEL": ctx.obj["model"],
        "REBUILD_INDEX": rebuild,
        "EAGER_LOAD": True,
    }
    run(config, host, port or ctx.obj["settings"].port, dev)


@click.group("discord", invoke_without_command=True)
@click.option(
    "--api-url",
    default=None,
    help="The HTTP API the bot calls [default: RULINGS_API_URL or http://127.0.0.1:8000].",
)
@click.option(
    "--public-url",
    default=None,
    help="The page's public base URL, for permalinks [default: RULINGS_PUBLIC_URL].",
)
@click.option(
    "--sync",
    is_flag=True,
    help="Sync the slash commands with Discord at this start (after changing them; "
    "Discord rate-limits syncing, so it is not done at every start).",
)
@click.pass_context
def discord_(ctx, api_url, public_url, sync):
    """Run the Discord bot (token from DISCORD_TOKEN) against a running API server."""
    if ctx.invoked_subcommand is not None:
        return
    from service.discord.gateway import BotError, run_bot

    settings = ctx.obj["settings"]
    try:
        run_bot(
            settings.secret("discord_token"),
            api_url or settings.api_url,
            public_url or settings.public_url,
            sync=sync,
        )
    except BotError as exc:
        raise Failure(str(exc)) from None


@discord_.command("register")
@click.option(
    "--dry-run", is_flag=True, help="Print the command definitions instead of sending them."
)
@click.option(
    "--application-id",
    default=None,
    help="The application's id [default: DISCORD_APPLICATION_ID; asked of Discord when absent].",
)
@click.option(
    "--guild",
    "guild_id",
    default=None,
    help="Register in this server only (shows at once; global commands take a while).",
)
@click.pass_context
@one_line_errors
def discord_register(ctx, dry_run, application_id, guild_id):
    """Send the slash commands (localised names and descriptions) to Discord, or print them."""
    import asyncio

    from service.discord.gateway import BotError, command_payloads, register_over_http

    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice here: not worth a line
    from service.engine import Engine

    catalogue = Engine(engine_config(ctx)).catalogue
    games = [(g["id"], g["name"]) for g in catalogue.games()]
    payloads = asyncio.run(command_payloads(games))
    if dry_run:
        click.echo(json.dumps(payloads, ensure_ascii=False, indent=2))
        return
    try:
        settings = ctx.obj["settings"]
        count = register_over_http(
            settings.secret("discord_token"),
            payloads,
            guild_id=guild_id,
            application_id=application_id or settings.discord_application_id,
        )
    except BotError as exc:
        raise Failure(str(exc)) from None
    click.echo(f"registered {count} commands" + (f" in server {guild_id}" if guild_id else ""))
