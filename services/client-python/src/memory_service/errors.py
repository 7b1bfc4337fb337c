"""The errors the client raises. `code` is the service's stable error code (the spec's `{error, code, details}`
body); match on it, never on the message."""

from __future__ import annotations

from typing import Any


class MemoryServiceError(Exception):
    """Base of every error the client raises.

    `status` is the HTTP status (0 when no answer came: `TIMEOUT`, `CONNECTION_FAILED`); `correlation_id` is the
    answer's X-Correlation-Id, the id to look for in the service's logs.
    """

    def __init__(
        self,
        message: str,
        code: str,
        details: dict[str, Any] | None = None,
        *,
        status: int = 0,
        correlation_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.details: dict[str, Any] = details or {}
        self.status = status
        self.correlation_id = correlation_id


class AuthenticationError(MemoryServiceError):
    """401 and 403: the key is missing, unknown, rotated, revoked or lacks the permission."""


class NotFoundError(MemoryServiceError):
    """404."""


class InvalidInputError(MemoryServiceError):
    """400: fix the request; `details` names the field."""


class ConflictError(MemoryServiceError):
    """409: a permanent conflict (a compaction running, another transcript, a reused document_id); not retried."""


class RateLimitError(MemoryServiceError):
    """429 after the client's retries: `retry_after_seconds` says when the key has tokens again."""

    def __init__(
        self,
        message: str,
        code: str,
        details: dict[str, Any] | None = None,
        *,
        retry_after_seconds: float,
        status: int = 429,
        correlation_id: str | None = None,
    ) -> None:
        super().__init__(message, code, details, status=status, correlation_id=correlation_id)
        self.retry_after_seconds = retry_after_seconds


class ServiceUnavailableError(MemoryServiceError):
    """503 after the client's retries: an engine is down; retry later with the same ids."""


def error_for_status(
    status: int,
    body: object,
    retry_after: float | None = None,
    correlation_id: str | None = None,
) -> MemoryServiceError:
    """The spec's mapping from an HTTP status and error body to the client's errors."""
    fields = body if isinstance(body, dict) else {}
    message = str(fields.get("error") or f"HTTP {status}")
    code = str(fields.get("code") or "UNEXPECTED_RESPONSE")
    raw_details = fields.get("details")
    details: dict[str, Any] = raw_details if isinstance(raw_details, dict) else {}
    common: dict[str, Any] = {"status": status, "correlation_id": correlation_id}
    if status in (401, 403):
        return AuthenticationError(message, code, details, **common)
    if status == 404:
        return NotFoundError(message, code, details, **common)
    if status == 429:
        seconds = details.get("retry_after_seconds")
        wait = float(seconds) if isinstance(seconds, (int, float)) else (retry_after if retry_after else 1.0)
        return RateLimitError(message, code, details, retry_after_seconds=wait, **common)
    if status == 503:
        return ServiceUnavailableError(message, code, details, **common)
    if status == 400:
        return InvalidInputError(message, code, details, **common)
    if status == 409:
        return ConflictError(message, code, details, **common)
    return MemoryServiceError(message, code, details, **common)
