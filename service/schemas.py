"""The API's request and response shapes (pydantic: the only place it is used, the edge).

What it does: ``AskRequest`` validates a question (length, control characters, ``k``) and
the response models give the OpenAPI schema its exact shapes. What it does not do: build
the responses (``answer.answer_json``, ``phrasing.fact_json``) or map errors (``api``).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .settings import MAX_K, MAX_QUESTION_CHARS

MAX_GAME_CHARS = 100


class ErrorBody(BaseModel):
    error: str  # a stable code: invalid_request, unknown_game, index_not_ready, ...
    message: str
    detail: list[dict[str, Any]] | None = None


# What the validator below accepts, for the schema: some non-space, no control characters.
_CONTROL = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
QUESTION_PATTERN = rf"^[^{_CONTROL}]*[^\s{_CONTROL}][^{_CONTROL}]*$"


def _is_bad_char(char: str) -> bool:
    return char not in "\t\n\r" and unicodedata.category(char) in {"Cc", "Cs"}


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS,
                          description="the rules question, in Turkish or English",
                          json_schema_extra={"pattern": QUESTION_PATTERN})
    game: str | None = Field(default=None, max_length=MAX_GAME_CHARS,
                             description="a game id from /games; omitted: detected")
    k: int | None = Field(default=None, ge=1, le=MAX_K,
                          description="passages to return (default: the server's HAKEM_K)")
    context: str | None = Field(default=None, min_length=1, max_length=MAX_QUESTION_CHARS,
                                description="the previous question: a follow-up to it "
                                "('peki 2 kişiysek?') is answered as the full question",
                                json_schema_extra={"pattern": QUESTION_PATTERN})

    @field_validator("k", mode="before")
    @classmethod
    def _whole_number(cls, value: Any) -> Any:  # JSON Schema's integer includes 5.0
        return int(value) if isinstance(value, float) and value.is_integer() else value

    @field_validator("question", "context")
    @classmethod
    def _not_blank(cls, value: str | None) -> str | None:
        if value is None:  # no previous question
            return None
        if not value.strip():
            raise ValueError("the question is empty")
        if any(_is_bad_char(c) for c in value):
            raise ValueError("the question contains control characters or invalid text")
        return value.strip()


class Span(BaseModel):
    game: str
    start: int
    end: int


class Passage(BaseModel):
    id: str
    game: str
    section: str
    kind: str
    start: int
    end: int
    text: str
    score: float


class Applied(BaseModel):
    count: float
    value: float
    sentence: str


class FactOut(BaseModel):
    id: str
    game: str
    subject: str
    min: float | None
    max: float | None
    value: float | None
    unit: str
    effect: str
    section: str
    quote: str
    start: int
    end: int
    sentence: str
    score: float | None = None
    per: float | None = None  # a rate: `value` per `per` units of the subject
    rounding: str | None = None
    applied: Applied | None = None  # the rate worked out for the count the question states


class CalculationOut(BaseModel):
    """The rules' formula worked out for the question's numbers (``calc``)."""

    value: float | None  # None when a quantity is missing: the formula is given instead
    result: str  # the leading sentence: "6 zar: 1 temel + 5 hayatta kalan × 1 = 6"
    working: str
    missing: list[str]
    unit: str = ""  # the result's unit: "zar"
    # The rules' verdicts that hold for the result ("oyunu hemen kaybedersiniz"); [] when
    # the formula has none or the value is unknown.
    rulings: list[str] = []
    citations: list[Span]


class AskResponse(BaseModel):
    question: str
    game: str | None
    game_source: str
    abstained: bool
    answer: str
    answer_span: Span | None
    answer_spans: list[Span] = []  # every sentence the answer quotes (one per part)
    kind: str = ""  # the question's type: yes_no, how_many, what_if, how_why, setup, other
    hedged: bool = False  # answered on weak evidence: the rules may not settle it
    passages: list[Passage]
    facts: list[FactOut]
    requested_game: str | None = None  # the game asked for, when the question named another
    # No game named or picked and the question fits several: the other games, answered
    # after ``game`` in the text and cited in ``answer_spans`` and ``passages``.
    other_games: list[str] = []
    calculation: CalculationOut | None = None


class GameOut(BaseModel):
    id: str
    name: str
    aliases: list[str]
    language: str


class LiveOut(BaseModel):
    status: str


class ReadyOut(BaseModel):
    status: str
    embedder: str
    index: str  # the build folder's name: which build is serving
    mode: str
    passages: int
    facts: int
