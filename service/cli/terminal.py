"""How the CLI prints rulings, computed answers and checker steps for a terminal."""

from __future__ import annotations

import json
import textwrap

import click

from service.presentation import step_citation


def _wrap(text: str, indent: str = "  ") -> str:
    return textwrap.fill(text, width=96, initial_indent=indent, subsequent_indent=indent)


def format_ruling(r: dict, score: float | None = None) -> str:
    """A ruling for the terminal: header, citation, original text, translation below it."""
    head = f"[{r['id']}] {r['kind']} · {r['game']} · {r['lang']}" + (
        f" · score {score:.4f}" if score is not None else ""
    )
    lines = [click.style(head, bold=True), f"  {r['display_title']}"]
    if r.get("context"):
        lines.append(_wrap(f"{r['context_label']}: {r['context']}"))
    lines.append(_wrap(r["text"]))
    if r.get("translation"):
        tr = r["translation"]
        lines.append(click.style(f"  Translation ({tr['lang']}, {tr['label']}):", dim=True))
        lines.append(_wrap(tr["text"], "    "))
    if r["cards"]:
        lines.append(f"  Cards: {', '.join(c['label'] for c in r['cards'])}")
    lines.append(f"  Source: {r['citation']['label']}")
    return "\n".join(lines)


def format_computed(computed: dict | None) -> str | None:
    """A computed answer for the terminal: the sentence, the cited steps, what is missing."""
    if not computed:
        return None
    out = [click.style(f"Computed ({computed['check']}): ", bold=True) + computed["summary"]]
    if computed["missing"]:
        out.append(
            click.style("Not in the question: ", fg="yellow") + ", ".join(computed["missing"])
        )
        out.append(
            f"Fill it in: rulings check {computed['check']} with "
            + json.dumps(computed["input"], ensure_ascii=False)
        )
    out += format_steps((computed.get("result") or {}).get("steps", []))
    out += [f"    note: {note}" for note in computed.get("notes", [])]
    return "\n".join(out)


def format_steps(steps: list[dict]) -> list[str]:
    """A checker's steps, one numbered line each with its citation, and their notes."""
    out = []
    for i, step in enumerate(steps, 1):
        cites = f" [{step_citation(step['rulings'])}]"
        out.append(
            f"{i:2}. {step['action']} -> {json.dumps(step['value'], ensure_ascii=False)}{cites}"
        )
        if step.get("note"):
            out.append(f"      note: {step['note']}")
    return out
