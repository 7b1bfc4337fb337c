"""Memory Service's Python client: typed sync and async REST clients (models generated from the service's OpenAPI),
the spec's retry policy, and errors raised by the spec's `code`."""

from . import models
from ._async.client import AsyncMemoryClient
from ._requests import API_KEY_VARIABLE, BASE_URL_VARIABLE
from ._sync.client import MemoryClient
from .errors import (
    AuthenticationError,
    ConflictError,
    InvalidInputError,
    MemoryServiceError,
    NotFoundError,
    RateLimitError,
    ServiceUnavailableError,
)
from .retry import RetryPolicy
from .stream import AnticipatedContext, AsyncEventStream, ContextItem, EventAck, HeldEvent

__all__ = [
    "API_KEY_VARIABLE",
    "BASE_URL_VARIABLE",
    "AnticipatedContext",
    "AsyncEventStream",
    "AsyncMemoryClient",
    "AuthenticationError",
    "ConflictError",
    "ContextItem",
    "EventAck",
    "HeldEvent",
    "InvalidInputError",
    "MemoryClient",
    "MemoryServiceError",
    "NotFoundError",
    "RateLimitError",
    "RetryPolicy",
    "ServiceUnavailableError",
    "models",
]
