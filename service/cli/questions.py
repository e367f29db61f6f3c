"""`rulings ask`, `show`, `errata` and `check`: questions, rulings and the rules checker."""

from __future__ import annotations

import json

import click

from indexer.language import LANGUAGES
from service.cli.common import Failure, emit, one_line_errors, open_engine
from service.cli.terminal import format_computed, format_ruling, format_steps


@click.command()
@click.argument("question", nargs=-1, required=True)
@click.option("--game", help="Game id or alias (FH, GH, ...).")
@click.option("--lang", type=click.Choice(LANGUAGES), help="Your language (detected when absent).")
@click.option(
    "-k", "k", type=click.IntRange(1, 10), default=3, show_default=True, help="How many matches."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@one_line_errors
def ask(ctx, question, game, lang, k, as_json):
    """Answer a rules question with the ruling that answers it (or say none does)."""
    from service.http.models import AskBody, validated

    asked = validated(AskBody, {"question": " ".join(question), "k": k, "game": game, "lang": lang})
    result = open_engine(ctx).ask(asked.question, game=asked.game, lang=asked.lang, k=asked.k)

    def human(res: dict) -> str:
        return "\n\n".join(filter(None, [format_computed(res.get("computed")), ruling_part(res)]))

    def ruling_part(res: dict) -> str:
        if res["declined"]:
            out = [
                click.style("No ruling answers this question.", fg="yellow") + f" ({res['reason']})"
            ]
            if res["matches"]:
                out.append("Nearest rulings:")
                out += [f"  - {m['id']}: {m['display_title']}" for m in res["matches"]]
            return "\n".join(out)
        out = [format_ruling(res["answer"], res["answer"]["score"])]
        if len(res["matches"]) > 1:
            out.append("Related:")
            out += [f"  - {m['id']}: {m['display_title']}" for m in res["matches"][1:]]
        return "\n".join(out)

    emit(result, as_json, human)


@click.command()
@click.argument("record_id")
@click.option(
    "--lang", type=click.Choice(LANGUAGES), help="Show the translation into this language too."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@one_line_errors
def show(ctx, record_id, lang, as_json):
    """Show one ruling by id (needs only the archive: no model, no index)."""
    emit(open_engine(ctx).ruling(record_id, lang), as_json, format_ruling)


@click.command()
@click.argument("card", nargs=-1, required=True)
@click.option("--game", help="Game id or alias.")
@click.option("--lang", type=click.Choice(LANGUAGES), help="Show translations into this language.")
@click.option("--limit", type=click.IntRange(1, 100), default=20, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@one_line_errors
def errata(ctx, card, game, lang, limit, as_json):
    """Find the rulings about a card, item, monster or class (forgiving of typos; archive only)."""
    result = open_engine(ctx).find(card=" ".join(card), game=game, lang=lang, limit=limit)

    def human(res: dict) -> str:
        if not res["results"]:
            return click.style("No ruling is about that card.", fg="yellow")
        return "\n\n".join(format_ruling(r) for r in res["results"])

    emit(result, as_json, human)


@click.command()
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
        out.append(
            "Result: "
            + json.dumps({k: v for k, v in res.items() if k not in skip}, ensure_ascii=False)
        )
        out.append(f"Rulings: {', '.join(res['rulings']) or 'none'}")
        return "\n".join(out)

    emit(result, as_json, human)
