"""Discord embeds from the API's JSON: one rendering for the gateway bot and the HTTP endpoint.

Pure functions: an answer, the errata of a card or a check's result become an embed dict that
respects every Discord limit (``fit_embed``). Every label comes from ``service.presentation``,
so the bot shows a ruling exactly as the page and the CLI do, in the language each function is
given (the Discord user's; English by default). A ruling is shown its reader's language first
(``ruling_embed``): the deciding sentence the API picked (``evidence``) on top, the translation
with that sentence in bold, then the original, the authority; titles and sources in `lang`.
"""

from __future__ import annotations

import copy
from typing import Any

from service.discord.markdown import (
    LIMITS,
    bold,
    embed_length,
    escape,
    highlighted,
    permalink,
    ruling_ref,
    spans_in,
    text_room,
    truncate,
)
from service.i18n import N_, _, ngettext
from service.presentation import (
    CHECK_LABELS,
    CITATION_SEPARATOR,
    citation_label,
    context_label,
    display_title,
    kind_label,
    language_in,
    language_name,
    local_citation_parts,
    translation_label,
)

KIND_COLORS = {
    "rulebook": 0x2F6F4F,
    "erratum": 0xA33B2B,
    "clarification": 0x1D5FA8,
    "edge case": 0x7A4FA3,
    "example": 0x6B6B2A,
}
DECLINED_COLOR, CHECK_COLOR = 0xB08900, 0x1F3A5F


# -- limits ---------------------------------------------------------------------------------
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


# -- one ruling, the reader's language first -------------------------------------------------
ORIGINAL = N_("Original (%(language)s)")
#: The parts of a ruling's text (characters of markdown): the deciding sentence repeated on top,
#: the context, the original under a translation (more when there is room). A text the deciding
#: sentence leaves at most SHORT_REST characters of (a page reference) is not repeated whole.
LEAD_MAX, CONTEXT_MAX, ORIGINAL_ROOM, SHORT_REST = 600, 300, 700, 40


def local_title(r: dict[str, Any], lang: str, asked: str | None = None) -> str:
    """The ruling's title for a reader of `lang`: the API's ``display_title_local`` when it is
    in `lang` (`asked`), else alike: its translation's, its own, else its source and pages."""
    tr = r.get("translation") or {}
    return (
        (asked == lang and r.get("display_title_local"))
        or tr.get("title")
        or r.get("title")
        or ", ".join(local_citation_parts(r["citation"], lang)[:2])
        or display_title(r, lang)
    )


def local_source(cit: dict[str, Any], lang: str, asked: str | None = None) -> str:
    """The citation line for a reader of `lang`, the source's name too (the API's
    ``line_local`` when it is in `lang`; ``label_local`` keeps an English source name)."""
    return (asked == lang and cit.get("line_local")) or CITATION_SEPARATOR.join(
        local_citation_parts(cit, lang)
    )


def _labels(r: dict[str, Any], lang: str, asked: str | None) -> tuple[str, str, str | None]:
    """The kind, context and translation labels in `lang`: the API's ``*_local`` ones when they
    are in `lang` (`asked`: their language, the question's), else made here alike."""
    local = asked == lang
    kind = (local and r.get("kind_label_local")) or kind_label(r["kind"], lang)
    context = (local and r.get("context_label_local")) or context_label(
        r.get("context_label"), lang
    )
    tr = r.get("translation")
    if not tr:
        return kind, context, None
    label = (tr["lang"] == lang and tr.get("label_local")) or (
        tr["label"] if lang == "en" else translation_label(tr.get("edition_of"), lang)
    )
    return (
        kind,
        context,
        _(
            "Translation (%(language)s): %(label)s",
            lang,
            language=language_in(tr["lang"], lang),
            label=label,
        ),
    )


def ruling_text(
    r: dict[str, Any],
    lang: str,
    room: int = LIMITS["description"],
    public_url: str | None = None,
    asked: str | None = None,
) -> str:
    """A ruling's text as an embed's description, within `room` characters: the deciding
    sentence (the API's ``evidence``) in bold, then the text the reader reads first (the
    translation into their language, labelled, else the original) with that sentence bold in
    it, then under a translation the original (the authority: linked, shortened when room is
    short). Cut to fit, the text keeps the deciding sentence and shortens around it."""
    tr, ev = r.get("translation"), r.get("evidence") or {}
    text = (tr or r)["text"]
    spans = spans_in(
        text, ev.get("spans") if ev.get("shown") == ("translation" if tr else "text") else None
    )
    lead = bold(escape(truncate(ev.get("text"), LEAD_MAX).strip()))
    bounds = [0, *(i for span in spans for i in span), len(text)]  # the text around the spans
    rest = sum(len("".join(text[a:b].split())) for a, b in zip(bounds[::2], bounds[1::2]))
    whole = len(text) <= LEAD_MAX + SHORT_REST and (
        (bool(spans) and rest <= SHORT_REST) or text.strip() == (ev.get("text") or "").strip()
    )
    if whole and spans:  # the deciding sentence is (nearly) all of it: shown once, on top
        lead = highlighted(text, spans, 2 * LEAD_MAX)
    _kind, context_name, label = _labels(r, lang, asked)
    notes = [f"*{label}*"] if label else []
    context = (tr or {}).get("context") or r.get("context")
    if context:
        notes.append(f"*{context_name}: {escape(truncate(context, CONTEXT_MAX))}*")
    top = "\n\n".join(p for p in (lead, "\n".join(notes)) if p)
    if not tr:
        body = "" if whole else highlighted(text, spans, room - len(top) - 2)
        return "\n\n".join(p for p in (top, body) if p)
    url = permalink(public_url, r["id"])
    header = _(ORIGINAL, lang, language=language_in(r["lang"], lang))
    header = f"*[{header}]({url})*" if url else f"*{header}*"
    original_room = min(len(escape(r["text"])), ORIGINAL_ROOM) + len(header) + 7  # \n\n, \n>>>
    body = "" if whole else highlighted(text, spans, room - len(top) - 2 - original_room)
    shown = "\n\n".join(p for p in (top, body) if p) + f"\n\n{header}\n>>> "
    ospans = spans_in(r["text"], ev.get("spans")) if ev.get("shown") == "text" else []
    return shown + highlighted(r["text"], ospans, room - len(shown))


def ruling_embed(
    r: dict[str, Any],
    public_url: str | None = None,
    lang: str = "en",
    *,
    before: list[dict[str, Any]] | None = None,
    after: list[dict[str, Any]] | None = None,
    asked: str | None = None,
) -> dict[str, Any]:
    """One ruling in the reader's language (`lang`) first: its title, its text (``ruling_text``:
    the deciding sentence, the translation, the original) sized to leave room for the fields,
    the citation and cards (between the fields `before` and `after`), the permalink.
    `asked`: the language of the API's ``*_local`` labels."""
    tr = r.get("translation")
    kind, _context, _label = _labels(r, lang, asked)
    fields = [
        *(before or []),
        {"name": _("Source", lang), "value": local_source(r["citation"], lang, asked) or "—"},
    ]
    if r.get("cards"):
        fields.append(
            {
                "name": _("About", lang),
                "value": ", ".join(c["label"] for c in r["cards"]),
                "inline": True,
            }
        )
    fields += after or []
    original = _("original in %(language)s", lang, language=language_in(r["lang"], lang))
    embed: dict[str, Any] = {
        "title": f"{kind}: {local_title(r, lang, asked)}",
        "description": "",
        "color": KIND_COLORS.get(r["kind"], CHECK_COLOR),
        "fields": fields,
        "footer": {"text": f"{r['id']} · {r['game']} · {original}"},
    }
    url = permalink(public_url, r["id"], tr["lang"] if tr else None)
    if url:
        embed["url"] = url
    embed["description"] = ruling_text(r, lang, text_room(embed), public_url, asked)
    return embed


def match_title(m: dict[str, Any], limit: int = 90) -> str:
    """A nearest / related ruling's short title (its translation's first), cut to `limit`."""
    tr = m.get("translation") or {}
    return truncate(tr.get("title") or m.get("title") or tr.get("text") or m["text"], limit)


def match_line(m: dict[str, Any], public_url: str | None, lang: str = "en") -> str:
    """One nearest / related ruling as a bullet line."""
    title = match_title(m)
    return f"• {kind_label(m['kind'], lang)}: {ruling_ref(m['id'], public_url, title)}"


def step_line(i: int, step: dict[str, Any], public_url: str | None, lang: str) -> str:
    """One checker step: its action, value, the rulings it applies (or that none does) and its
    note, in the question's language when the API says them in it (``*_local``)."""
    cites = (
        ", ".join(ruling_ref(rid, public_url) for rid in step["rulings"])
        if step["rulings"]
        else "*" + _("no ruling in the archive", lang) + "*"
    )
    action = step.get("action_local") or step["action"]
    note = step.get("note_local") or step.get("note")
    return f"{i}. {action} → **{_value(step['value'])}** · {cites}" + (
        f" · *{note}*" if note else ""
    )


def computed_field(
    computed: dict[str, Any], public_url: str | None = None, lang: str = "en"
) -> dict[str, Any]:
    """The computed answer of an ask as an embed field: the sentence, then the cited steps,
    or what the question leaves out (the steps in the question's language when the API gives
    them, ``action_local``, else in English)."""
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
    lines += [f"*{note}*" for note in computed.get("notes_local") or computed.get("notes", [])]
    return {"name": name, "value": "\n".join(lines)}


def answer_embed(
    res: dict[str, Any], public_url: str | None = None, lang: str = "en"
) -> dict[str, Any]:
    """The answer to /v1/ask: the ruling (``ruling_embed``: its deciding sentence first, in
    the reader's language first), the computed answer its first field when there is one and
    the related rulings its last; or the declined state (the computed answer still first)."""
    computed = [computed_field(res["computed"], public_url, lang)] if res.get("computed") else []
    if res["declined"] or not res.get("answer"):
        embed = declined_embed(res, public_url, lang)
        embed["fields"][:0] = computed
        return embed
    others = [m for m in res["matches"] if m["id"] != res["answer"]["id"]]
    related = (
        [
            {
                "name": _("Related rulings", lang),
                "value": "\n".join(match_line(m, public_url, lang) for m in others),
            }
        ]
        if others
        else []
    )
    return ruling_embed(
        res["answer"], public_url, lang, before=computed, after=related, asked=res.get("lang")
    )


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
