"""Shapes shared by the async client and the sync one generated from it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pydantic import BaseModel

#: A request body or query: one of the generated models, or a plain mapping of the same fields.
Fields = BaseModel | Mapping[str, Any] | None
#: Waits between attempts (tests pass one that makes time pass at once).
AsyncSleep = Callable[[float], Awaitable[None]]
Sleep = Callable[[float], None]
#: Told before each retry: attempt number, HTTP status (None when no answer came), wait in seconds, path.
OnRetry = Callable[[int, int | None, float, str], None]
