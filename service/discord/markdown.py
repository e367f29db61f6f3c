"""Discord markdown for the embeds, and Discord's limits: escaping, cutting to a length, links,
a ruling's text with its deciding sentence(s) in bold, cut around them when it is too long,
and the room an embed leaves for its description.

Pure text functions, no catalogue: the labels around them are made in ``embeds``. Every
length is counted on the markdown produced (escapes and ``**`` included), as Discord counts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

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
#: The text's room is what the title, footer and fields leave, never less than this (the last
#: fields go first then); FOOTER_ROOM: for "· 3 more not shown".
MIN_TEXT_ROOM, FOOTER_ROOM = 2000, 40
#: The characters Discord reads as markdown anywhere in a line, and at a line's start.
_INLINE = re.compile(r"([\\*_~`|])")
_LINE_START = re.compile(r"(?m)^(\s*)([>#-])")
#: A cut is moved back to a space when one is this close (no half word before the ellipsis).
_WORD_SLACK = 20


def truncate(text: str | None, limit: int) -> str:
    """`text` cut to at most `limit` characters, ending with an ellipsis when cut."""
    text = text or ""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + ELLIPSIS if limit > 0 else ""


def escape(text: str | None) -> str:
    """`text` shown as it is: no character of it read as markdown."""
    return _LINE_START.sub(r"\1\\\2", _INLINE.sub(r"\\\1", text or ""))


def bold(markdown: str) -> str:
    return f"**{markdown}**" if markdown else ""


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


def spans_in(text: str, spans: Iterable[Mapping[str, Any]] | None) -> list[tuple[int, int]]:
    """The evidence's spans that really are in `text` (in order, none overlapping)."""
    found: list[tuple[int, int]] = []
    for span in spans or []:
        start, end = span.get("start"), span.get("end")
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
            continue
        found.append((start, end))
    kept: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if not kept or start >= kept[-1][1]:
            kept.append((start, end))
    return kept


def _marked(text: str, spans: list[tuple[int, int]], start: int, end: int) -> str:
    """text[start:end] escaped, each span in it bold."""
    out, at = [], start
    for a, b in spans:
        if a < start or b > end:
            continue
        out += [escape(text[at:a]), bold(escape(text[a:b]))]
        at = b
    out.append(escape(text[at:end]))
    return "".join(out)


def head(raw: str, room: int) -> str:
    """The start of `raw`, escaped, within `room` characters (an ellipsis ends a cut)."""
    if len(escape(raw)) <= room:
        return escape(raw)
    n = room - 1
    while n > 0:
        cut = raw[:n]
        space = cut.rfind(" ")
        if space >= max(n - _WORD_SLACK, 1):
            cut = cut[:space]
        md = escape(cut.rstrip()) + ELLIPSIS
        if len(md) <= room:
            return md
        n -= len(md) - room
    return ELLIPSIS if room >= 1 else ""


def tail(raw: str, room: int) -> str:
    """The end of `raw`, escaped, within `room` characters (an ellipsis starts a cut)."""
    if len(escape(raw)) <= room:
        return escape(raw)
    n = room - 1
    while n > 0:
        cut = raw[len(raw) - n :]
        space = cut.find(" ")
        if 0 <= space <= _WORD_SLACK and space < len(cut) - 1:
            cut = cut[space + 1 :]
        md = ELLIPSIS + escape(cut.lstrip())
        if len(md) <= room:
            return md
        n -= len(md) - room
    return ELLIPSIS if room >= 1 else ""


def highlighted(text: str, spans: list[tuple[int, int]], room: int) -> str:
    """`text` as markdown with `spans` bold, within `room` characters: when it is too long,
    the spans are kept whole and the text around them is shortened (ellipses where it is cut);
    only spans longer than `room` themselves are cut, keeping their start."""
    whole = _marked(text, spans, 0, len(text))
    if len(whole) <= room or not spans:
        return whole if len(whole) <= room else head(text, room)
    start, end = spans[0][0], spans[-1][1]
    core = _marked(text, spans, start, end)
    before, after = text[:start].rstrip(), text[end:].lstrip()
    gap_before = " " if before else ""
    gap_after = " " if after else ""
    spare = room - len(core) - len(gap_before) - len(gap_after)
    if spare < 2 * len(ELLIPSIS):
        lead = ELLIPSIS if start else ""
        return lead + bold(head(text[start:end], room - len(lead) - 4))
    # Half the room on each side; what one side does not use goes to the other.
    first = tail(before, spare // 2) if before else ""
    last = head(after, spare - len(first)) if after else ""
    if before and len(first) < len(escape(before)):
        first = tail(before, spare - len(last))
    return f"{first}{gap_before if first else ''}{core}{gap_after if last else ''}{last}"


# -- Discord's limits -------------------------------------------------------------------
def embed_length(embed: dict[str, Any]) -> int:
    """The characters Discord counts toward the 6000 total."""
    return (
        len(embed.get("title", ""))
        + len(embed.get("description", ""))
        + len(embed.get("footer", {}).get("text", ""))
        + len(embed.get("author", {}).get("name", ""))
        + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))
    )


def text_room(embed: dict[str, Any]) -> int:
    """The characters left for the description once the title, footer and fields are in."""
    used = (
        min(len(embed["title"]), LIMITS["title"])
        + len(embed["footer"]["text"])
        + FOOTER_ROOM
        + sum(
            min(len(f["name"]), LIMITS["field_name"]) + min(len(f["value"]), LIMITS["field_value"])
            for f in embed["fields"][: LIMITS["fields"]]
        )
    )
    return max(min(LIMITS["description"], LIMITS["total"] - used), MIN_TEXT_ROOM)
