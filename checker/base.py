"""Shared pieces of every check: the step record, the input error, small validators.

A check is a pure function from a validated request (a frozen dataclass) to a result
(a frozen dataclass); `to_dict()` turns results into the JSON the API and the CLI print.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

GAMES = ("frosthaven", "gloomhaven")
# The "game" field of every check request, for the JSON schemas.
GAME_SCHEMA = {"type": "string", "enum": list(GAMES)}


class CheckInputError(ValueError):
    """The request is invalid; the message is precise and is shown to the user (HTTP 422)."""


@dataclass(frozen=True)
class Step:
    """One step of a computation: what it did, the value after it, the rulings it applied.

    `rulings` is empty (and `note` says so) where the step rests on a rule the archive does
    not hold: we never cite an unrelated record.
    """

    action: str
    value: Any
    rulings: tuple[str, ...] = ()
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "value": self.value,
                "rulings": list(self.rulings), "note": self.note}


def rulings_used(steps: list[Step] | tuple[Step, ...]) -> list[str]:
    """All ruling ids the steps cite, in first-use order, without repeats."""
    seen: dict[str, None] = {}
    for step in steps:
        for rid in step.rulings:
            seen.setdefault(rid, None)
    return list(seen)


def require_object(payload: Any) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise CheckInputError("the request body must be a JSON object")
    return payload


def require_game(payload: dict[str, Any]) -> str:
    game = payload.get("game")
    if game not in GAMES:
        raise CheckInputError(f"'game' must be one of: {', '.join(GAMES)}")
    return game


def open_request(payload: Any, fields: set[str]) -> tuple[dict[str, Any], str]:
    """The first checks of every request: a JSON object, only known fields, a known game."""
    payload = require_object(payload)
    reject_unknown_fields(payload, fields)
    return payload, require_game(payload)


def reject_unknown_fields(payload: dict[str, Any], allowed: set[str], where: str = "request") -> None:
    unknown = sorted(set(payload) - allowed)
    if unknown:
        raise CheckInputError(f"unknown field(s) in {where}: {', '.join(unknown)}")


__all__ = ["GAMES", "GAME_SCHEMA", "CheckInputError", "Step", "rulings_used", "require_object",
           "require_game", "open_request", "reject_unknown_fields"]


# --- Helpers added for the damage / initiative / advantage / exhaustion checks. -------------
# Validators taking a full display `label` (e.g. "'figures'[2].initiative") so nested fields
# get messages as precise as top-level ones; every message ends with "(got ...)".

import json as _json

STEP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["action", "value", "rulings", "note"],
    "properties": {
        "action": {"type": "string", "description": "What the step did."},
        "value": {"description": "The value after the step."},
        "rulings": {"type": "array", "items": {"type": "string"},
                    "description": "Ids of the rulings the step applies; empty where the "
                                   "archive holds no ruling (then `note` says so)."},
        "note": {"type": ["string", "null"]},
    },
    "additionalProperties": False,
}


def shown(value: Any) -> str:
    """How a received value is quoted in error messages: 'text' for strings, JSON otherwise."""
    if isinstance(value, str):
        return repr(value)
    try:
        return _json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def check_int(value: Any, label: str, *, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """`value` as an integer within bounds (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise CheckInputError(f"{label} must be an integer (got {shown(value)})")
    if minimum is not None and value < minimum:
        raise CheckInputError(f"{label} must be at least {minimum} (got {value})")
    if maximum is not None and value > maximum:
        raise CheckInputError(f"{label} must be at most {maximum} (got {value})")
    return value


def check_bool(value: Any, label: str) -> bool:
    if not isinstance(value, bool):
        raise CheckInputError(f"{label} must be true or false (got {shown(value)})")
    return value


def check_str(value: Any, label: str) -> str:
    """A non-blank string."""
    if not isinstance(value, str):
        raise CheckInputError(f"{label} must be a string (got {shown(value)})")
    if not value.strip():
        raise CheckInputError(f"{label} must not be empty")
    return value


def check_list(value: Any, label: str, *, min_items: int = 0,
               max_items: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise CheckInputError(f"{label} must be a list (got {shown(value)})")
    if len(value) < min_items:
        raise CheckInputError(f"{label} must hold at least {min_items} item(s) (got {len(value)})")
    if max_items is not None and len(value) > max_items:
        raise CheckInputError(f"{label} must hold at most {max_items} item(s) (got {len(value)})")
    return value


def check_object(value: Any, label: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise CheckInputError(f"{label} must be an object (got {shown(value)})")
    return value


def by_game(game: str, frosthaven: tuple[str, ...], gloomhaven: tuple[str, ...]) -> tuple[str, ...]:
    """The ruling ids for `game`: Frosthaven and Gloomhaven rulings are never mixed."""
    return frosthaven if game == "frosthaven" else gloomhaven


def response(game: str, fields: dict[str, Any],
             steps: tuple[Step, ...] | list[Step]) -> dict[str, Any]:
    """The JSON response: game, the check's own fields, steps, rulings (first-use order)."""
    return {"game": game, **fields, "steps": [s.to_dict() for s in steps],
            "rulings": rulings_used(steps)}


def response_schema(title: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """RESPONSE_SCHEMA of a check: its own properties plus game / steps / rulings."""
    return {
        "title": title,
        "type": "object",
        "required": ["game", *required, "steps", "rulings"],
        "properties": {
            "game": {"type": "string", "enum": list(GAMES)},
            **properties,
            "steps": {"type": "array", "items": STEP_SCHEMA},
            "rulings": {"type": "array", "items": {"type": "string"},
                        "description": "Every ruling id the steps cite, in first-use order."},
        },
        "additionalProperties": False,
    }


__all__ += ["STEP_SCHEMA", "shown", "check_int", "check_bool", "check_str", "check_list",
            "check_object", "by_game", "response", "response_schema"]
