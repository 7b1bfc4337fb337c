"""Helpers of the stack tests."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def eventually(probe: Callable[[], T | None], timeout: float = 60.0, interval: float = 0.25) -> T:
    """The probe's first answer that is not None; search and lists are near real time (an index refresh)."""
    deadline = time.monotonic() + timeout
    while True:
        found = probe()
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"nothing within {timeout} s")
        time.sleep(interval)
