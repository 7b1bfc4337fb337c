"""The event stream: conversation events over the gateway's bidirectional gRPC stream, acknowledged one by one.

The same contract as the TypeScript client's `createEventStream`: every event gets an id on the client (its own
`event_id`, or one made here), is kept until acknowledged and sent again under the same id after a reconnect (the
gateway answers a repeat `DUPLICATE`, so each is recorded once). While the stream cannot deliver, new events are
held under the spec's offline rule: at most `max_events` (100) and `max_age` (5 minutes), the oldest dropped first
and reported. Events already sent on a call that was lost are sent again first and are not dropped for the limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random as random_module
import time
import uuid
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import grpc
import grpc.aio
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from ._proto import event_stream_pb2 as pb
from .errors import AuthenticationError, MemoryServiceError, error_for_status

#: The environment variable the gRPC address is read from when none is given.
GRPC_ADDRESS_VARIABLE = "MEMORY_SERVICE_GRPC_ADDRESS"
DEFAULT_GRPC_ADDRESS = "127.0.0.1:50051"
STREAM_METHOD = "/memory.v1.EventStream/Stream"

#: Events per message when several leave together (a message stays far below gRPC's 4 MB limit).
MAX_EVENTS_PER_MESSAGE = 100
MAX_CHARS_PER_MESSAGE = 1_000_000

AckStatus = Literal["ACCEPTED", "DUPLICATE", "REJECTED"]
DropReason = Literal["buffer_full", "too_old"]
Connection = Literal["idle", "connecting", "connected", "disconnected", "stopped"]

logger = logging.getLogger("memory_service.stream")

# The HTTP status each gRPC status has over REST: errors are the same classes whichever transport raised them.
_HTTP_STATUS_OF_GRPC = {
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.INVALID_ARGUMENT: 400,
}


@dataclass(frozen=True)
class HeldEvent:
    """An event the stream holds, with the id it is sent under and when `send` took it (the stream's clock)."""

    id: str
    event: dict[str, Any]
    at: float


@dataclass(frozen=True)
class EventAck:
    event_id: str
    status: AckStatus
    #: For REJECTED: INVALID_EVENT, RATE_LIMITED or SERVICE_UNAVAILABLE (retry those under the same id).
    code: str = ""
    message: str = ""


@dataclass(frozen=True)
class ContextItem:
    memory_id: str
    content: str
    score: float


@dataclass(frozen=True)
class AnticipatedContext:
    """What the service expects the agent to need next, pushed after a user turn."""

    conversation_id: str
    in_reply_to_event_id: str
    items: list[ContextItem] = field(default_factory=list)


def _error_of(error: grpc.aio.AioRpcError) -> MemoryServiceError:
    body: object = None
    for key, value in error.trailing_metadata() or ():
        if key == "error-body":
            try:
                body = json.loads(value if isinstance(value, str) else value.decode())
            except (ValueError, UnicodeDecodeError):
                body = None
    if body is None:
        body = {"error": error.details() or str(error.code()), "code": error.code().name}
    return error_for_status(_HTTP_STATUS_OF_GRPC.get(error.code(), 500), body)


def _to_proto(event_id: str, event: dict[str, Any]) -> pb.ConversationEvent:
    message = pb.ConversationEvent(
        event_id=event_id,
        event_type=str(event.get("event_type", "")),
        conversation_id=str(event.get("conversation_id", "")),
        user_id=str(event.get("user_id", "")),
        metadata_json=json.dumps(event["metadata"]) if event.get("metadata") is not None else "",
    )
    for name in ("customer_id", "role", "content", "occurred_at"):
        if event.get(name) is not None:
            setattr(message, name, str(event[name]))
    return message


class AsyncEventStream:
    """Streams conversation events to the gateway over gRPC (asyncio).

    `address` defaults to MEMORY_SERVICE_GRPC_ADDRESS (else 127.0.0.1:50051), `api_key` to MEMORY_SERVICE_API_KEY.
    With `anticipated_context=True` the stream subscribes, and `anticipated_contexts()` yields what the service
    pushes. A bad key or a missing permission stops the stream (`error`), it does not reconnect. Use it as an async
    context manager, or `start()` and `close()`.
    """

    def __init__(
        self,
        address: str | None = None,
        api_key: str | None = None,
        *,
        max_events: int = 100,
        max_age: float = 300.0,
        initial_backoff: float = 0.2,
        max_backoff: float = 10.0,
        anticipated_context: bool = False,
        on_ack: Callable[[EventAck], None] | None = None,
        on_dropped: Callable[[HeldEvent, DropReason], None] | None = None,
        credentials: grpc.ChannelCredentials | None = None,
        clock: Callable[[], float] = time.monotonic,
        random: Callable[[], float] = random_module.random,
    ) -> None:
        self._address = address or os.environ.get(GRPC_ADDRESS_VARIABLE) or DEFAULT_GRPC_ADDRESS
        key = api_key if api_key is not None else os.environ.get("MEMORY_SERVICE_API_KEY", "")
        self._metadata: list[tuple[str, str]] = [("authorization", f"Bearer {key}")]
        if anticipated_context:
            self._metadata.append(("x-anticipated-context", "subscribe"))
        self._max_events = max_events
        self._max_age = max_age
        self._initial_backoff = initial_backoff
        self._max_backoff = max_backoff
        self._on_ack = on_ack
        self._on_dropped = on_dropped
        self._credentials = credentials
        self._clock = clock
        self._random = random
        #: Sent on the current call and waiting for an ack, in send order.
        self._in_flight: dict[str, HeldEvent] = {}
        #: Not deliverable now, in the order they will leave: what a lost call carried first.
        self._offline: list[HeldEvent] = []
        #: Events a call that was answering carried when it was lost: they go again whatever the offline rule says.
        self._replaying: set[str] = set()
        self._state: Literal["idle", "running", "stopped"] = "idle"
        self._disconnected = False
        self._outgoing: list[HeldEvent] = []
        self._outgoing_chars = 0
        self._flush_scheduled = False
        self._requests: asyncio.Queue[pb.ClientMessage | None] | None = None
        self._channel: grpc.aio.Channel | None = None
        self._runner: asyncio.Task[None] | None = None
        self._settled = asyncio.Event()
        self._contexts: asyncio.Queue[AnticipatedContext | None] = asyncio.Queue()
        #: Why the stream stopped on its own (a bad key, a missing permission); None while it runs.
        self.error: MemoryServiceError | None = None

    async def __aenter__(self) -> AsyncEventStream:
        await self.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Opens the stream; events can be sent at once (they are held until the connection is up)."""
        if self._state == "stopped":
            raise RuntimeError("the event stream was closed; create a new one")
        if self._state == "running":
            return
        self._state = "running"
        options = [
            ("grpc.initial_reconnect_backoff_ms", int(self._initial_backoff * 1000)),
            ("grpc.min_reconnect_backoff_ms", int(self._initial_backoff * 1000)),
            ("grpc.max_reconnect_backoff_ms", int(self._max_backoff * 1000)),
        ]
        self._channel = (
            grpc.aio.secure_channel(self._address, self._credentials, options=options)
            if self._credentials is not None
            else grpc.aio.insecure_channel(self._address, options=options)
        )
        self._runner = asyncio.get_running_loop().create_task(self._run())

    def send(self, event: BaseModel | Mapping[str, Any]) -> str:
        """Sends one event (or holds it while the stream cannot deliver) and returns the id it is sent under."""
        if self._state == "idle":
            raise RuntimeError("start() the event stream before sending")
        if self._state == "stopped":
            raise RuntimeError("the event stream was closed")
        fields: dict[str, Any] = (
            event.model_dump(mode="json", exclude_unset=True)
            if isinstance(event, BaseModel)
            else dict(to_jsonable_python(dict(event)))
        )
        held = HeldEvent(str(fields.get("event_id") or f"evt-{uuid.uuid4()}"), fields, self._clock())
        self._settled.clear()
        if self._requests is not None and not self._disconnected:
            self._write(held)
        else:
            self._offline.append(held)
            self._enforce_offline_limits()
        return held.id

    def pending(self) -> int:
        """Events sent or held and not yet acknowledged."""
        return len(self._in_flight) + len(self._offline)

    def connection(self) -> Connection:
        """`disconnected` from a lost call until the connection is up again (new events are then held under the
        offline rule); `connecting` or `connected` otherwise."""
        if self._state != "running":
            return self._state
        if self._disconnected:
            return "disconnected"
        if self._channel is None or self._channel.get_state() != grpc.ChannelConnectivity.READY:
            return "connecting"
        return "connected"

    async def anticipated_contexts(self) -> AsyncIterator[AnticipatedContext]:
        """What the service pushes after user turns (with `anticipated_context=True`), until the stream closes."""
        while True:
            context = await self._contexts.get()
            if context is None:
                self._contexts.put_nowait(None)
                return
            yield context

    async def close(self, deadline: float = 10.0) -> list[HeldEvent]:
        """Waits up to `deadline` seconds for every event to be acknowledged (reconnecting meanwhile if needed), then
        closes. Returns the events never acknowledged: they may or may not be recorded; resending them under the
        same ids is safe."""
        self._flush()
        if self._state == "running" and self.pending() > 0:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._settled.wait(), timeout=deadline)
        unacknowledged = [*self._in_flight.values(), *self._offline]
        if unacknowledged:
            logger.warning(
                "closed with %d event(s) not acknowledged within %s s; they may or may not have been recorded "
                "(resend them with the same ids)",
                len(unacknowledged),
                deadline,
                extra={"event_ids": [held.id for held in unacknowledged]},
            )
        self._in_flight.clear()
        self._offline.clear()
        self._replaying.clear()
        self._state = "stopped"
        if self._requests is not None:
            self._requests.put_nowait(None)
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
        if self._channel is not None:
            await self._channel.close()
        self._contexts.put_nowait(None)
        return unacknowledged

    # The call, and what happens when it is lost.

    async def _run(self) -> None:
        attempt = 0
        while self._state == "running":
            if self._disconnected:
                ceiling = min(self._max_backoff, self._initial_backoff * 2.0**attempt)
                attempt += 1
                if not await self._ready_within(max(ceiling, self._initial_backoff)):
                    self._enforce_offline_limits()
                    continue
            requests: asyncio.Queue[pb.ClientMessage | None] = asyncio.Queue()
            self._requests = requests
            assert self._channel is not None
            call = self._channel.stream_stream(
                STREAM_METHOD,
                request_serializer=pb.ClientMessage.SerializeToString,
                response_deserializer=pb.ServerMessage.FromString,
            )(self._messages(requests), metadata=self._metadata)
            self._disconnected = False
            self._deliver_held()
            answering = False
            try:
                async for message in call:
                    attempt = 0
                    answering = True
                    self._receive(message)
            except grpc.aio.AioRpcError as error:
                if self._state != "running":
                    return
                mapped = _error_of(error)
                if isinstance(mapped, AuthenticationError):
                    self.error = mapped
                    self._state = "stopped"
                    self._requests = None
                    self._settled.set()
                    self._contexts.put_nowait(None)
                    return
            except Exception:
                # Whatever broke the call (a message that does not decode, say), the events it carried go again.
                logger.exception("the event stream's call failed; reconnecting")
            if self._state != "running":
                return
            self._lost(answering)
            await asyncio.sleep(self._random() * min(self._max_backoff, self._initial_backoff * 2.0**attempt))
            attempt += 1

    async def _ready_within(self, seconds: float) -> bool:
        assert self._channel is not None
        try:
            await asyncio.wait_for(self._channel.channel_ready(), timeout=seconds)
        except asyncio.TimeoutError:
            return False
        return True

    @staticmethod
    async def _messages(requests: asyncio.Queue[pb.ClientMessage | None]) -> AsyncIterator[pb.ClientMessage]:
        while (message := await requests.get()) is not None:
            yield message

    def _lost(self, answering: bool) -> None:
        """The call is gone: what it carried unacknowledged goes first on the next one, in its order. Events a call
        that was answering had taken are not dropped for the offline rule (the rule is for what arrives while the
        stream cannot deliver); those of a call that never answered stay under it."""
        self._requests = None
        self._disconnected = True
        self._outgoing = []
        self._outgoing_chars = 0
        if answering:
            self._replaying.update(self._in_flight)
        self._offline = [*self._in_flight.values(), *self._offline]
        self._in_flight.clear()
        self._enforce_offline_limits()

    def _deliver_held(self) -> None:
        self._enforce_offline_limits()
        held, self._offline = self._offline, []
        for entry in held:
            self._write(entry)

    def _receive(self, message: pb.ServerMessage) -> None:
        kind = message.WhichOneof("message")
        if kind == "anticipated_context":
            context = message.anticipated_context
            self._contexts.put_nowait(
                AnticipatedContext(
                    context.conversation_id,
                    context.in_reply_to_event_id,
                    [ContextItem(item.memory_id, item.content, item.score) for item in context.items],
                )
            )
            return
        acks = [message.ack] if kind == "ack" else list(message.acks.acks) if kind == "acks" else []
        for ack in acks:
            self._in_flight.pop(ack.event_id, None)
            self._replaying.discard(ack.event_id)
            if self._on_ack is not None:
                status: Any = pb.EventAck.Status.Name(ack.status)
                self._on_ack(EventAck(ack.event_id, status, ack.code, ack.message))
        if self.pending() == 0:
            self._settled.set()

    # Writing: events sent in one turn of the event loop leave in one message.

    def _write(self, held: HeldEvent) -> None:
        self._in_flight[held.id] = held
        self._outgoing.append(held)
        self._outgoing_chars += len(str(held.event.get("content") or "")) + 200
        if len(self._outgoing) >= MAX_EVENTS_PER_MESSAGE or self._outgoing_chars >= MAX_CHARS_PER_MESSAGE:
            self._flush()
        elif not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        entries, self._outgoing, self._outgoing_chars = self._outgoing, [], 0
        if self._requests is None or not entries:
            return
        if len(entries) == 1:
            self._requests.put_nowait(pb.ClientMessage(event=_to_proto(entries[0].id, entries[0].event)))
        else:
            events = [_to_proto(entry.id, entry.event) for entry in entries]
            self._requests.put_nowait(pb.ClientMessage(events=pb.ConversationEvents(events=events)))

    def _enforce_offline_limits(self) -> None:
        """The offline rule, on what was taken while the stream could not deliver."""
        now = self._clock()
        ruled = [held for held in self._offline if held.id not in self._replaying]
        expired = {held.id for held in ruled if now - held.at > self._max_age}
        young = [held.id for held in ruled if held.id not in expired]
        # The oldest go first: beyond max_events, the first of the young ones in the order they would leave.
        full = set(young[: max(0, len(young) - self._max_events)])
        if expired or full:
            self._drop([held for held in self._offline if held.id in expired], "too_old")
            self._drop([held for held in self._offline if held.id in full], "buffer_full")
            self._offline = [held for held in self._offline if held.id not in expired and held.id not in full]
        if self.pending() == 0:
            self._settled.set()

    def _drop(self, entries: list[HeldEvent], reason: DropReason) -> None:
        if not entries:
            return
        logger.warning(
            "dropped %d undelivered event(s) (%s) while the stream could not deliver",
            len(entries),
            reason,
            extra={"event_ids": [held.id for held in entries]},
        )
        if self._on_dropped is not None:
            for held in entries:
                self._on_dropped(held, reason)
