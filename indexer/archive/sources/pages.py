"""Page references as rulebook editions print them: "(p. 38)", "(pagg. 21, 13–14)", "(side 29–30)"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass

# "(p. 38)", "(pp. 18, 20, 34)", "(pag. 31)", "(pagg. 21, 13–14)", "(side 28)", "(S. 12–13)",
# "(pág. 5)", "(págs. 5, 7)": the word, then numbers, commas and ranges with any dash.
PAGE_REF = re.compile(
    r"\((?P<word>pp?|pagg?|págs?|pags?|side|sider|S|Seite|Seiten)\.?\s*"
    r"(?P<pages>\d+(?:\s*[-–—]\s*\d+)?(?:\s*,\s*\d+(?:\s*[-–—]\s*\d+)?)*)\)",
    re.IGNORECASE,
)


def normalise_pages(printed: str) -> list[str]:
    """'18, 20, 34' -> ['18', '20', '34']; '25–27' -> ['25-27'] (pages kept as printed)."""
    parts = [re.sub(r"\s*[-–—]\s*", "-", p.strip()) for p in printed.split(",")]
    return [p for p in parts if p]


def page_refs(text: str) -> tuple[list[str], list[str]]:
    """All page references in a paragraph: (pages without repeats, references as printed)."""
    pages: list[str] = []
    printed: list[str] = []
    for m in PAGE_REF.finditer(text):
        if m.group(0) not in printed:
            printed.append(m.group(0))
        for page in normalise_pages(m.group("pages")):
            if page not in pages:
                pages.append(page)
    return pages, printed
