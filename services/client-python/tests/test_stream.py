"""The event stream: the offline rule on its own (an injected clock, a port nobody listens on), and on the real
gateway: acks once and in order, nothing lost or doubled across a gateway restart (counted in the log), the offline
buffer while the gateway is away, close() returning what was never acknowledged, a bad key."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Awaitable, Callable

import httpx
import pytest

from memory_service import AsyncEventStream, AsyncMemoryClient, AuthenticationError, EventAck, HeldEvent

from .support import unique


def turn(conversation_id: str, index: int, user: str = "py-stream-user") -> dict[str, str]:
    return {
        "event_type": "user_message",
        "conversation_id": conversation_id,
        "user_id": user,
        "content": f"turn {index}",
    }


async def until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"not within {timeout} s")
        await asyncio.sleep(0.02)


def closed_port() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


async def test_while_nothing_answers_new_events_are_held_at_most_max_events_and_max_age() -> None:
    now = [1000.0]
    dropped: list[tuple[str, str]] = []
    stream = AsyncEventStream(
        closed_port(),
        "key",
        max_events=5,
        max_age=300.0,
        initial_backoff=0.05,
        max_backoff=0.1,
        clock=lambda: now[0],
        on_dropped=lambda held, reason: dropped.append((held.id, reason)),
    )
    await stream.start()
    await until(lambda: stream.connection() == "disconnected", 10)
    ids = [stream.send({**turn("c", index), "event_id": f"e{index}"}) for index in range(8)]
    assert ids == [f"e{index}" for index in range(8)]
    assert stream.pending() == 5
    assert dropped == [("e0", "buffer_full"), ("e1", "buffer_full"), ("e2", "buffer_full")]
    now[0] += 301
    stream.send(turn("c", 9))
    assert stream.pending() == 1
    assert [reason for _, reason in dropped[3:]] == ["too_old"] * 5
    unacknowledged = await stream.close(deadline=0.05)
    assert len(unacknowledged) == 1
    with pytest.raises(RuntimeError):
        stream.send(turn("c", 10))


async def test_send_before_start_is_refused() -> None:
    with pytest.raises(RuntimeError):
        AsyncEventStream(closed_port(), "key").send(turn("c", 0))


@pytest.fixture
def control() -> Callable[[str, str], Awaitable[object]]:
    base = os.environ.get("MEMORY_SERVICE_TEST_CONTROL_URL")
    if not base or not os.environ.get("MEMORY_SERVICE_GRPC_ADDRESS"):
        pytest.skip("MEMORY_SERVICE_TEST_CONTROL_URL and MEMORY_SERVICE_GRPC_ADDRESS name no gateway to stop and start")

    async def call(method: str, path: str) -> object:
        async with httpx.AsyncClient(base_url=base, timeout=120) as http:
            response = await http.request(method, path)
            response.raise_for_status()
            return response.json()

    return call


async def recorded(control: Callable[[str, str], Awaitable[object]], conversation_id: str) -> list[str]:
    answer = await control("GET", f"/recorded?conversation_id={conversation_id}")
    assert isinstance(answer, list)
    return [str(event_id) for event_id in answer]


@pytest.mark.stack
async def test_events_are_acknowledged_once_and_in_order(control: Callable[[str, str], Awaitable[object]]) -> None:
    conversation = unique("py-stream-open")
    acks: list[EventAck] = []
    async with AsyncEventStream(on_ack=acks.append) as stream:
        ids = [stream.send(turn(conversation, index)) for index in range(30)]
        await until(lambda: stream.pending() == 0)
    assert [ack.event_id for ack in acks] == ids
    assert {ack.status for ack in acks} == {"ACCEPTED"}
    assert await recorded(control, conversation) == ids


@pytest.mark.stack
async def test_ten_thousand_events_across_a_gateway_restart_are_each_recorded_once(
    control: Callable[[str, str], Awaitable[object]],
) -> None:
    conversation = unique("py-stream-restart")
    statuses: dict[str, list[str]] = {}
    dropped: list[HeldEvent] = []
    stream = AsyncEventStream(
        initial_backoff=0.1,
        max_backoff=1.0,
        on_ack=lambda ack: statuses.setdefault(ack.event_id, []).append(ack.status),
        on_dropped=lambda held, _reason: dropped.append(held),
    )
    await stream.start()
    ids: list[str] = []
    restart: asyncio.Future[object] | None = None
    in_flight_at_stop = 0
    for index in range(10_000):
        if index == 5_000:
            # The gateway goes away with events in flight (the last ones sent are not acknowledged yet) and comes
            # back on the same port while the agent goes on.
            in_flight_at_stop = stream.pending()
            await control("POST", "/gateway/stop")
            restart = asyncio.ensure_future(control("POST", "/gateway/start"))
        if index % 100 == 0:
            # An agent that watches the connection: while the gateway is away it waits instead of overrunning the
            # offline buffer (100 events), which is what a lost connection may hold.
            await until(lambda: stream.connection() != "disconnected", 120)
            await asyncio.sleep(0.001)
        ids.append(stream.send(turn(conversation, index)))
    assert restart is not None
    await restart
    assert in_flight_at_stop > 0
    await until(lambda: stream.pending() == 0, 120)
    assert await stream.close() == []
    assert dropped == []
    assert sorted(statuses) == sorted(ids)
    # One ack per event; a replayed one may be answered DUPLICATE (its first copy was recorded before the restart).
    assert {status for answers in statuses.values() for status in answers} <= {"ACCEPTED", "DUPLICATE"}
    in_log = await recorded(control, conversation)
    assert len(in_log) == len(set(in_log)) == 10_000
    assert set(in_log) == set(ids)


@pytest.mark.stack
async def test_while_the_gateway_is_away_at_most_max_events_are_held_and_the_rest_delivered(
    control: Callable[[str, str], Awaitable[object]],
) -> None:
    conversation = unique("py-stream-offline")
    acked: set[str] = set()
    dropped: list[tuple[str, str]] = []
    stream = AsyncEventStream(
        initial_backoff=0.1,
        max_backoff=0.5,
        on_ack=lambda ack: acked.add(ack.event_id),
        on_dropped=lambda held, reason: dropped.append((held.id, reason)),
    )
    await stream.start()
    first = stream.send(turn(conversation, -1))
    await until(lambda: stream.pending() == 0)
    await control("POST", "/gateway/stop")
    try:
        await until(lambda: stream.connection() == "disconnected", 30)
        ids = [stream.send(turn(conversation, index)) for index in range(150)]
        assert stream.pending() == 100
        assert dropped == [(event_id, "buffer_full") for event_id in ids[:50]]
    finally:
        await control("POST", "/gateway/start")
    await until(lambda: stream.pending() == 0)
    assert await stream.close() == []
    assert [event_id for event_id in ids[50:] if event_id not in acked] == []
    assert sorted(await recorded(control, conversation)) == sorted([first, *ids[50:]])


@pytest.mark.stack
async def test_close_returns_what_was_never_acknowledged_and_resending_it_records_each_once(
    control: Callable[[str, str], Awaitable[object]],
) -> None:
    conversation = unique("py-stream-unacked")
    stream = AsyncEventStream(initial_backoff=0.1, max_backoff=0.5)
    await stream.start()
    stream.send(turn(conversation, -1))
    await until(lambda: stream.pending() == 0)
    await control("POST", "/gateway/stop")
    try:
        await until(lambda: stream.connection() == "disconnected", 30)
        ids = [stream.send(turn(conversation, index)) for index in range(5)]
        unacknowledged = await stream.close(deadline=0.2)
        assert [held.id for held in unacknowledged] == ids
    finally:
        await control("POST", "/gateway/start")
    acks: list[EventAck] = []
    async with AsyncEventStream(on_ack=acks.append) as again:
        for held in unacknowledged:
            again.send({**held.event, "event_id": held.id})
        await until(lambda: again.pending() == 0)
    assert [ack.event_id for ack in acks] == ids
    assert len(await recorded(control, conversation)) == 6


@pytest.mark.stack
async def test_an_unknown_key_stops_the_stream_with_an_authentication_error(
    control: Callable[[str, str], Awaitable[object]],
) -> None:
    stream = AsyncEventStream(api_key="msk_not_a_key")
    await stream.start()
    stream.send(turn(unique("py-stream-key"), 0))
    await until(lambda: stream.error is not None, 30)
    assert isinstance(stream.error, AuthenticationError)
    assert stream.error.code == "UNAUTHORIZED"
    assert stream.connection() == "stopped"
    await stream.close(deadline=0.1)


@pytest.mark.stack
async def test_anticipated_context_follows_a_user_turn_as_an_async_iterator(
    control: Callable[[str, str], Awaitable[object]],
) -> None:
    user = unique("py-anticipation-user")
    async with AsyncMemoryClient() as client:
        accepted = await client.memories.ingest(
            document="My daughter Lena plays the cello in the Lisbon youth orchestra.",
            document_type="note",
            mode="fast",
            user_id=user,
        )
        memory_ids: list[str] = []

        async def ingested() -> bool:
            status = await client.memories.status(accepted.ingestion_id)
            memory_ids[:] = status.memory_ids or []
            return status.status == "completed"

        await until_async(ingested)

        async def searchable() -> bool:
            found = await client.memories.search(query="Lena cello", user_id=user, mode="fast")
            return any(hit.id in memory_ids for hit in found.results)

        await until_async(searchable)
    async with AsyncEventStream(anticipated_context=True) as stream:
        asked = stream.send(turn(unique("py-anticipation-conv"), 0, user) | {"content": "What does Lena play?"})
        contexts = stream.anticipated_contexts()
        context = await asyncio.wait_for(anext(contexts), timeout=30)
    assert context.in_reply_to_event_id == asked
    assert any(item.memory_id in memory_ids and "cello" in item.content for item in context.items)


async def until_async(condition: Callable[[], Awaitable[bool]], timeout: float = 60.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"not within {timeout} s")
        await asyncio.sleep(0.25)
