"""Discord embeds from the API's JSON: one rendering for the gateway bot and the HTTP endpoint.

Pure functions: an answer, the errata of a card or a check's result become an embed dict that
respects every Discord limit (``fit_embed``). Every label comes from ``service.presentation``,
so the bot shows a ruling exactly as the page and the CLI do, in the language each function is
given (the Discord user's; English by default).
"""

from __future__ import annotations

import copy
from typing import Any

from service.i18n import N_, _, ngettext
from service.presentation import (
    CHECK_LABELS,
    citation_label,
    context_label,
    display_title,
    kind_label,
    language_name,
    translation_label,
)

ELLIPSIS = "…"
# https://discord.com/developers/docs/resources/message#embed-object-embed-limits
LIMITS = {
    "title": 256,
    "description": 4096,
    "field_name": 256,
    "field_value": 1024,
    "fields": 25,
    "footer": 2048,
    "author": 256,
    "total": 6000,
}
KIND_COLORS = {
    "rulebook": 0x2F6F4F,
    "erratum": 0xA33B2B,
    "clarification": 0x1D5FA8,
    "edge case": 0x7A4FA3,
    "example": 0x6B6B2A,
}
DECLINED_COLOR, CHECK_COLOR = 0xB08900, 0x1F3A5F


def truncate(text: str | None, limit: int) -> str:
    """`text` cut to at most `limit` characters, ending with an ellipsis when cut."""
    text = text or ""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + ELLIPSIS if limit > 0 else ""


def permalink(public_url: str | None, record_id: str, lang: str | None = None) -> str | None:
    """The page's URL for a ruling, or None without a public URL."""
    if not public_url:
        return None
    return f"{public_url.rstrip('/')}/r/{record_id}" + (f"?lang={lang}" if lang else "")


def ruling_ref(record_id: str, public_url: str | None, label: str | None = None) -> str:
    """A ruling id as a markdown link when a public URL is set, else as code."""
    url = permalink(public_url, record_id)
    text = label or record_id
    return f"[{text}]({url})" if url else (f"{text} (`{record_id}`)" if label else f"`{record_id}`")


# -- limits ---------------------------------------------------------------------------------
def embed_length(embed: dict[str, Any]) -> int:
    """The characters Discord counts toward the 6000 total."""
    return (
        len(embed.get("title", ""))
        + len(embed.get("description", ""))
        + len(embed.get("footer", {}).get("text", ""))
        + len(embed.get("author", {}).get("name", ""))
        + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))
    )


def fit_embed(embed: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """A copy of `embed` within every Discord limit: parts truncated, extra fields dropped."""
    out = copy.deepcopy(embed)
    if "title" in out:
        out["title"] = truncate(out["title"], LIMITS["title"])
    if "description" in out:
        out["description"] = truncate(out["description"], LIMITS["description"])
    if "author" in out:
        out["author"]["name"] = truncate(out["author"].get("name"), LIMITS["author"])
    fields = [
        {
            "name": truncate(f["name"], LIMITS["field_name"]) or "\u200b",
            "value": truncate(f["value"], LIMITS["field_value"]) or "\u200b",
            "inline": bool(f.get("inline", False)),
        }
        for f in out.get("fields", [])
    ]
    dropped = max(len(fields) - LIMITS["fields"], 0)
    fields = fields[: LIMITS["fields"]]
    footer = out.get("footer", {}).get("text", "")
    out["fields"] = fields
    while (
        embed_length(_with_footer(out, footer, dropped, lang)) > LIMITS["total"] and out["fields"]
    ):
        out["fields"].pop()
        dropped += 1
    out = _with_footer(out, footer, dropped, lang)
    excess = embed_length(out) - LIMITS["total"]
    if excess > 0:
        out["description"] = truncate(
            out.get("description", ""), len(out.get("description", "")) - excess
        )
    if not out["fields"]:
        del out["fields"]
    return out


def _with_footer(embed: dict[str, Any], footer: str, dropped: int, lang: str) -> dict[str, Any]:
    more = (
        ngettext("%(n)d more not shown", "%(n)d more not shown", dropped, lang) if dropped else ""
    )
    text = " · ".join(part for part in (footer, more) if part)
    if not text:
        return embed
    return {
        **embed,
        "footer": {**embed.get("footer", {}), "text": truncate(text, LIMITS["footer"])},
    }


def ruling_embed(
    r: dict[str, Any], public_url: str | None = None, lang: str = "en"
) -> dict[str, Any]:
    """One ruling: original text, the labelled translation, cards, citation, permalink."""
    tr = r.get("translation")
    description = r["text"]
    if r.get("context"):
        description = (
            f"*{context_label(r.get('context_label'), lang)}: {r['context']}*\n\n{description}"
        )
    fields: list[dict[str, Any]] = []
    if tr:
        value = (f"**{tr['title']}**\n" if tr.get("title") else "") + tr["text"]
        label = tr["label"] if lang == "en" else translation_label(tr.get("edition_of"), lang)
        fields.append(
            {
                "name": _(
                    "Translation (%(language)s): %(label)s",
                    lang,
                    language=language_name(tr["lang"]),
                    label=label,
                ),
                "value": value,
            }
        )
    fields.append({"name": _("Source", lang), "value": citation_label(r["citation"], lang) or "—"})
    if r.get("cards"):
        fields.append(
            {
                "name": _("About", lang),
                "value": ", ".join(c["label"] for c in r["cards"]),
                "inline": True,
            }
        )
    original = _("original in %(language)s", lang, language=language_name(r["lang"]))
    embed: dict[str, Any] = {
        "title": f"{kind_label(r['kind'], lang)}: {display_title(r, lang)}",
        "description": description,
        "color": KIND_COLORS.get(r["kind"], CHECK_COLOR),
        "fields": fields,
        "footer": {"text": f"{r['id']} · {r['game']} · {original}"},
    }
    url = permalink(public_url, r["id"], tr["lang"] if tr else None)
    if url:
        embed["url"] = url
    return embed


def match_line(m: dict[str, Any], public_url: str | None, lang: str = "en") -> str:
    """One nearest / related ruling as a bullet line."""
    tr = m.get("translation") or {}
    title = truncate(tr.get("title") or m.get("title") or tr.get("text") or m["text"], 90)
    return f"• {kind_label(m['kind'], lang)}: {ruling_ref(m['id'], public_url, title)}"


def step_line(i: int, step: dict[str, Any], public_url: str | None, lang: str) -> str:
    """One checker step: its action, value and the rulings it applies (or that none does)."""
    cites = (
        ", ".join(ruling_ref(rid, public_url) for rid in step["rulings"])
        if step["rulings"]
        else "*" + _("no ruling in the archive", lang) + "*"
    )
    return f"{i}. {step['action']} → **{_value(step['value'])}** · {cites}"


def computed_field(
    computed: dict[str, Any], public_url: str | None = None, lang: str = "en"
) -> dict[str, Any]:
    """The computed answer of an ask as an embed field: the sentence, then the cited steps,
    or what the question leaves out (the steps' own text is the checker's, in English)."""
    name = _(
        "Computed from your question (%(check)s)",
        lang,
        check=_(CHECK_LABELS.get(computed["check"], computed["check"]), lang),
    )
    lines = [f"**{computed['summary']}**"]
    if computed["missing"]:
        lines.append(
            _(
                "Not in the question: %(fields)s. Nothing is guessed.",
                lang,
                fields=", ".join(computed["missing"]),
            )
        )
    if computed.get("result"):
        lines += [
            step_line(i, step, public_url, lang)
            for i, step in enumerate(computed["result"]["steps"], 1)
        ]
    lines += [f"*{note}*" for note in computed.get("notes", [])]
    return {"name": name, "value": "\n".join(lines)}


def answer_embed(
    res: dict[str, Any], public_url: str | None = None, lang: str = "en"
) -> dict[str, Any]:
    """The answer to /v1/ask: the computed answer first when there is one, then the ruling
    plus related ones, or the declined state."""
    embed = _ruling_or_declined(res, public_url, lang)
    if res.get("computed"):
        embed["fields"].insert(0, computed_field(res["computed"], public_url, lang))
    return embed


def _ruling_or_declined(res: dict[str, Any], public_url: str | None, lang: str) -> dict[str, Any]:
    if res["declined"] or not res.get("answer"):
        return declined_embed(res, public_url, lang)
    embed = ruling_embed(res["answer"], public_url, lang)
    others = [m for m in res["matches"] if m["id"] != res["answer"]["id"]]
    if others:
        embed["fields"].append(
            {
                "name": _("Related rulings", lang),
                "value": "\n".join(match_line(m, public_url, lang) for m in others),
            }
        )
    return embed


def declined_embed(
    res: dict[str, Any], public_url: str | None = None, lang: str = "en"
) -> dict[str, Any]:
    """No ruling answers the question: say so, and list the nearest ones."""
    reason = f" ({_(res['reason'], lang)})" if res.get("reason") else ""
    text = (
        _(
            "Nothing in the archive answers “%(question)s” closely enough",
            lang,
            question=res["question"],
        )
        + f"{reason}."
    )
    embed: dict[str, Any] = {
        "title": _("No ruling answers this question", lang),
        "description": text,
        "color": DECLINED_COLOR,
        "fields": [],
    }
    if res.get("matches"):
        embed["fields"].append(
            {
                "name": _("Nearest rulings", lang),
                "value": "\n".join(match_line(m, public_url, lang) for m in res["matches"]),
            }
        )
    return embed


def errata_embed(
    card: str, res: dict[str, Any], public_url: str | None = None, lang: str = "en"
) -> dict[str, Any]:
    """The rulings about a card: one field per ruling (original, translation, source)."""
    embed: dict[str, Any] = {
        "title": _("Rulings about “%(card)s”", lang, card=card),
        "color": KIND_COLORS["erratum"],
        "fields": [],
    }
    if not res["results"]:
        embed["description"] = _("No ruling is about that card.", lang)
        return embed
    embed["description"] = ngettext("%(n)d ruling", "%(n)d rulings", res["total"], lang)
    for r in res["results"]:
        tr = r.get("translation")
        parts = [truncate(r["text"], 420)]
        if tr:
            label = _("Translation (%(language)s):", lang, language=language_name(tr["lang"]))
            parts.append(f"*{label}* {truncate(tr['text'], 300)}")
        parts.append(
            f"— {truncate(citation_label(r['citation'], lang), 150)} · {ruling_ref(r['id'], public_url)}"
        )
        embed["fields"].append(
            {
                "name": f"{kind_label(r['kind'], lang)}: {display_title(r, lang)}",
                "value": "\n".join(parts),
            }
        )
    return embed


def _value(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


DAMAGE_FLAGS = (
    ("ward_removed", N_("Ward removed")),
    ("brittle_removed", N_("Brittle removed")),
    ("negated", N_("negated by losing a card")),
)


def damage_embed(
    res: dict[str, Any], public_url: str | None = None, lang: str = "en"
) -> dict[str, Any]:
    """The damage check: the result, then one field per step with its rulings or a note.

    The steps' own text comes from the rules checker, in English."""
    flags = [_(text, lang) for key, text in DAMAGE_FLAGS if res.get(key)]
    description = _("Would suffer **%(damage)s**", lang, damage=res["would_suffer"]) + "".join(
        f" · {f}" for f in flags
    )
    fields = []
    for i, step in enumerate(res["steps"], 1):
        cites = (
            ", ".join(ruling_ref(rid, public_url) for rid in step["rulings"])
            if step["rulings"]
            else "*" + _("no ruling in the archive", lang) + "*"
        )
        note = f"\n{step['note']}" if step.get("note") else ""
        fields.append(
            {
                "name": f"{i}. {step['action']}",
                "value": f"→ **{_value(step['value'])}** · {cites}{note}",
            }
        )
    return {
        "title": _("Damage suffered: %(damage)s", lang, damage=res["damage"]),
        "description": description,
        "color": CHECK_COLOR,
        "fields": fields,
        "footer": {"text": f"{res['game']} · " + _("rules checker", lang)},
    }
