"""The retry policy and the error mapping, on a transport that answers what each test needs (no network, no
sleeping: the client's sleep is injected)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

import httpx
import pytest

from memory_service import (
    AsyncMemoryClient,
    AuthenticationError,
    ConflictError,
    InvalidInputError,
    MemoryClient,
    MemoryServiceError,
    NotFoundError,
    RateLimitError,
    RetryPolicy,
    ServiceUnavailableError,
)
from memory_service.retry import parse_retry_after, retry_delay

LIVE = {"status": "ok"}


def answers(*replies: httpx.Response | Exception) -> tuple[httpx.MockTransport, list[httpx.Request]]:
    """A transport that gives the replies in order (an exception is a connection that failed)."""
    seen: list[httpx.Request] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        reply = replies[min(len(seen), len(replies)) - 1]
        if isinstance(reply, Exception):
            raise reply
        return reply

    return httpx.MockTransport(handle), seen


def error(status: int, code: str, **details: object) -> httpx.Response:
    return httpx.Response(status, json={"error": f"{code} happened", "code": code, "details": details})


def sync_client(transport: httpx.MockTransport, waits: list[float]) -> MemoryClient:
    return MemoryClient("http://memory.test", "key", transport=transport, sleep=waits.append, random=lambda: 0.0)


def test_backoff_doubles_with_equal_jitter_and_honours_retry_after() -> None:
    policy = RetryPolicy(max_attempts=6, base_delay=0.25, max_delay=1.0)
    assert [retry_delay(retry, None, policy, lambda: 0.0) for retry in (1, 2, 3, 4)] == [0.125, 0.25, 0.5, 0.5]
    assert retry_delay(1, None, policy, lambda: 1.0) == 0.25
    assert retry_delay(1, 7.0, policy, lambda: 0.5) == 7.0


def test_retry_after_reads_seconds_and_http_dates() -> None:
    now = datetime(2026, 11, 29, 12, 0, 0, tzinfo=timezone.utc)
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after("Sun, 29 Nov 2026 12:00:05 GMT", now) == 5.0
    assert parse_retry_after("Sun, 29 Nov 2026 11:59:00 GMT", now) == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


def test_a_503_is_retried_after_its_retry_after_then_answered() -> None:
    transport, seen = answers(
        httpx.Response(503, headers={"retry-after": "2"}, json={"error": "down", "code": "SERVICE_UNAVAILABLE"}),
        httpx.Response(200, json=LIVE),
    )
    waits: list[float] = []
    assert sync_client(transport, waits).liveness().status == "ok"
    assert len(seen) == 2
    assert waits == [2.0]


def test_a_429_raises_rate_limit_error_once_the_attempts_are_spent() -> None:
    transport, seen = answers(error(429, "RATE_LIMITED", retry_after_seconds=4))
    waits: list[float] = []
    with pytest.raises(RateLimitError) as raised:
        sync_client(transport, waits).instances.list()
    assert raised.value.code == "RATE_LIMITED"
    assert raised.value.retry_after_seconds == 4
    assert len(seen) == 4
    assert len(waits) == 3


@pytest.mark.parametrize(
    ("status", "code", "kind"),
    [
        (400, "INVALID_INPUT", InvalidInputError),
        (401, "INVALID_API_KEY", AuthenticationError),
        (403, "PERMISSION_DENIED", AuthenticationError),
        (404, "NOT_FOUND", NotFoundError),
        (409, "COMPACTION_IN_PROGRESS", ConflictError),
    ],
)
def test_answers_that_need_a_changed_request_are_not_retried(
    status: int, code: str, kind: type[MemoryServiceError]
) -> None:
    transport, seen = answers(
        httpx.Response(
            status,
            headers={"x-correlation-id": "corr-1234"},
            json={"error": "no", "code": code, "details": {"field": "query"}},
        )
    )
    with pytest.raises(kind) as raised:
        sync_client(transport, []).memories.search(query="anything")
    assert (raised.value.code, raised.value.status, raised.value.details) == (code, status, {"field": "query"})
    assert raised.value.correlation_id == "corr-1234"
    assert len(seen) == 1


def test_a_lost_answer_is_retried_only_when_repeating_is_safe() -> None:
    lost = httpx.ConnectError("connection reset")
    transport, seen = answers(
        lost, httpx.Response(200, json={"accepted": 1, "duplicate": 0, "rejected": 0, "results": []})
    )
    event = {"event_type": "user_message", "conversation_id": "c", "user_id": "u", "content": "hi"}
    with pytest.raises(MemoryServiceError) as raised:
        sync_client(transport, []).events.send([event])
    assert raised.value.code == "CONNECTION_FAILED"
    assert len(seen) == 1
    transport, seen = answers(
        lost, httpx.Response(200, json={"accepted": 1, "duplicate": 0, "rejected": 0, "results": []})
    )
    assert sync_client(transport, []).events.send([{**event, "event_id": "e-1"}]).accepted == 1
    assert len(seen) == 2


def test_a_proxy_page_is_an_error_of_its_status() -> None:
    transport, _ = answers(httpx.Response(502, text="<html>bad gateway</html>"))
    with pytest.raises(MemoryServiceError) as raised:
        sync_client(transport, []).liveness()
    assert (raised.value.code, raised.value.status) == ("UNEXPECTED_RESPONSE", 502)


def test_queries_repeat_lists_and_write_booleans_as_the_service_reads_them() -> None:
    transport, seen = answers(
        httpx.Response(200, json={"items": [], "total": 0, "page": 1, "page_size": 20, "has_more": False})
    )
    sync_client(transport, []).memories.list(user_id="u", types=["fact", "preference"], include_superseded=True)
    assert seen[0].url.params.get_list("types") == ["fact", "preference"]
    assert seen[0].url.params["include_superseded"] == "true"
    assert seen[0].headers["authorization"] == "Bearer key"


async def test_the_async_client_follows_the_same_rules() -> None:
    transport, seen = answers(error(503, "SERVICE_UNAVAILABLE"))
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    never_random: Callable[[], float] = lambda: 0.0  # noqa: E731
    async with AsyncMemoryClient(
        "http://memory.test", "key", transport=transport, sleep=sleep, random=never_random
    ) as client:
        with pytest.raises(ServiceUnavailableError):
            await client.memories.get("mem_1")
    assert len(seen) == 4
    assert waits == [0.125, 0.25, 0.5]


def test_an_answer_that_is_not_its_model_is_an_unexpected_response() -> None:
    transport, _ = answers(httpx.Response(200, json={"state": "fine"}))
    with pytest.raises(MemoryServiceError) as raised:
        sync_client(transport, []).liveness()
    assert raised.value.code == "UNEXPECTED_RESPONSE"
    assert raised.value.details["problems"] == ["status: Field required"]
