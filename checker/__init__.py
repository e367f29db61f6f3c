"""The rules checker: computed answers that cite the rulings each step applies.

Every check is a module with:
  - ``run(payload: dict) -> dict``: validate the JSON request (raising CheckInputError with a
    precise message), compute with frozen dataclasses, return the JSON-ready response, which
    always holds ``steps`` and ``rulings``;
  - ``REQUEST_SCHEMA`` / ``RESPONSE_SCHEMA``: JSON Schema (OpenAPI 3.1 flavour) for the docs;
  - ``EXAMPLE``: one valid request, used by the docs, the page and the tests.
No Flask in here: the service and the CLI turn CheckInputError into a 422 / a one-line error.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from checker.base import CheckInputError

# name -> module; imported lazily so the service starts fast and one broken check is contained.
CHECKS: dict[str, str] = {
    "damage": "checker.damage",
    "initiative": "checker.initiative",
    "advantage": "checker.advantage",
    "exhaustion": "checker.exhaustion",
    "monster": "checker.monster",
}


# The rulings each check computes: an answer citing one of them can offer that calculator.
CHECK_RULINGS: dict[str, frozenset[str]] = {
    "damage": frozenset({"fh-nl-3", "fh-it-3", "fh-clar-10", "fh-clar-11", "fh-clar-12",
                         "fh-clar-13", "fh-clar-15", "gh-example-null"}),
    "initiative": frozenset({"fh-nl-5", "fh-it-5", "fh-nl-6", "fh-it-6", "gh-da-2", "gh-da-5"}),
    "advantage": frozenset({"fh-clar-19", "fh-clar-20"}),
    "exhaustion": frozenset({"gh-da-1", "fh-nl-2", "fh-it-2", "fh-errata-01"}),
    "monster": frozenset({"gh-da-3", "gh-da-4", "fh-nl-4", "fh-it-4", "fh-clar-02",
                          *(f"fh-edge-{n:02d}" for n in range(1, 9))}),
}


def checks_for(ruling_id: str) -> list[str]:
    """The checks that compute what ruling `ruling_id` states."""
    return [name for name, ids in CHECK_RULINGS.items() if ruling_id in ids]


class UnknownCheck(LookupError):
    """No check of that name."""


def check_module(name: str) -> ModuleType:
    """The module implementing check `name`."""
    if name not in CHECKS:
        raise UnknownCheck(f"unknown check '{name}'; known: {', '.join(CHECKS)}")
    return importlib.import_module(CHECKS[name])


def run_check(name: str, payload: Any) -> dict[str, Any]:
    """Run check `name` on a JSON request; raises UnknownCheck or CheckInputError."""
    return check_module(name).run(payload)


__all__ = ["CHECKS", "CHECK_RULINGS", "CheckInputError", "UnknownCheck", "check_module", "checks_for",
           "run_check"]
