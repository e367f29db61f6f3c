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


__all__ = ["CHECKS", "CheckInputError", "UnknownCheck", "check_module", "run_check"]
