"""Shared pieces of every check: the step record, the input error, small validators.

A check is a pure function from a validated request (a frozen dataclass) to a result
(a frozen dataclass); `to_dict()` turns results into the JSON the API and the CLI print.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

GAMES = ("frosthaven", "gloomhaven")


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


def require_int(payload: dict[str, Any], name: str, *, minimum: int | None = None,
                maximum: int | None = None, default: Any = ..., allow_none: bool = False) -> Any:
    """An integer field (booleans refused), with bounds; `default` when absent."""
    if name not in payload:
        if default is ...:
            raise CheckInputError(f"'{name}' is required")
        return default
    value = payload[name]
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise CheckInputError(f"'{name}' must be an integer")
    if minimum is not None and value < minimum:
        raise CheckInputError(f"'{name}' must be at least {minimum}")
    if maximum is not None and value > maximum:
        raise CheckInputError(f"'{name}' must be at most {maximum}")
    return value


def require_bool(payload: dict[str, Any], name: str, *, default: bool = False) -> bool:
    value = payload.get(name, default)
    if not isinstance(value, bool):
        raise CheckInputError(f"'{name}' must be true or false")
    return value


def reject_unknown_fields(payload: dict[str, Any], allowed: set[str], where: str = "request") -> None:
    unknown = sorted(set(payload) - allowed)
    if unknown:
        raise CheckInputError(f"unknown field(s) in {where}: {', '.join(unknown)}")


__all__ = ["GAMES", "CheckInputError", "Step", "rulings_used", "require_object", "require_game",
           "require_int", "require_bool", "reject_unknown_fields", "asdict", "dataclass", "field"]
