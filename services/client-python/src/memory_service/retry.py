"""When the client tries a request again (the spec's retry guidance): 429, 500 and 503 with exponential backoff and
jitter, never sooner than the service's Retry-After; never 400, 401, 403, 404 or 409. A request that got no answer
is tried again only when repeating it is safe."""

from __future__ import annotations

import random as random_module
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

RETRYABLE_STATUSES = frozenset({429, 500, 503})


@dataclass(frozen=True)
class RetryPolicy:
    """Attempts in all (the first included) and the backoff's first step and ceiling, in seconds."""

    max_attempts: int = 4
    base_delay: float = 0.25
    max_delay: float = 20.0


def retry_delay(
    retry: int,
    retry_after: float | None,
    policy: RetryPolicy,
    random: Callable[[], float] = random_module.random,
) -> float:
    """The wait before retry number `retry` (1 for the first): half the exponential step plus a random half of it
    ("equal jitter", so clients that failed together do not come back together), and at least Retry-After."""
    step = min(policy.max_delay, policy.base_delay * 2.0 ** (retry - 1))
    backoff = step / 2 + random() * (step / 2)
    return max(backoff, retry_after or 0.0)


def parse_retry_after(header: str | None, now: datetime | None = None) -> float | None:
    """Retry-After as seconds: a number of seconds or an HTTP date; None when absent or unreadable."""
    if header is None or not header.strip():
        return None
    try:
        return max(0.0, float(header))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - (now or datetime.now(timezone.utc))).total_seconds())
