"""The async client: a method for every route of the service's REST API, the spec's retry policy and its errors.
`_sync/client.py` is generated from this file (scripts/generate.py): change this one."""

from __future__ import annotations

import asyncio
import random as random_module
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any

import httpx

from .. import models
from .._requests import (
    Model,
    base_url_of,
    error_of,
    fields_of,
    headers_of,
    is_retryable,
    no_answer,
    parse,
    query_of,
    retry_after_of,
    segment,
)
from .._types import AsyncSleep, Fields, OnRetry
from ..retry import RetryPolicy, retry_delay


class AsyncMemoryClient:
    """Memory Service over REST.

    `base_url` defaults to MEMORY_SERVICE_URL (else http://127.0.0.1:8080), `api_key` to MEMORY_SERVICE_API_KEY.
    Answers of 429, 500 and 503 are retried (at least Retry-After later); a request that got no answer is retried
    only when repeating it is safe (reads, and writes that carry their own id). `timeout` bounds one attempt, in
    seconds. Use it as a context manager, or call `aclose()`.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: AsyncSleep | None = None,
        random: Callable[[], float] | None = None,
        on_retry: OnRetry | None = None,
    ) -> None:
        self._timeout = timeout
        self._http = httpx.AsyncClient(
            base_url=base_url_of(base_url), headers=headers_of(api_key), timeout=timeout, transport=transport
        )
        self._policy = retry or RetryPolicy()
        self._sleep: AsyncSleep = sleep or asyncio.sleep
        self._random = random or random_module.random
        self._on_retry = on_retry
        self.keys = AsyncKeys(self)
        self.instances = AsyncInstances(self)
        self.memories = AsyncMemories(self)
        self.events = AsyncEvents(self)
        self.conversations = AsyncConversations(self)
        self.users = AsyncUsers(self)
        self.analytics = AsyncAnalytics(self)
        self.configs = AsyncConfigs(self)
        self.webhooks = AsyncWebhooks(self)

    async def __aenter__(self) -> AsyncMemoryClient:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def liveness(self) -> models.Liveness:
        return parse(models.Liveness, await self._send("GET", "/healthz"))

    async def readiness(self) -> models.Readiness:
        """The engines' report, whether or not every one is up (503 is an answer here, not an error)."""
        return parse(models.Readiness, await self._send("GET", "/readyz", accept=(200, 503)))

    async def _send(
        self,
        method: str,
        path: str,
        *,
        query: dict[str, Any] | None = None,
        body: object = None,
        content: tuple[str, str] | None = None,
        idempotent: bool | None = None,
        accept: Sequence[int] = (200, 201),
    ) -> httpx.Response:
        """One request with the retry policy; an answer outside `accept` raises the error of its code."""
        safe = method in ("GET", "HEAD") if idempotent is None else idempotent
        headers: dict[str, str] = {}
        payload: str | None = None
        if content is not None:
            payload, headers["content-type"] = content
        attempt = 0
        while True:
            attempt += 1
            try:
                if body is not None:
                    response = await self._http.request(method, path, params=query, json=body)
                else:
                    response = await self._http.request(method, path, params=query, content=payload, headers=headers)
            except httpx.TransportError as error:
                if not safe or attempt >= self._policy.max_attempts:
                    raise no_answer(method, path, error, self._timeout) from error
                await self._pause(attempt, None, None, path)
                continue
            if response.status_code in accept:
                return response
            if is_retryable(response) and attempt < self._policy.max_attempts:
                await self._pause(attempt, response.status_code, retry_after_of(response), path)
                continue
            raise error_of(response)

    async def _pause(self, attempt: int, status: int | None, retry_after: float | None, path: str) -> None:
        delay = retry_delay(attempt, retry_after, self._policy, self._random)
        if self._on_retry is not None:
            self._on_retry(attempt, status, delay, path)
        await self._sleep(delay)

    async def _get(self, model: type[Model], path: str, query: Fields = None, /, **fields: Any) -> Model:
        return parse(model, await self._send("GET", path, query=query_of(query, fields)))


class _AsyncRoutes:
    def __init__(self, client: AsyncMemoryClient) -> None:
        self._client = client


class AsyncKeys(_AsyncRoutes):
    async def current(self) -> models.CurrentKey:
        """The key this client calls with: its instance, permissions and expiry."""
        return await self._client._get(models.CurrentKey, "/v1/keys/current")


class AsyncInstances(_AsyncRoutes):
    async def list(self, query: Fields = None, /, **fields: Any) -> models.InstanceList:
        return await self._client._get(models.InstanceList, "/dashboard/instances", query, **fields)

    async def get(self, instance_id: str) -> models.Instance:
        return await self._client._get(models.Instance, f"/dashboard/instances/{segment(instance_id)}")

    async def create(self, request: Fields = None, /, **fields: Any) -> models.CreatedInstance:
        """Creates an instance; the answer's API key is shown this once."""
        body = fields_of(request, fields)
        return parse(models.CreatedInstance, await self._client._send("POST", "/dashboard/instances", body=body))


class AsyncMemories(_AsyncRoutes):
    async def ingest(self, request: Fields = None, /, **fields: Any) -> models.IngestionAccepted:
        """Queues a document; retried after a lost answer only when it has a document_id (then idempotent)."""
        body = fields_of(request, fields)
        response = await self._client._send("POST", "/v1/memories", body=body, idempotent="document_id" in body)
        return parse(models.IngestionAccepted, response)

    async def ingest_batch(
        self, documents: Sequence[Fields], *, fail_fast: bool | None = None
    ) -> models.DocumentBatchResponse:
        """Up to the spec's batch size of documents, each answered on its own (or none queued, with fail_fast)."""
        items = [fields_of(document, {}) for document in documents]
        body: dict[str, Any] = {"documents": items}
        if fail_fast is not None:
            body["fail_fast"] = fail_fast
        safe = all("document_id" in item for item in items)
        response = await self._client._send("POST", "/v1/memories/batch", body=body, idempotent=safe)
        return parse(models.DocumentBatchResponse, response)

    async def status(self, ingestion_id: str) -> models.IngestionStatus:
        return await self._client._get(models.IngestionStatus, f"/v1/memories/{segment(ingestion_id)}/status")

    async def ingestions(self, query: Fields = None, /, **fields: Any) -> models.IngestionJobList:
        """The instance's ingestion jobs, newest first."""
        return await self._client._get(models.IngestionJobList, "/v1/ingestions", query, **fields)

    async def list(self, query: Fields = None, /, **fields: Any) -> models.MemoryList:
        return await self._client._get(models.MemoryList, "/v1/memories", query, **fields)

    async def get(self, memory_id: str, query: Fields = None, /, **fields: Any) -> models.Memory:
        """With `as_of`, the memory only if it was valid at that moment (otherwise NotFoundError)."""
        return await self._client._get(models.Memory, f"/v1/memories/{segment(memory_id)}", query, **fields)

    async def history(self, memory_id: str) -> models.MemoryHistory:
        """Every change of the memory, oldest first, with its cause and correlation id."""
        return await self._client._get(models.MemoryHistory, f"/v1/memories/{segment(memory_id)}/history")

    async def update(self, memory_id: str, request: Fields = None, /, **fields: Any) -> models.Memory:
        body = fields_of(request, fields)
        response = await self._client._send("PATCH", f"/v1/memories/{segment(memory_id)}", body=body)
        return parse(models.Memory, response)

    async def delete(self, memory_id: str) -> None:
        await self._client._send("DELETE", f"/v1/memories/{segment(memory_id)}", accept=(204,), idempotent=True)

    async def feedback(self, memory_id: str, rating: str | None, *, reason: str | None = None) -> models.Memory:
        """Feedback on a memory (docs/api/feedback.md): "positive", "negative" or "very_negative", None to withdraw
        it; search ranks by it. Safe to retry: the memory holds the last feedback given."""
        body: dict[str, Any] = {"rating": rating}
        if reason is not None:
            body["reason"] = reason
        response = await self._client._send(
            "POST", f"/v1/memories/{segment(memory_id)}/feedback", body=body, idempotent=True
        )
        return parse(models.Memory, response)

    async def search(self, request: Fields = None, /, **fields: Any) -> models.MemorySearchResponse:
        body = fields_of(request, fields)
        response = await self._client._send("POST", "/v1/memories/search", body=body, idempotent=True)
        return parse(models.MemorySearchResponse, response)

    async def bulk_update(self, request: Fields = None, /, **fields: Any) -> models.MemoryBulkResponse:
        """Up to 1 000 updates by id, or `set` on what a filter matches (dry_run, then confirm_count); safe to retry."""
        body = fields_of(request, fields)
        response = await self._client._send("POST", "/v1/memories/bulk-update", body=body, idempotent=True)
        return parse(models.MemoryBulkResponse, response)

    async def bulk_delete(self, request: Fields = None, /, **fields: Any) -> models.MemoryBulkResponse:
        """Up to 1 000 deletions by id, or what a filter matches (dry_run, then confirm_count); safe to retry."""
        body = fields_of(request, fields)
        response = await self._client._send("POST", "/v1/memories/bulk-delete", body=body, idempotent=True)
        return parse(models.MemoryBulkResponse, response)

    async def import_memories(
        self,
        records: Sequence[Fields] | Mapping[str, Any],
        *,
        format: str = "memory-service",
        user_id: str | None = None,
        customer_id: str | None = None,
    ) -> models.MemoryImportResponse:
        """Up to 1 000 memories stored as given (docs/api/import.md): records in our format or as mem0 or Zep return
        theirs (`format="mem0"` / `"zep"`), as a list or in their envelope (`{"results": [...]}`). Safe to retry:
        each record is imported once, by its source id."""
        query = {"format": format, "user_id": user_id, "customer_id": customer_id}
        body = dict(records) if isinstance(records, Mapping) else [fields_of(record, {}) for record in records]
        response = await self._client._send(
            "POST",
            "/v1/memories/import",
            query={key: value for key, value in query.items() if value is not None},
            body=body,
            idempotent=True,
        )
        return parse(models.MemoryImportResponse, response)

    async def create_export(self, request: Fields = None, /, **fields: Any) -> models.MemoryExport:
        """An export of a user's, a customer's or a filter's memories (docs/api/export.md), taken now."""
        body = fields_of(request, fields)
        return parse(models.MemoryExport, await self._client._send("POST", "/v1/memories/exports", body=body))

    async def get_export(self, export_id: str) -> models.MemoryExport:
        return await self._client._get(models.MemoryExport, f"/v1/memories/exports/{segment(export_id)}")

    async def download_export(self, export_id: str, *, after: str | None = None) -> str:
        """The export's JSON Lines, one memory per line in id order; after a cut download, pass the last complete
        line's id as `after` for the rest. The lines import back as they are (`import_memories`)."""
        response = await self._client._send(
            "GET",
            f"/v1/memories/exports/{segment(export_id)}/download",
            query={"after": after} if after is not None else None,
        )
        return response.text

    async def download_export_parquet(self, export_id: str, *, after: str | None = None) -> tuple[bytes, str | None]:
        """One Parquet file of an export made with format="parquet" (up to 10 000 memories, a row each), and the
        `after` of the next file (None after the last)."""
        response = await self._client._send(
            "GET",
            f"/v1/memories/exports/{segment(export_id)}/download",
            query={"after": after} if after is not None else None,
        )
        return response.content, response.headers.get("x-next-after")


class AsyncEvents(_AsyncRoutes):
    async def send(self, events: Sequence[Fields]) -> models.EventBatchResponse:
        """Conversation events over HTTP, each answered on its own; retried after a lost answer only when every
        event has an event_id (the service answers a repeat `duplicate`)."""
        items = [fields_of(event, {}) for event in events]
        safe = all("event_id" in item for item in items)
        response = await self._client._send("POST", "/v1/events/batch", body={"events": items}, idempotent=safe)
        return parse(models.EventBatchResponse, response)


class AsyncConversations(_AsyncRoutes):
    async def ingest_transcript(
        self, conversation_id: str, request: Fields = None, /, **fields: Any
    ) -> models.TranscriptAccepted:
        """A whole conversation at once: `accepted` the first time, `duplicate` for the identical transcript."""
        path = f"/v1/conversations/{segment(conversation_id)}/transcript"
        response = await self._client._send("POST", path, body=fields_of(request, fields), idempotent=True)
        return parse(models.TranscriptAccepted, response)

    async def context(self, conversation_id: str, query: Fields = None, /, **fields: Any) -> models.ConversationContext:
        path = f"/v1/conversations/{segment(conversation_id)}/context"
        return await self._client._get(models.ConversationContext, path, query, **fields)

    async def compact(self, conversation_id: str, request: Fields = None, /, **fields: Any) -> models.Compaction:
        """ConflictError (COMPACTION_IN_PROGRESS) while another compaction runs: permanent, not retried."""
        path = f"/v1/conversations/{segment(conversation_id)}/compact"
        return parse(models.Compaction, await self._client._send("POST", path, body=fields_of(request, fields)))


class AsyncUsers(_AsyncRoutes):
    async def profile(self, user_id: str, query: Fields = None, /, **fields: Any) -> models.UserProfile:
        """Each changing attribute's value for the user (now, or `as_of` a moment), since when, what it replaced."""
        return await self._client._get(models.UserProfile, f"/v1/users/{segment(user_id)}/profile", query, **fields)

    async def erase(self, user_id: str) -> models.UserErasureReceipt:
        """Erases everything stored about the user in this instance: their key at once, the rest as a job. Answers the
        receipt `running`; read it with `erasure` until it is `completed`."""
        response = await self._client._send("DELETE", f"/v1/users/{segment(user_id)}", accept=(202,))
        return parse(models.UserErasureReceipt, response)

    async def erasure(self, user_id: str, receipt_id: str) -> models.UserErasureReceipt:
        """An erasure's receipt: `running`, then `completed` with what each store removed."""
        return await self._client._get(
            models.UserErasureReceipt, f"/v1/users/{segment(user_id)}/erasures/{segment(receipt_id)}", None
        )


class AsyncAnalytics(_AsyncRoutes):
    async def metrics(self, query: Fields = None, /, **fields: Any) -> models.AnalyticsMetricsResponse:
        return await self._client._get(models.AnalyticsMetricsResponse, "/v1/analytics/metrics", query, **fields)

    async def latency(self, query: Fields = None, /, **fields: Any) -> models.AnalyticsLatencyResponse:
        return await self._client._get(models.AnalyticsLatencyResponse, "/v1/analytics/latency", query, **fields)

    async def tokens(self, query: Fields = None, /, **fields: Any) -> models.AnalyticsTokensResponse:
        return await self._client._get(models.AnalyticsTokensResponse, "/v1/analytics/tokens", query, **fields)

    async def summary(self, query: Fields = None, /, **fields: Any) -> models.AnalyticsSummaryResponse:
        return await self._client._get(models.AnalyticsSummaryResponse, "/v1/analytics/summary", query, **fields)

    async def export(self, query: Fields = None, /, **fields: Any) -> bytes:
        """The usage rows as CSV (with a header line) or Parquet, as the service sent them."""
        response = await self._client._send("GET", "/v1/analytics/export", query=query_of(query, fields))
        return response.content


def _versions(instance_id: str) -> str:
    return f"/instances/{segment(instance_id)}/memory-architecture/versions"


class AsyncConfigs(_AsyncRoutes):
    async def init(self, instance_id: str) -> models.ConfigVersion:
        path = f"/instances/{segment(instance_id)}/memory-architecture/init"
        return parse(models.ConfigVersion, await self._client._send("POST", path, idempotent=True))

    async def propose(
        self, instance_id: str, configuration: str | models.MemoryArchitectureConfig | Mapping[str, Any]
    ) -> models.ConfigVersion:
        """A configuration as YAML text, or as a model or mapping (sent as JSON)."""
        if isinstance(configuration, str):
            content = (configuration, "application/yaml")
            response = await self._client._send("POST", _versions(instance_id), content=content)
        else:
            body = fields_of(configuration, {})
            response = await self._client._send("POST", _versions(instance_id), body=body)
        return parse(models.ConfigVersion, response)

    async def list(self, instance_id: str, query: Fields = None, /, **fields: Any) -> models.ConfigVersionList:
        return await self._client._get(models.ConfigVersionList, _versions(instance_id), query, **fields)

    async def get(self, instance_id: str, config_id: str) -> models.ConfigVersion:
        return await self._client._get(models.ConfigVersion, f"{_versions(instance_id)}/{segment(config_id)}")

    async def review(
        self, instance_id: str, config_id: str, request: Fields = None, /, **fields: Any
    ) -> models.ConfigVersion:
        path = f"{_versions(instance_id)}/{segment(config_id)}/review"
        return parse(models.ConfigVersion, await self._client._send("POST", path, body=fields_of(request, fields)))

    async def apply(self, instance_id: str, config_id: str) -> models.ConfigVersion:
        path = f"{_versions(instance_id)}/{segment(config_id)}/apply"
        return parse(models.ConfigVersion, await self._client._send("POST", path))

    async def current(self, instance_id: str) -> models.CurrentConfig:
        return await self._client._get(models.CurrentConfig, f"/dashboard/configs/{segment(instance_id)}")

    async def history(self, instance_id: str) -> models.ConfigHistory:
        return await self._client._get(models.ConfigHistory, f"/dashboard/configs/{segment(instance_id)}/history")


class AsyncWebhooks(_AsyncRoutes):
    async def create(self, request: Fields = None, /, **fields: Any) -> models.CreatedWebhook:
        """Registers a webhook; the answer's `secret` (whsec_…) is shown this once."""
        body = fields_of(request, fields)
        return parse(models.CreatedWebhook, await self._client._send("POST", "/v1/webhooks", body=body))

    async def list(self, query: Fields = None, /, **fields: Any) -> models.WebhookList:
        return await self._client._get(models.WebhookList, "/v1/webhooks", query, **fields)

    async def get(self, webhook_id: str) -> models.Webhook:
        return await self._client._get(models.Webhook, f"/v1/webhooks/{segment(webhook_id)}")

    async def update(self, webhook_id: str, request: Fields = None, /, **fields: Any) -> models.Webhook:
        path = f"/v1/webhooks/{segment(webhook_id)}"
        response = await self._client._send("PATCH", path, body=fields_of(request, fields), idempotent=True)
        return parse(models.Webhook, response)

    async def delete(self, webhook_id: str) -> None:
        path = f"/v1/webhooks/{segment(webhook_id)}"
        await self._client._send("DELETE", path, accept=(204,), idempotent=True)

    async def deliveries(self, webhook_id: str, query: Fields = None, /, **fields: Any) -> models.WebhookDeliveryList:
        """Newest first, with each delivery's status, attempts, last status code and next attempt."""
        path = f"/v1/webhooks/{segment(webhook_id)}/deliveries"
        return await self._client._get(models.WebhookDeliveryList, path, query, **fields)

    async def redeliver(self, webhook_id: str, delivery_id: str) -> models.WebhookDelivery:
        """Sends a delivery again now; ConflictError (WEBHOOK_DISABLED) while the webhook is disabled."""
        path = f"/v1/webhooks/{segment(webhook_id)}/deliveries/{segment(delivery_id)}/redeliver"
        response = await self._client._send("POST", path, accept=(202,), idempotent=True)
        return parse(models.WebhookDelivery, response)
