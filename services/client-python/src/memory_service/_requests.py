"""What the async and sync clients share: where requests go, how bodies and queries are written, and how an answer
becomes a model or an error."""

from __future__ import annotations

import json
import os
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

from ._types import Fields
from .errors import MemoryServiceError, error_for_status
from .retry import RETRYABLE_STATUSES, parse_retry_after

#: The environment variables the address and the API key are read from when none is given.
BASE_URL_VARIABLE = "MEMORY_SERVICE_URL"
API_KEY_VARIABLE = "MEMORY_SERVICE_API_KEY"
DEFAULT_BASE_URL = "http://127.0.0.1:8080"

Model = TypeVar("Model", bound=BaseModel)


def base_url_of(base_url: str | None) -> str:
    return (base_url or os.environ.get(BASE_URL_VARIABLE) or DEFAULT_BASE_URL).rstrip("/")


def headers_of(api_key: str | None) -> dict[str, str]:
    key = api_key if api_key is not None else os.environ.get(API_KEY_VARIABLE)
    return {"authorization": f"Bearer {key}"} if key else {}


def segment(value: str) -> str:
    """A path segment, escaped (an id with a slash stays one segment)."""
    return quote(value, safe="")


def fields_of(given: Fields, extra: dict[str, Any]) -> dict[str, Any]:
    """A model or mapping plus keyword fields, as JSON values; a model sends only the fields that were set."""
    if isinstance(given, BaseModel):
        body: dict[str, Any] = given.model_dump(mode="json", exclude_unset=True, by_alias=True)
    else:
        body = dict(to_jsonable_python(dict(given or {})))
    body.update(to_jsonable_python(extra))
    return body


def query_of(given: Fields, extra: dict[str, Any]) -> dict[str, Any]:
    """Query parameters: None is left out, lists repeat the parameter, booleans are `true`/`false`, and an object
    (the list's `filters`) travels as JSON text."""
    params: dict[str, Any] = {}
    for key, value in fields_of(given, extra).items():
        if value is None:
            continue
        if isinstance(value, bool):
            params[key] = "true" if value else "false"
        elif isinstance(value, list):
            params[key] = [str(item).lower() if isinstance(item, bool) else str(item) for item in value]
        elif isinstance(value, (dict, BaseModel)):
            params[key] = json.dumps(to_jsonable_python(value, by_alias=True, exclude_none=True), separators=(",", ":"))
        else:
            params[key] = str(value)
    return params


def is_retryable(response: httpx.Response) -> bool:
    return response.status_code in RETRYABLE_STATUSES


def retry_after_of(response: httpx.Response) -> float | None:
    return parse_retry_after(response.headers.get("retry-after"))


def error_of(response: httpx.Response) -> MemoryServiceError:
    try:
        body: object = response.json() if response.content else None
    except (json.JSONDecodeError, UnicodeDecodeError):
        # Not the service's JSON (a proxy's error page): the status alone says what happened.
        body = None
    return error_for_status(
        response.status_code, body, retry_after_of(response), response.headers.get("x-correlation-id")
    )


def no_answer(method: str, path: str, error: httpx.TransportError, timeout: float | None) -> MemoryServiceError:
    if isinstance(error, httpx.TimeoutException):
        return MemoryServiceError(f"{method} {path}: no answer within {timeout} s", "TIMEOUT")
    return MemoryServiceError(f"{method} {path}: {error}", "CONNECTION_FAILED")


def parse(model: type[Model], response: httpx.Response) -> Model:
    """The answer as its model; an answer that is not one (a proxy's page, another service) is an error, not a
    pydantic exception from inside the client."""
    try:
        return model.model_validate_json(response.content)
    except ValidationError as invalid:
        raise MemoryServiceError(
            f"{response.request.method} {response.request.url.path}: the answer is not a {model.__name__}",
            "UNEXPECTED_RESPONSE",
            {"problems": [f"{'.'.join(map(str, error['loc']))}: {error['msg']}" for error in invalid.errors()]},
            status=response.status_code,
            correlation_id=response.headers.get("x-correlation-id"),
        ) from invalid
