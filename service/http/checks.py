"""The query of POST /v1/check/<name>: the language a check's steps are also said in."""

from __future__ import annotations

from pydantic import Field

from service.http.models import LangCode, LangQuery


class CheckQuery(LangQuery):
    """POST /v1/check/<name>?lang=: the English answer, its sentences also in `lang`."""

    lang: LangCode | None = Field(
        default=None,
        description=(
            "the asker's language: every step also says its action and note in it "
            "(`action_local`, `note_local`), the monster its explanation "
            "(`explanation_local`); empty or absent: English only, no `*_local` field"
        ),
    )
