"""Discord embeds from the API's JSON: one rendering for the gateway bot and the HTTP endpoint.

Pure functions: an answer, the errata of a card or a check's result become an embed dict that
respects every Discord limit (``fit_embed``). Every label comes from ``service.presentation``,
so the bot shows a ruling exactly as the page and the CLI do.
"""
from __future__ import annotations

import copy
from typing import Any

from service.presentation import citation_label, display_title, kind_label, language_name

ELLIPSIS = "…"
# https://discord.com/developers/docs/resources/message#embed-object-embed-limits
LIMITS = {"title": 256, "description": 4096, "field_name": 256, "field_value": 1024,
          "fields": 25, "footer": 2048, "author": 256, "total": 6000}
KIND_COLORS = {"rulebook": 0x2F6F4F, "erratum": 0xA33B2B, "clarification": 0x1D5FA8,
               "edge case": 0x7A4FA3, "example": 0x6B6B2A}
DECLINED_COLOR, CHECK_COLOR = 0xB08900, 0x1F3A5F


def truncate(text: str | None, limit: int) -> str:
    """`text` cut to at most `limit` characters, ending with an ellipsis when cut."""
    text = text or ""
    if len(text) <= limit:
        return text
    return text[:max(limit - 1, 0)].rstrip() + ELLIPSIS if limit > 0 else ""


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
    return (len(embed.get("title", "")) + len(embed.get("description", ""))
            + len(embed.get("footer", {}).get("text", "")) + len(embed.get("author", {}).get("name", ""))
            + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", [])))


def fit_embed(embed: dict[str, Any]) -> dict[str, Any]:
    """A copy of `embed` within every Discord limit: parts truncated, extra fields dropped."""
    out = copy.deepcopy(embed)
    if "title" in out:
        out["title"] = truncate(out["title"], LIMITS["title"])
    if "description" in out:
        out["description"] = truncate(out["description"], LIMITS["description"])
    if "author" in out:
        out["author"]["name"] = truncate(out["author"].get("name"), LIMITS["author"])
    fields = [{"name": truncate(f["name"], LIMITS["field_name"]) or "\u200b",
               "value": truncate(f["value"], LIMITS["field_value"]) or "\u200b",
               "inline": bool(f.get("inline", False))} for f in out.get("fields", [])]
    dropped = max(len(fields) - LIMITS["fields"], 0)
    fields = fields[:LIMITS["fields"]]
    footer = out.get("footer", {}).get("text", "")
    out["fields"] = fields
    while embed_length(_with_footer(out, footer, dropped)) > LIMITS["total"] and out["fields"]:
        out["fields"].pop()
        dropped += 1
    out = _with_footer(out, footer, dropped)
    excess = embed_length(out) - LIMITS["total"]
    if excess > 0:
        out["description"] = truncate(out.get("description", ""), len(out.get("description", "")) - excess)
    if not out["fields"]:
        del out["fields"]
    return out


def _with_footer(embed: dict[str, Any], footer: str, dropped: int) -> dict[str, Any]:
    text = footer + (f" · {dropped} more not shown" if dropped else "")
    if not text:
        return embed
    return {**embed, "footer": {**embed.get("footer", {}), "text": truncate(text, LIMITS["footer"])}}


def ruling_embed(r: dict[str, Any], public_url: str | None = None) -> dict[str, Any]:
    """One ruling: original text, the labelled translation, cards, citation, permalink."""
    tr = r.get("translation")
    description = r["text"]
    if r.get("context"):
        description = f"*{kind_label((r.get('context_label') or 'context').lower())}: {r['context']}*\n\n{description}"
    fields: list[dict[str, Any]] = []
    if tr:
        value = (f"**{tr['title']}**\n" if tr.get("title") else "") + tr["text"]
        fields.append({"name": f"Translation ({language_name(tr['lang'])}): {tr['label']}", "value": value})
    fields.append({"name": "Source", "value": citation_label(r["citation"]) or "—"})
    if r.get("cards"):
        fields.append({"name": "About", "value": ", ".join(c["label"] for c in r["cards"]), "inline": True})
    embed: dict[str, Any] = {
        "title": f"{kind_label(r['kind'])}: {display_title(r)}",
        "description": description,
        "color": KIND_COLORS.get(r["kind"], CHECK_COLOR),
        "fields": fields,
        "footer": {"text": f"{r['id']} · {r['game']} · original in {language_name(r['lang'])}"},
    }
    url = permalink(public_url, r["id"], tr["lang"] if tr else None)
    if url:
        embed["url"] = url
    return embed


def match_line(m: dict[str, Any], public_url: str | None) -> str:
    """One nearest / related ruling as a bullet line."""
    tr = m.get("translation") or {}
    title = truncate(tr.get("title") or m.get("title") or tr.get("text") or m["text"], 90)
    return f"• {kind_label(m['kind'])}: {ruling_ref(m['id'], public_url, title)}"


def answer_embed(res: dict[str, Any], public_url: str | None = None) -> dict[str, Any]:
    """The answer to /v1/ask: the ruling plus related ones, or the declined state."""
    if res["declined"] or not res.get("answer"):
        return declined_embed(res, public_url)
    embed = ruling_embed(res["answer"], public_url)
    others = [m for m in res["matches"] if m["id"] != res["answer"]["id"]]
    if others:
        embed["fields"].append({"name": "Related rulings",
                                "value": "\n".join(match_line(m, public_url) for m in others)})
    return embed


def declined_embed(res: dict[str, Any], public_url: str | None = None) -> dict[str, Any]:
    """No ruling answers the question: say so, and list the nearest ones."""
    reason = f" ({res['reason']})" if res.get("reason") else ""
    text = f"Nothing in the archive answers “{res['question']}” closely enough{reason}."
    embed: dict[str, Any] = {"title": "No ruling answers this question", "description": text,
                             "color": DECLINED_COLOR, "fields": []}
    if res.get("matches"):
        embed["fields"].append({"name": "Nearest rulings",
                                "value": "\n".join(match_line(m, public_url) for m in res["matches"])})
    return embed


def errata_embed(card: str, res: dict[str, Any], public_url: str | None = None) -> dict[str, Any]:
    """The rulings about a card: one field per ruling (original, translation, source)."""
    embed: dict[str, Any] = {"title": f"Rulings about “{card}”", "color": KIND_COLORS["erratum"],
                             "fields": []}
    if not res["results"]:
        embed["description"] = "No ruling is about that card."
        return embed
    embed["description"] = "1 ruling" if res["total"] == 1 else f"{res['total']} rulings"
    for r in res["results"]:
        tr = r.get("translation")
        parts = [truncate(r["text"], 420)]
        if tr:
            parts.append(f"*Translation ({language_name(tr['lang'])}):* {truncate(tr['text'], 300)}")
        parts.append(f"— {truncate(citation_label(r['citation']), 150)} · {ruling_ref(r['id'], public_url)}")
        embed["fields"].append({"name": f"{kind_label(r['kind'])}: {display_title(r)}",
                                "value": "\n".join(parts)})
    return embed


def _value(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def damage_embed(res: dict[str, Any], public_url: str | None = None) -> dict[str, Any]:
    """The damage check: the result, then one field per step with its rulings or a note."""
    flags = [text for key, text in (("ward_removed", "Ward removed"), ("brittle_removed", "Brittle removed"),
                                    ("negated", "negated by losing a card")) if res.get(key)]
    description = f"Would suffer **{res['would_suffer']}**" + "".join(f" · {f}" for f in flags)
    fields = []
    for i, step in enumerate(res["steps"], 1):
        cites = (", ".join(ruling_ref(rid, public_url) for rid in step["rulings"])
                 if step["rulings"] else "*no ruling in the archive*")
        note = f"\n{step['note']}" if step.get("note") else ""
        fields.append({"name": f"{i}. {step['action']}", "value": f"→ **{_value(step['value'])}** · {cites}{note}"})
    return {"title": f"Damage suffered: {res['damage']}", "description": description,
            "color": CHECK_COLOR, "fields": fields,
            "footer": {"text": f"{res['game']} · rules checker"}}
