"""A text the schema calls blank is the text the service refuses as blank, character by
character: JSON Schema's (ECMA) \\s and Python's whitespace differ (\\x1c-\\x1f and \\x85 are
Python's, \\ufeff is ECMA's), so the documented pattern lists exactly what str.strip() drops."""

from __future__ import annotations

import re
import sys

import pytest

ODD_ONES = ["\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\ufeff", "\u200b", "\u3000", "\xa0", " \t"]


def test_the_pattern_is_python_strip_on_every_character():
    from checker.base import NOT_BLANK

    pattern = re.compile(NOT_BLANK)
    disagree = [
        hex(c)
        for c in range(sys.maxunicode + 1)
        if not 0xD800 <= c < 0xE000 and bool(pattern.fullmatch(chr(c))) != bool(chr(c).strip())
    ]
    assert disagree == []


@pytest.mark.parametrize("text", ODD_ONES)
def test_the_api_refuses_a_question_exactly_when_the_document_does(fast_client, text):
    doc = fast_client.get("/openapi.json").get_json()
    param = next(p for p in doc["paths"]["/v1/ask"]["get"]["parameters"] if p["name"] == "q")
    # No \s or \S in it: those mean other characters in ECMA regexes than in Python's, so the
    # pattern is a class listed character by character, read the same by both.
    assert not re.search(r"\\[sS]", param["schema"]["pattern"])
    schema_valid = re.search(param["schema"]["pattern"], text) is not None
    r = fast_client.get("/v1/ask", query_string={"q": text})
    assert r.status_code == (200 if schema_valid else 422), (repr(text), r.get_json())
    assert schema_valid == bool(text.strip())
