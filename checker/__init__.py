"""The rules checker: computed answers that cite the rulings each step applies.

Every check is a module with:
  - ``Request`` / ``Response``-like pydantic models (``parse`` validates a JSON request into
    the request model, raising CheckInputError with a precise message; the response is built
    through the response model), from which ``REQUEST_SCHEMA`` / ``RESPONSE_SCHEMA`` come;
  - ``run(payload: dict) -> dict``: validate, compute, return the JSON-ready response, which
    always holds ``steps`` and ``rulings`` (``parse`` and ``compute`` are the two halves: the
    result's steps are sentences, ``checker.message``, said in English by ``run``);
  - ``RULINGS``: every ruling id the check applies (and may cite), declared once;
  - ``EXAMPLE``: one valid request, used by the docs, the page and the tests.
No Flask in here: the service and the CLI turn CheckInputError into a 422 / a one-line error.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

from checker.base import CheckInputError, with_local
from checker.message import Translate
from indexer.errors import NotFound

# name -> module; imported on first use (one broken check does not stop the others loading).
CHECKS: dict[str, str] = {
    "damage": "checker.damage",
    "initiative": "checker.initiative",
    "advantage": "checker.advantage",
    "exhaustion": "checker.exhaustion",
    "monster": "checker.monster",
}

#: The result fields that are sentences, said in the asker's language as ``<field>_local``.
LOCAL_FIELDS = ("explanation",)


class UnknownCheck(NotFound):
    """No check of that name (HTTP 404)."""


def check_module(name: str) -> ModuleType:
    """The module implementing check `name`."""
    if name not in CHECKS:
        raise UnknownCheck(f"unknown check '{name}'; known: {', '.join(CHECKS)}")
    return importlib.import_module(CHECKS[name])


@cache
def check_rulings() -> dict[str, frozenset[str]]:
    """Check name -> the ruling ids it applies, as each check module declares them."""
    return {name: check_module(name).RULINGS for name in CHECKS}


def checks_for(ruling_id: str) -> list[str]:
    """The checks that compute what ruling `ruling_id` states."""
    return [name for name, ids in check_rulings().items() if ruling_id in ids]


def run_check(name: str, payload: Any, translate: Translate | None = None) -> dict[str, Any]:
    """Run check `name` on a JSON request; raises UnknownCheck or CheckInputError.

    With `translate` (msgid -> one language's template, checker.message), every step also says
    its action and note in that language (``action_local``, ``note_local``) and the monster its
    explanation (``explanation_local``); the English fields are the same either way.
    """
    module = check_module(name)
    if translate is None:
        return module.run(payload)
    result = module.compute(module.parse(payload))
    texts = {field: getattr(result, field) for field in LOCAL_FIELDS if hasattr(result, field)}
    return with_local(result.to_dict(), result.steps, translate, **texts)


__all__ = [
    "CHECKS",
    "CheckInputError",
    "UnknownCheck",
    "check_module",
    "check_rulings",
    "checks_for",
    "run_check",
]
