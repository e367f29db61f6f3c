"""The embedder's settings, read from the environment into one typed object (pydantic-settings).

``EmbedderSettings`` holds what the indexer itself reads (the model, its backend, ONNX Runtime's
threads, the question cache, and the worker count those threads are shared by); the service's
``service.settings.Settings`` extends it with everything else, so there is one model of every
variable and one README table made from it. It lives here because the indexer may not import
the service.

Each call of ``load`` reads the environment afresh (a setting changed for a test or a child
process is seen); a value that does not parse is refused with one line naming the variable.
"""

from __future__ import annotations

import os
from typing import Any, Literal, TypeVar, get_args

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from indexer.errors import Unavailable

Backend = Literal["onnx", "onnx-int8", "torch"]
BACKENDS: tuple[Backend, ...] = get_args(Backend)
# fp32 ONNX: torch's vectors, about 2.5x faster; int8 misses the trust targets
# (docs/decisions.md, "Backend").
DEFAULT_BACKEND: Backend = "onnx"
DEFAULT_QUERY_CACHE = 4096
# Fields whose empty value means "empty", not "unset" (every other empty value is the default).
KEEP_EMPTY = frozenset({"access_log"})


class ModelError(Unavailable):
    """The embedding model cannot be loaded."""

    code = "model_unavailable"


class SettingsError(ModelError):
    """An environment setting has a value that does not parse; the message names it.

    A ModelError too: the model's own settings (model, backend, threads) were refused as one
    before there was a settings object, and callers still catch them so."""

    code = "bad_setting"


S = TypeVar("S", bound="EnvSettings")


class EnvSettings(BaseSettings):
    """The base of the settings objects: one environment variable per field (its alias)."""

    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True, frozen=True)

    @field_validator("*", mode="before")
    @classmethod
    def _empty_is_default(cls, value: Any, info) -> Any:
        """``VAR=`` (as compose and shells often leave it) means the default, as before."""
        if isinstance(value, str) and not value.strip() and info.field_name not in KEEP_EMPTY:
            field = cls.model_fields[info.field_name]
            return field.get_default(call_default_factory=True)
        return (
            value.strip() if isinstance(value, str) and info.field_name not in KEEP_EMPTY else value
        )

    @classmethod
    def load(cls: type[S], **overrides: Any) -> S:
        """The settings from the environment (and `overrides`, by field name), or SettingsError."""
        try:
            return cls(**overrides)
        except ValidationError as exc:
            raise SettingsError(describe(cls, exc)) from None

    @classmethod
    def variables(cls) -> list[tuple[str, str, str]]:
        """(variable, default as documented, help) of every field, in declaration order."""
        rows = []
        for name, field in cls.model_fields.items():
            extra = field.json_schema_extra or {}
            shown = extra.get("shown_default") if isinstance(extra, dict) else None
            if shown is None:
                default = field.get_default(call_default_factory=True)
                shown = "" if default is None else f"`{default}`"
            rows.append((field.alias or name.upper(), str(shown), field.description or ""))
        return rows


def describe(cls: type[BaseSettings], exc: ValidationError) -> str:
    """A ValidationError as one line: ``VAR='value' is not an integer`` (the first problem)."""
    err = exc.errors()[0]
    if not err["loc"]:  # a check across fields: its sentence names them
        return str(err["msg"]).removeprefix("Value error, ")
    name = err["loc"][0]
    field = cls.model_fields.get(str(name))
    variable = (field.alias if field and field.alias else str(name)).upper()
    ctx = err.get("ctx") or {}
    kind = err["type"]
    if kind in ("int_parsing", "int_from_float"):
        problem = "is not an integer"
    elif kind == "greater_than_equal":
        problem = f"must be at least {ctx.get('ge')}"
    elif kind == "less_than_equal":
        problem = f"must be at most {ctx.get('le')}"
    elif kind == "bool_parsing":
        problem = "is not a yes/no value (1, 0, true, false)"
    elif kind == "literal_error":
        problem = f"is not one of: {ctx.get('expected')}"
    else:  # our validators' own sentences
        problem = str(err["msg"]).removeprefix("Value error, ")
    return f"{variable}={err.get('input')!r} {problem}"


def _cores() -> int:
    return os.cpu_count() or 1


class EmbedderSettings(EnvSettings):
    """What the indexer reads: the model, how it runs, and the workers it is shared by."""

    model: str | None = Field(
        None,
        alias="RULINGS_MODEL",
        json_schema_extra={"shown_default": "`models/multilingual-e5-small`"},
        description="model folder, or a hub name such as `intfloat/multilingual-e5-small` for users "
        "with network (loaded with `local_files_only` unless `HF_HUB_OFFLINE=0`)",
    )
    backend: Backend = Field(
        DEFAULT_BACKEND,
        alias="RULINGS_BACKEND",
        description="how the model runs: `onnx` (ONNX Runtime fp32: the same vectors as torch, "
        "~2.5x faster), `onnx-int8`, or `torch` (sentence-transformers, the reference). "
        "The index records its backend; another one is refused like a stale index",
    )
    hf_hub_offline: bool = Field(
        True,
        alias="HF_HUB_OFFLINE",
        json_schema_extra={"shown_default": "`1`"},
        description="`0` lets the torch backend fetch a hub model it has not cached",
    )
    web_workers: int | None = Field(
        None,
        ge=1,
        alias="WEB_WORKERS",
        json_schema_extra={"shown_default": "cores"},
        description="gunicorn worker processes (the app and model load once, before the workers fork)",
    )
    ort_threads: int | None = Field(
        None,
        ge=1,
        alias="RULINGS_ORT_THREADS",
        json_schema_extra={"shown_default": "cores / workers"},
        description="ONNX Runtime threads per worker (together the workers use every core)",
    )
    query_cache: int = Field(
        DEFAULT_QUERY_CACHE,
        ge=0,
        alias="RULINGS_QUERY_CACHE",
        description="question embeddings kept per worker (LRU; 0: none)",
    )

    @field_validator("backend", mode="before")
    @classmethod
    def _backend(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip():
            value = value.strip().lower()
            if value not in BACKENDS:
                raise ValueError(f"is not a backend; choose one of: {', '.join(BACKENDS)}")
        return value

    @property
    def workers(self) -> int:
        """Serving worker processes: WEB_WORKERS, else one per core."""
        return self.web_workers or _cores()

    @property
    def session_threads(self) -> int:
        """ONNX Runtime threads per session: RULINGS_ORT_THREADS, else the cores each worker
        may use, so the workers together use every core without oversubscribing."""
        return self.ort_threads or max(1, _cores() // self.workers)
