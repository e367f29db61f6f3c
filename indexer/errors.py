"""The one base class of the project's domain errors.

Every error a user can cause or meet (a bad request, an unknown ruling, a stale index, a model
that will not load, a malformed archive file) is a ``RulingsError`` carrying its own HTTP
status and a stable error code. The two edges map errors by these attributes only: the HTTP
API answers ``{"error": {"code", "message"}}`` with ``status``; the CLI prints the message on
one line and exits non-zero. Nothing below the edges knows about Flask or click.

It lives here, at the bottom of the import graph, so that the archive, the index, the model
and the rules checker can all raise it without importing the service.
"""

from __future__ import annotations


class RulingsError(Exception):
    """A domain error: `status` is the HTTP status, `code` the stable error code."""

    status: int = 500
    code: str = "internal_error"

    def __init__(self, message: str, *, status: int | None = None, code: str | None = None):
        super().__init__(message)
        if status is not None:
            self.status = status
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        """The first line of the message: what a person is shown."""
        text = str(self)
        return text.splitlines()[0] if text else self.code


class InvalidRequest(RulingsError):
    """A value the caller sent is invalid; the message says which and why (HTTP 422)."""

    status = 422
    code = "invalid_request"


class NotFound(RulingsError):
    """No such ruling, check or route (HTTP 404)."""

    status = 404
    code = "not_found"


class Unavailable(RulingsError):
    """A resource the request needs (archive, index, model) cannot be used (HTTP 503)."""

    status = 503
    code = "unavailable"


__all__ = ["RulingsError", "InvalidRequest", "NotFound", "Unavailable"]
