from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ConversationEvent(_message.Message):
    __slots__ = ("event_id", "event_type", "conversation_id", "user_id", "customer_id", "role", "content", "occurred_at", "metadata_json")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    METADATA_JSON_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    event_type: str
    conversation_id: str
    user_id: str
    customer_id: str
    role: str
    content: str
    occurred_at: str
    metadata_json: str
    def __init__(self, event_id: _Optional[str] = ..., event_type: _Optional[str] = ..., conversation_id: _Optional[str] = ..., user_id: _Optional[str] = ..., customer_id: _Optional[str] = ..., role: _Optional[str] = ..., content: _Optional[str] = ..., occurred_at: _Optional[str] = ..., metadata_json: _Optional[str] = ...) -> None: ...

class ConversationEvents(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[ConversationEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[ConversationEvent, _Mapping]]] = ...) -> None: ...

class ClientMessage(_message.Message):
    __slots__ = ("event", "events")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    event: ConversationEvent
    events: ConversationEvents
    def __init__(self, event: _Optional[_Union[ConversationEvent, _Mapping]] = ..., events: _Optional[_Union[ConversationEvents, _Mapping]] = ...) -> None: ...

class EventAck(_message.Message):
    __slots__ = ("event_id", "status", "code", "message")
    class Status(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        STATUS_UNSPECIFIED: _ClassVar[EventAck.Status]
        ACCEPTED: _ClassVar[EventAck.Status]
        DUPLICATE: _ClassVar[EventAck.Status]
        REJECTED: _ClassVar[EventAck.Status]
    STATUS_UNSPECIFIED: EventAck.Status
    ACCEPTED: EventAck.Status
    DUPLICATE: EventAck.Status
    REJECTED: EventAck.Status
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    status: EventAck.Status
    code: str
    message: str
    def __init__(self, event_id: _Optional[str] = ..., status: _Optional[_Union[EventAck.Status, str]] = ..., code: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class ContextItem(_message.Message):
    __slots__ = ("memory_id", "content", "score")
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    memory_id: str
    content: str
    score: float
    def __init__(self, memory_id: _Optional[str] = ..., content: _Optional[str] = ..., score: _Optional[float] = ...) -> None: ...

class AnticipatedContext(_message.Message):
    __slots__ = ("conversation_id", "in_reply_to_event_id", "items")
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    IN_REPLY_TO_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    conversation_id: str
    in_reply_to_event_id: str
    items: _containers.RepeatedCompositeFieldContainer[ContextItem]
    def __init__(self, conversation_id: _Optional[str] = ..., in_reply_to_event_id: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ContextItem, _Mapping]]] = ...) -> None: ...

class EventAcks(_message.Message):
    __slots__ = ("acks",)
    ACKS_FIELD_NUMBER: _ClassVar[int]
    acks: _containers.RepeatedCompositeFieldContainer[EventAck]
    def __init__(self, acks: _Optional[_Iterable[_Union[EventAck, _Mapping]]] = ...) -> None: ...

class ServerMessage(_message.Message):
    __slots__ = ("ack", "anticipated_context", "acks")
    ACK_FIELD_NUMBER: _ClassVar[int]
    ANTICIPATED_CONTEXT_FIELD_NUMBER: _ClassVar[int]
    ACKS_FIELD_NUMBER: _ClassVar[int]
    ack: EventAck
    anticipated_context: AnticipatedContext
    acks: EventAcks
    def __init__(self, ack: _Optional[_Union[EventAck, _Mapping]] = ..., anticipated_context: _Optional[_Union[AnticipatedContext, _Mapping]] = ..., acks: _Optional[_Union[EventAcks, _Mapping]] = ...) -> None: ...
