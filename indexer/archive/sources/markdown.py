"""A FAQ or rules page a community keeps in Markdown, read into blocks: its headings are the
sections, each paragraph or list item a block, a block quote a boxed note (markdown-it-py,
CommonMark). Markdown prints no pages: its blocks cite the section alone."""

from __future__ import annotations

import hashlib
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from indexer.archive.sources.document import SECTION_SEPARATOR, Block, Document


def read_markdown(path: Path) -> Document:
    """The blocks of a Markdown file; a first-level heading at the very top is its title."""
    raw = Path(path).read_bytes()
    tokens = MarkdownIt("commonmark").parse(raw.decode("utf-8"))
    title: str | None = None
    path_: list[str] = []
    blocks: list[Block] = []
    quote_depth = 0
    box: Block | None = None
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            level = int(token.tag[1:])
            text = _inline(tokens[i + 1])
            if level == 1 and title is None and not blocks and not path_:
                title = text
                continue
            path_ = path_[: max(level - 2, 0)] + [text]
        elif token.type == "blockquote_open":
            quote_depth += 1
            if quote_depth == 1:
                box = Block("box", "", None, SECTION_SEPARATOR.join(path_))
                blocks.append(box)
        elif token.type == "blockquote_close":
            quote_depth -= 1
            if quote_depth == 0:
                box = None
        elif token.type == "inline" and tokens[i - 1].type == "paragraph_open":
            text = _inline(token)
            if box is not None:
                head, rest = (
                    _bold_head(token) if box.title is None and not box.text else (None, text)
                )
                box.title = head or box.title
                box.text = f"{box.text} {rest}".strip()
            else:
                blocks.append(Block("paragraph", text, None, SECTION_SEPARATOR.join(path_)))
    return Document(
        title=title,
        blocks=[b for b in blocks if b.text],
        sha256=hashlib.sha256(raw).hexdigest(),
        file_name=Path(path).name,
    )


def _inline(token: Token) -> str:
    """An inline token's plain text (emphasis, links and code kept as their words)."""
    if not token.children:
        return " ".join(token.content.split())
    parts = [
        " " if child.type in ("softbreak", "hardbreak") else child.content
        for child in token.children
        if child.type in ("text", "code_inline", "softbreak", "hardbreak")
    ]
    return " ".join("".join(parts).split())


def _bold_head(token: Token) -> tuple[str | None, str]:
    """A paragraph opening with a bold line (a box's title): (that title, the rest)."""
    children = [c for c in token.children or () if not (c.type == "text" and not c.content)]
    kinds = [c.type for c in children]
    if not kinds or kinds[0] != "strong_open" or "strong_close" not in kinds:
        return None, _inline(token)
    end = kinds.index("strong_close")
    if end + 1 < len(kinds) and kinds[end + 1] not in ("softbreak", "hardbreak"):
        return None, _inline(token)  # a bold lead term inside the text, not a title line
    title = " ".join("".join(c.content for c in children[1:end]).split())
    rest = Token("inline", "", 0, children=children[end + 1 :])
    return title, _inline(rest)
