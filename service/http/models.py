"""The HTTP API's requests and responses as pydantic models.

The same models validate what a client sends (``validated``), shape what the API answers, and
give the OpenAPI document its schemas (``service.openapi``): the document cannot say one
thing while the service does another. Error messages name the field as the client wrote it.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    StrictStr,
    ValidationError,
    WithJsonSchema,
    model_serializer,
)

from checker.base import NOT_BLANK, Int, first_problem
from indexer.archive.catalogue import MAX_SUGGESTIONS
from indexer.archive.schema import KINDS, Kind
from indexer.errors import InvalidRequest
from indexer.language import LANGUAGES, Lang
from indexer.search.results import ReasonCode

MAX_QUESTION = 500
MAX_K = 10
DEFAULT_K = 3
MAX_LIMIT = 100
DEFAULT_LIMIT = 20
MAX_CARD = 200
#: Marks a schema whose values are the archive's game spellings (filled in by the document).
GAME_ENUM_MARK = "x-rulings-game"
K_MESSAGE = f"'k' must be an integer from 1 to {MAX_K}"
LIMIT_MESSAGE = f"'limit' must be an integer from 1 to {MAX_LIMIT}"
LANG_MESSAGE = f"'lang' must be one of: {', '.join(LANGUAGES)}"
KIND_MESSAGE = f"'kind' must be one of: {', '.join(KINDS)}"


def _question(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be a non-empty string")
    if len(value) > MAX_QUESTION:
        raise ValueError(f"is too long ({len(value)} characters; at most {MAX_QUESTION})")
    return value


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def _query_int(value: Any) -> Any:
    # Query strings carry text: "3" (and "3.0", which JSON Schema counts as an integer) is 3.
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return value
        return int(number) if number.is_integer() else value
    return value


QuestionText = Annotated[
    str,
    PlainValidator(_question),
    WithJsonSchema(
        {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION, "pattern": NOT_BLANK}
    ),
]
GameName = Annotated[
    StrictStr,
    WithJsonSchema(
        {
            "type": "string",
            GAME_ENUM_MARK: True,
            "description": "game id, name or alias (FH, GH, ...); empty or absent: detected",
        }
    ),
]
# The language and kind a caller may send: the archive's, or "" (not given).
LangCode = Annotated[
    Literal[("", *LANGUAGES)],  # type: ignore[valid-type]
    BeforeValidator(_lower),
    Field(description="the asker's language; empty or absent: detected"),
]
KIND_ALIASES = {
    "errata": "erratum",
    "edge": "edge case",
    "edgecase": "edge case",
    "clarifications": "clarification",
    "examples": "example",
}


def _kind(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    norm = value.strip().lower().replace("-", " ").replace("_", " ")
    return KIND_ALIASES.get(norm, norm)


KindName = Annotated[
    Literal[("", *KINDS)],  # type: ignore[valid-type]
    BeforeValidator(_kind),
    WithJsonSchema(
        {
            "type": "string",
            "enum": ["", *KINDS, *KIND_ALIASES],
            "description": "kind of ruling (empty or absent: every kind)",
        }
    ),
]
QueryInt = Annotated[int, BeforeValidator(_query_int)]
CardQuery = Annotated[StrictStr, Field(min_length=1, max_length=MAX_CARD, pattern=NOT_BLANK)]


class ApiModel(BaseModel):
    """Base of the API's request models: unknown fields refused, nothing coerced."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    field_messages: ClassVar[dict[str, str]] = {}


def _unknown_fields(model: type[BaseModel]):
    allowed = ", ".join(sorted(model.model_fields))
    return lambda where, names: f"unknown field(s): {', '.join(names)}; allowed: {allowed}"


M = TypeVar("M", bound=ApiModel)


def validated(model: type[M], data: Any) -> M:
    """`data` as `model`, or InvalidRequest (422) naming the first problem."""
    if not isinstance(data, dict):
        raise InvalidRequest("the request body must be a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InvalidRequest(
            first_problem(exc, model.field_messages, unknown=_unknown_fields(model))
        ) from None


class AskBody(ApiModel):
    """POST /v1/ask."""

    field_messages = {"'k'": K_MESSAGE, "'lang'": LANG_MESSAGE, "'game'": "'game' must be a string"}
    question: QuestionText = Field(description="the question, in any of the seven languages")
    k: Int = Field(default=DEFAULT_K, ge=1, le=MAX_K, description="how many matches")
    game: GameName | None = None
    lang: LangCode | None = None


class AskQuery(AskBody):
    """GET /v1/ask: the same fields as query parameters (the question is `q`)."""

    model_config = ConfigDict(
        extra="ignore", frozen=True, loc_by_alias=False, populate_by_name=False
    )
    question: QuestionText = Field(
        alias="q", description="the question, in any of the seven languages"
    )
    k: QueryInt = Field(default=DEFAULT_K, ge=1, le=MAX_K, description="how many matches")


class LangQuery(ApiModel):
    """GET /v1/rulings/{id}."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    field_messages = {"'lang'": LANG_MESSAGE}
    lang: LangCode | None = None


class RulingsQuery(ApiModel):
    """GET /v1/rulings."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    field_messages = {
        "'limit'": LIMIT_MESSAGE,
        "'lang'": LANG_MESSAGE,
        "'kind'": KIND_MESSAGE,
        "'card'": f"'card' must be a non-empty string of at most {MAX_CARD} characters",
    }
    card: CardQuery | None = Field(
        default=None,
        description=(
            "card, item, monster or class name (forgiving: case, accents, typos, 'item 225')"
        ),
    )
    game: GameName | None = None
    kind: KindName | None = Field(default=None, description="kind of ruling")
    lang: LangCode | None = None
    limit: QueryInt = Field(
        default=DEFAULT_LIMIT, ge=1, le=MAX_LIMIT, description="at most this many"
    )


class CardsQuery(ApiModel):
    """GET /v1/cards: every name, or with `q` the best matches first (autocomplete)."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    field_messages = {"'q'": f"'q' must be a string of at most {MAX_CARD} characters"}
    q: Annotated[StrictStr, Field(max_length=MAX_CARD)] | None = Field(
        default=None,
        description=(
            f"what was typed so far: the {MAX_SUGGESTIONS} best-matching names, best first, ranked "
            "as /v1/rulings?card= ranks them (empty or absent: every name, sorted)"
        ),
    )


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CitationOut(Out):
    """Whichever of these the source gives: absent fields are left out, never invented."""

    source: str
    pages: list[str] = []
    page_ref: str | None = None
    section: str | None = None
    author: str | None = None
    site: str | None = None
    date: str | None = None
    file: str | None = None
    line: int | None = None
    label: str = Field(description="the citation as one line, ready to show")
    label_local: str = Field(description="the same line in the asker's language")
    source_local: str | None = Field(
        default=None,
        description="the source's name in the asker's language (an edition's rulebook excerpt "
        "said in it; any other source's name as the archive gives it)",
    )
    line_local: str | None = Field(
        default=None,
        description="the citation line in the asker's language, the source's name too "
        "(`source_local`); `label_local` keeps the source's name as the archive gives it",
    )

    @model_serializer(mode="wrap")
    def _without_absent(self, handler):
        return {k: v for k, v in handler(self).items() if v is not None}


class CardOut(Out):
    type: str
    name: str
    of: str | None
    label: str


class AmendsOut(Out):
    section: str | None = None
    pages: list[str] = []
    record: str | None = None


class TranslationOut(Out):
    lang: str
    text: str
    title: str | None
    context: str | None
    edition_of: str | None = Field(
        description="set when the text is another official edition's wording of the same rule, not our translation"
    )
    label: str
    label_local: str = Field(description="the label in the translation's language")
    language_name: str


class RulingOut(Out):
    id: str
    game: str
    kind: Kind
    lang: Lang
    title: str | None
    context_label: str | None
    context: str | None
    text: str = Field(description="the original text, verbatim")
    citation: CitationOut
    cards: list[CardOut]
    amends: list[AmendsOut]
    translation: TranslationOut | None
    translation_missing: str | None = Field(
        default=None,
        description=(
            "why `translation` is null although another language was asked for (a newly imported "
            'ruling not translated yet), e.g. "no translation into de yet"'
        ),
    )
    related: list[str]
    display_title: str = Field(description="the title, or the source and pages when it has none")
    display_title_local: str | None = Field(
        default=None,
        description="the title in the asker's language: the translation's, the title, else the "
        "source and pages said in that language",
    )
    kind_label: str
    kind_label_local: str = Field(description="the kind in the asker's language")
    context_label_local: str | None = Field(
        description="the context's label in the asker's language (null without a context)"
    )
    game_name: str
    language_name: str = Field(description="the original's language, by name")


class SpanOut(Out):
    start: int
    end: int


class EvidenceOut(Out):
    """The sentence(s) of the shown text that best answer the question (picked by the model)."""

    shown: Literal["translation", "text"] = Field(
        description="which text the spans index: `translation` (the asker's language, shown "
        "first) or `text` (the original)"
    )
    lang: str = Field(description="that text's language")
    text: str = Field(description="the deciding sentence(s), as they stand in that text")
    spans: list[SpanOut] = Field(description="each sentence's character offsets in that text")
    score: float | None = Field(
        description="the question's match with the sentence; null when the text is one sentence"
    )


class MatchOut(RulingOut):
    score: float
    evidence: EvidenceOut | None = Field(
        default=None,
        description="the sentence that decides the question, in the text the asker reads first",
    )


class ComputedOut(Out):
    check: Literal["damage", "advantage", "initiative", "exhaustion"]
    input: dict[str, Any] = Field(
        description="the check's request as read from the question (with the game): a calculator prefilled with it"
    )
    result: dict[str, Any] | None = Field(
        description=(
            "the check's full response, as POST /v1/check/<check>?lang=<the question's language> "
            "returns it for `input` (each step also in it: `action_local`, `note_local`); null "
            "when something is missing or the check refused the values (see `notes`)"
        )
    )
    summary: str = Field(description="one sentence in the question's language")
    missing: list[str] = Field(
        description="what the answer depends on that the question does not give (fields of `input`); nothing is guessed"
    )
    notes: list[str] = Field(
        description="what the reader or the check noted (e.g. a value out of range)"
    )
    # A check's own refusal stays English.
    notes_local: list[str] | None = Field(None, description="`notes` in the question's language")


class AskResponse(Out):
    question: str
    lang: str
    game: str | None
    declined: bool
    answer: MatchOut | None
    matches: list[MatchOut]
    reason: str
    reason_code: ReasonCode = Field(
        description=(
            "why it was answered or declined, for programs: `answers`, `card_named` (a card "
            "lookup), `not_close_enough`, `nothing_shared`, `other_game` (a game the archive holds "
            "nothing for); `reason` says the same in English"
        )
    )
    reason_local: str = Field(description="the reason in the question's language")
    calculators: list[str] = Field(
        description="checks (POST /v1/check/<name>) that compute the answer's ruling"
    )
    computed: ComputedOut | None = Field(
        default=None,
        description=(
            "the mechanical case computed from the question's own numbers, every step cited; "
            "null when the question asks for no computation"
        ),
    )
    took_ms: float
    ask_id: str | None = Field(
        default=None,
        description=(
            "this ask's id in the question log, for POST /v1/feedback; null when the log is "
            "off (RULINGS_LOG=off)"
        ),
    )


class RulingList(Out):
    results: list[RulingOut]
    total: int


class CardList(Out):
    cards: list[str]


class GameCounts(BaseModel):
    model_config = ConfigDict(extra="allow")
    total: int


class GameOut(Out):
    id: str
    name: str
    aliases: list[str]
    counts: GameCounts
    languages: list[str]


class GameList(Out):
    games: list[GameOut]


class HealthOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: str
    records: int
    model: str
    index_built_at: str = Field(
        description="when the index in use was built (it changes when the service switches to a rebuilt index)"
    )
    worker: int | None = Field(default=None, description="the id of the process that answered")


class ErrorDetail(Out):
    code: str
    message: str


class ErrorOut(Out):
    error: ErrorDetail


def shaped(model: type[BaseModel], data: dict[str, Any]) -> dict[str, Any]:
    """`data` passed through a response model: what the API answers is what it documents."""
    return model.model_validate(data).model_dump(mode="json")
