"""Shared pieces of every check: request and response models, the step record, the input error.

A check is a pure function from a validated request to a result. Each check declares its
request and its response once, as pydantic models (``CheckModel`` subclasses): the same model
validates the JSON a client sends and gives the JSON Schema the OpenAPI document publishes, so
the two cannot drift apart. Validation errors become one ``CheckInputError`` whose message names
the field exactly as the client wrote it (``'figures'[2].initiative must be at most 99 (got
100)``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StrictStr,
    ValidationError,
)
from pydantic.json_schema import GenerateJsonSchema

from checker.message import Sentence, Translate, render
from indexer.errors import InvalidRequest

if TYPE_CHECKING:
    from pydantic.json_schema import JsonSchemaMode
    from pydantic_core import ErrorDetails

#: The games the rules checker computes for (their ids in rulings/games.yaml).
Game = Literal["frosthaven", "gloomhaven"]
GAMES: tuple[str, ...] = get_args(Game)
GAME_MESSAGE = f"'game' must be one of: {', '.join(GAMES)}"


class CheckInputError(InvalidRequest):
    """The request is invalid; the message is precise and is shown to the user (HTTP 422)."""


class FieldProblem(ValueError):
    """Raised by a model validator about one field below the model (or a path from the root).

    `path` is relative to the model the validator belongs to; the message is completed with the
    field's label, e.g. FieldProblem(("initiative",), "is required for a monster").
    """

    def __init__(self, path: tuple[str | int, ...], text: str):
        super().__init__(text)
        self.path, self.text = path, text


def _integral(value: Any) -> Any:
    # JSON Schema counts 31.0 as an integer, so a client generated from the document may send
    # it; a fractional number, a string or a boolean is still refused by the strict int below.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: An integer as JSON means it (31 and 31.0; never true, "31" or 31.5).
Int = Annotated[int, Strict(), BeforeValidator(_integral)]
#: A character Python's str.strip() keeps: the pattern of a text that is not blank, written so
#: that JSON Schema (ECMA \s differs from Python's whitespace: \x1c-\x1f, \x85 are Python's,
#: \ufeff is ECMA's), pydantic and the service's own checks agree on every character.
NOT_BLANK = (
    "[^\t\n\v\f\r \u001c-\u001f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
)
#: A string with at least one non-space character.
Text = Annotated[StrictStr, Field(min_length=1, pattern=NOT_BLANK)]
Bool = StrictBool


class CheckModel(BaseModel):
    """Base of every check request: unknown fields refused, values never coerced."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    #: A fixed message for a field, whatever is wrong with it (the field's label -> message).
    field_messages: ClassVar[dict[str, str]] = {"'game'": GAME_MESSAGE}


class CheckRequest(CheckModel):
    """A check request: always for one game."""

    game: Game = Field(description="The game whose rules apply: frosthaven or gloomhaven.")


M = TypeVar("M", bound=CheckModel)

_CONSTRAINTS = {
    "ge": "minimum",
    "le": "maximum",
    "gt": "exclusiveMinimum",
    "lt": "exclusiveMaximum",
}


def _standard_keywords(node: Any) -> Any:
    # pydantic writes a constraint on `Int | None` (a validator-wrapped int inside a union) as
    # its own "ge"/"le" instead of JSON Schema's "minimum"/"maximum": put the standard words.
    if isinstance(node, dict):
        out = {k: _standard_keywords(v) for k, v in node.items()}
        if out.get("type") in ("integer", "number"):
            for short, keyword in _CONSTRAINTS.items():
                if short in out:
                    out[keyword] = out.pop(short)
        return out
    if isinstance(node, list):
        return [_standard_keywords(v) for v in node]
    return node


class JsonSchema(GenerateJsonSchema):
    """pydantic's JSON Schema generator with standard constraint keywords everywhere."""

    def generate(self, schema, mode="validation"):
        return _standard_keywords(super().generate(schema, mode))

    def generate_definitions(self, inputs):
        keys, defs = super().generate_definitions(inputs)
        return keys, _standard_keywords(defs)


def json_schema(model: type[BaseModel], mode: JsonSchemaMode = "validation") -> dict[str, Any]:
    """The JSON Schema of a request or response model."""
    return model.model_json_schema(mode=mode, schema_generator=JsonSchema)


def parse_request(model: type[M], payload: Any) -> M:
    """`payload` validated as `model`, or CheckInputError naming the first problem."""
    try:
        return model.model_validate(payload)
    except ValidationError as exc:
        raise CheckInputError(first_problem(exc, model.field_messages)) from None


# --- turning pydantic errors into one readable line ---------------------------------------


def shown(value: Any) -> str:
    """How a received value is quoted in error messages: 'text' for strings, JSON otherwise."""
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def label(loc: tuple[str | int, ...]) -> str:
    """('figures', 0, 'initiative') -> "'figures'[0].initiative"."""
    if not loc:
        return "request"
    out = f"'{loc[0]}'"
    for part in loc[1:]:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _expected(ctx: dict[str, Any]) -> str:
    return ", ".join(re.findall(r"'([^']*)'", str(ctx.get("expected", ""))))


def _join(name: str, text: str) -> str:
    """A field's label and what is wrong with it ("'x' must ...", "'x': N in ...")."""
    return f"{name}{text}" if text.startswith(":") else f"{name} {text}"


def _message(err: ErrorDetails) -> str:
    loc, kind, ctx, value = tuple(err["loc"]), err["type"], err.get("ctx") or {}, err.get("input")
    name = label(loc)
    cause = ctx.get("error")
    if isinstance(cause, FieldProblem):
        return _join(label(loc + cause.path), cause.text) if loc + cause.path else cause.text
    if kind == "value_error":
        # A model-level validator speaks for the whole request: its text is the message.
        return str(cause) if not loc else _join(name, str(cause))
    simple = {
        "missing": "is required",
        "int_type": f"must be an integer (got {shown(value)})",
        "int_from_float": f"must be an integer (got {shown(value)})",
        "bool_type": f"must be true or false (got {shown(value)})",
        "string_type": f"must be a string (got {shown(value)})",
        "string_too_short": "must not be empty",
        "string_pattern_mismatch": "must not be empty",
        "list_type": f"must be a list (got {shown(value)})",
        "tuple_type": f"must be a list (got {shown(value)})",
        "greater_than_equal": f"must be at least {ctx.get('ge')} (got {shown(value)})",
        "less_than_equal": f"must be at most {ctx.get('le')} (got {shown(value)})",
        "too_short": f"must hold at least {ctx.get('min_length')} item(s) (got {ctx.get('actual_length')})",
        "too_long": f"must hold at most {ctx.get('max_length')} item(s) (got {ctx.get('actual_length')})",
        "literal_error": f"must be one of: {_expected(ctx)} (got {shown(value)})",
    }
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return (
            f"{name} must be an object (got {shown(value)})"
            if loc
            else "the request body must be a JSON object"
        )
    if kind in simple:
        return f"{name} {simple[kind]}"
    return f"{name}: {err['msg']}"


def _in_order(errors: list[ErrorDetails]) -> list[ErrorDetails]:
    """Errors in the order a reader checks a request: for every object, its unknown fields
    first (pydantic reports them last), then its fields in the order the model declares them."""
    out: list[ErrorDetails] = []
    for err in errors:
        if err["type"] != "extra_forbidden":
            out.append(err)
            continue
        parent = tuple(err["loc"][:-1])
        first = next(
            (i for i, e in enumerate(out) if tuple(e["loc"][: len(parent)]) == parent), len(out)
        )
        out.insert(first, err)
    return out


def _unknown_in(where: str, names: list[str]) -> str:
    return f"unknown field(s) in {where}: {', '.join(names)}"


def first_problem(
    exc: ValidationError,
    field_messages: dict[str, str] | None = None,
    *,
    unknown: Callable[[str, list[str]], str] = _unknown_in,
) -> str:
    """The message of the first problem of a validation error.

    `field_messages` gives a fixed message for a field whatever is wrong with it; `unknown`
    words the unknown-fields message from the object's label and the sorted field names.
    """
    errors = _in_order(exc.errors())
    first = errors[0]
    if first["type"] == "extra_forbidden":
        parent = tuple(first["loc"][:-1])
        names = sorted(
            str(e["loc"][-1])
            for e in errors
            if e["type"] == "extra_forbidden" and tuple(e["loc"][:-1]) == parent
        )
        return unknown(label(parent), names)
    fixed = (field_messages or {}).get(label(tuple(first["loc"])))
    return fixed or _message(first)


# --- steps and responses --------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One step of a computation: what it did, the value after it, the rulings it applied.

    `rulings` is empty (and `note` says so) where the step rests on a rule the archive does
    not hold: we never cite an unrelated record. `action` and `note` are sentences
    (checker.message): English in `to_dict`, any language in `local`.
    """

    action: Sentence
    value: Any
    rulings: tuple[str, ...] = ()
    note: Sentence | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": render(self.action),
            "value": self.value,
            "rulings": list(self.rulings),
            "note": None if self.note is None else render(self.note),
        }

    def local(self, translate: Translate) -> dict[str, str | None]:
        """The action and the note in the language of `translate`."""
        return {
            "action_local": render(self.action, translate),
            "note_local": None if self.note is None else render(self.note, translate),
        }


#: The fields a step has only when a language is asked for (`Step.local`).
LOCAL_STEP_FIELDS = frozenset({"action_local", "note_local"})


class StepOut(BaseModel):
    """A step as the response shows it."""

    model_config = ConfigDict(extra="forbid")
    action: str = Field(description="What the step did.")
    value: Any = Field(description="The value after the step.")
    rulings: list[str] = Field(
        description="Ids of the rulings the step applies; empty where the "
        "archive holds no ruling (then `note` says so)."
    )
    note: str | None = None
    action_local: str | None = Field(
        default=None,
        description="`action` in the language asked for (`lang`); present only when one is.",
    )
    note_local: str | None = Field(
        default=None,
        description="`note` in the language asked for (`lang`); present only when one is.",
    )


class CheckResponse(BaseModel):
    """What every check answers: the game, the check's own fields, the steps, the rulings."""

    model_config = ConfigDict(extra="forbid")
    game: Game
    steps: list[StepOut]
    rulings: list[str] = Field(description="Every ruling id the steps cite, in first-use order.")


def rulings_used(steps: list[Step] | tuple[Step, ...]) -> list[str]:
    """All ruling ids the steps cite, in first-use order, without repeats."""
    seen: dict[str, None] = {}
    for step in steps:
        for rid in step.rulings:
            seen.setdefault(rid, None)
    return list(seen)


def respond(
    model: type[CheckResponse],
    game: Game,
    fields: dict[str, Any],
    steps: tuple[Step, ...] | list[Step],
) -> dict[str, Any]:
    """The JSON response, built through the check's response model (so it matches its schema)."""
    # Plain dicts: the model validates them into StepOut.
    step_dicts: list[Any] = [s.to_dict() for s in steps]
    out = model(game=game, **fields, steps=step_dicts, rulings=rulings_used(steps)).model_dump(
        mode="json", exclude={"steps": {"__all__": set(LOCAL_STEP_FIELDS)}}
    )
    # The check's own fields first, as clients read them; steps and rulings last.
    return {
        "game": out["game"],
        **{k: out[k] for k in fields},
        "steps": out["steps"],
        "rulings": out["rulings"],
    }


def with_local(
    response: dict[str, Any], steps: tuple[Step, ...], translate: Translate, **texts: Sentence
) -> dict[str, Any]:
    """`response` (a check's, for `steps`) with every step's action and note also in the
    language of `translate` (``action_local``, ``note_local``) and each of `texts` (a field of
    the response, e.g. the monster's explanation) as ``<field>_local`` right after it."""
    out: dict[str, Any] = {}
    for key, value in response.items():
        out[key] = value
        if key in texts:
            out[f"{key}_local"] = render(texts[key], translate)
    out["steps"] = [
        {**shown, **step.local(translate)}
        for shown, step in zip(response["steps"], steps, strict=True)
    ]
    return out


def by_game(game: str, frosthaven: tuple[str, ...], gloomhaven: tuple[str, ...]) -> tuple[str, ...]:
    """The ruling ids for `game`: Frosthaven and Gloomhaven rulings are never mixed."""
    return frosthaven if game == "frosthaven" else gloomhaven


__all__ = [
    "GAMES",
    "GAME_MESSAGE",
    "JsonSchema",
    "json_schema",
    "CheckInputError",
    "FieldProblem",
    "Int",
    "Text",
    "Bool",
    "Game",
    "CheckModel",
    "CheckRequest",
    "parse_request",
    "first_problem",
    "shown",
    "label",
    "LOCAL_STEP_FIELDS",
    "Step",
    "StepOut",
    "CheckResponse",
    "rulings_used",
    "respond",
    "with_local",
    "by_game",
]
