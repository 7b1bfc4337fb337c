"""A LangGraph store (`langgraph.store.base.BaseStore`) over Memory Service: `put` stores a value as a note of the
namespace's scope, `get`, `search` and `delete` find it again by namespace and key.

Namespaces map to scopes with `scope_of` (by default `("users", user_id, …)` and `("customers", customer_id, …)`).
A value becomes a document of type `note` (its `content` or `text` field, else its JSON) whose metadata carry the
namespace, the key and the value itself, so `get` returns exactly what was put. `put` waits until the value is
stored and findable (the pipeline is asynchronous: a put takes about a second); putting a key again replaces its
value. `abatch` runs the same calls on a worker thread.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from .._sync.client import MemoryClient
from ..models import Memory, MemorySearchResponseResult
from ._scopes import ScopeOf, default_scope_of

NAMESPACE_KEY = "langgraph_namespace"
KEY_KEY = "langgraph_key"
VALUE_KEY = "langgraph_value"
#: Each prefix of the namespace is a metadata key of its own, so a search by prefix is an exact-match filter.
PREFIX_KEY = "langgraph_prefix_{}"
MAX_DEPTH = 16


def _path(namespace: tuple[str, ...]) -> str:
    return "\u241f".join(namespace)


def _text_of(value: Mapping[str, Any]) -> str:
    for field in ("content", "text", "memory"):
        if isinstance(value.get(field), str) and value[field].strip():
            return str(value[field])
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _matches(value: dict[str, Any], conditions: dict[str, Any] | None) -> bool:
    return all(value.get(name) == expected for name, expected in (conditions or {}).items())


class MemoryServiceStore(BaseStore):
    """LangGraph's long-term memory store, kept in Memory Service.

    `client` defaults to a `MemoryClient()` from MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY. `wait` bounds how
    long a put or delete waits for the service to have applied it (seconds).
    """

    def __init__(
        self, client: MemoryClient | None = None, *, scope_of: ScopeOf = default_scope_of, wait: float = 60.0
    ) -> None:
        self._client = client or MemoryClient()
        self._scope_of = scope_of
        self._wait = wait

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op.namespace, op.key))
            elif isinstance(op, PutOp):
                self._put(op.namespace, op.key, op.value)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"unknown store operation {op!r}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    # Reads

    def _memories_of(self, namespace: tuple[str, ...], key: str) -> list[MemorySearchResponseResult]:
        reply = self._client.memories.search(
            query=key,
            limit=100,
            mode="fast",
            filters={"metadata": {NAMESPACE_KEY: _path(namespace), KEY_KEY: key}},
            **self._scope_of(namespace).fields(),
        )
        return list(reply.results)

    def _item_of(self, memory: Memory | MemorySearchResponseResult) -> tuple[tuple[str, ...], str, dict[str, Any]]:
        metadata = memory.metadata or {}
        namespace = tuple(str(metadata[NAMESPACE_KEY]).split("\u241f"))
        return namespace, str(metadata[KEY_KEY]), json.loads(str(metadata[VALUE_KEY]))

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        memories = self._memories_of(namespace, key)
        if not memories:
            return None
        first = min(memories, key=lambda memory: memory.created_at)
        _, _, value = self._item_of(first)
        return Item(
            value=value,
            key=key,
            namespace=namespace,
            created_at=first.created_at,
            updated_at=max(memory.updated_at or memory.created_at for memory in memories),
        )

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = op.namespace_prefix
        if not 1 < len(prefix) <= MAX_DEPTH:
            raise ValueError("search needs a namespace prefix that names a scope, e.g. ('users', user_id)")
        reply = self._client.memories.search(
            query=op.query or " ".join(prefix),
            limit=min(100, (op.offset + op.limit) * 3),
            filters={"metadata": {PREFIX_KEY.format(len(prefix)): _path(prefix)}},
            **self._scope_of(prefix).fields(),
        )
        found: dict[tuple[tuple[str, ...], str], SearchItem] = {}
        for hit in reply.results:
            if not (hit.metadata or {}).get(VALUE_KEY):
                continue
            namespace, key, value = self._item_of(hit)
            if (namespace, key) in found or not _matches(value, op.filter):
                continue
            found[(namespace, key)] = SearchItem(
                namespace=namespace,
                key=key,
                value=value,
                created_at=hit.created_at,
                updated_at=hit.updated_at or hit.created_at,
                score=hit.score if op.query else None,
            )
        return list(found.values())[op.offset : op.offset + op.limit]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces: set[tuple[str, ...]] = set()
        page = 1
        while page <= 100:
            listed = self._client.memories.list(page=page, page_size=100)
            for memory in listed.items:
                if (memory.metadata or {}).get(NAMESPACE_KEY):
                    namespaces.add(self._item_of(memory)[0])
            if not listed.has_more:
                break
            page += 1
        selected = []
        for namespace in sorted(namespaces):
            if any(not _matches_condition(namespace, condition) for condition in op.match_conditions or ()):
                continue
            selected.append(namespace[: op.max_depth] if op.max_depth is not None else namespace)
        unique = list(dict.fromkeys(selected))
        return unique[op.offset : op.offset + op.limit]

    # Writes

    def _put(self, namespace: tuple[str, ...], key: str, value: Mapping[str, Any] | None) -> None:
        if not 1 < len(namespace) <= MAX_DEPTH:
            raise ValueError(f"a namespace of 2 to {MAX_DEPTH} labels names a scope, e.g. ('users', user_id)")
        previous = self._memories_of(namespace, key)
        for memory in previous:
            self._client.memories.delete(memory.id)
        if value is not None:
            metadata: dict[str, Any] = {
                NAMESPACE_KEY: _path(namespace),
                KEY_KEY: key,
                VALUE_KEY: json.dumps(dict(value), ensure_ascii=False),
            }
            for depth in range(1, len(namespace) + 1):
                metadata[PREFIX_KEY.format(depth)] = _path(namespace[:depth])
            accepted = self._client.memories.ingest(
                document=_text_of(value),
                document_type="note",
                mode="fast",
                metadata=metadata,
                **self._scope_of(namespace).fields(),
            )
            self._until(lambda: self._client.memories.status(accepted.ingestion_id).status not in _RUNNING)
            status = self._client.memories.status(accepted.ingestion_id)
            if status.status != "completed" or not status.memory_ids:
                raise RuntimeError(f"the value of {namespace!r}/{key!r} was not stored ({status.status})")
        gone = {memory.id for memory in previous}

        def applied() -> bool:
            found = {memory.id for memory in self._memories_of(namespace, key)}
            return found.isdisjoint(gone) and (value is None) == (not found)

        # Search reads the index as of its last refresh: return once a get sees what this put did.
        self._until(applied)

    def _until(self, done: Callable[[], bool]) -> None:
        deadline = time.monotonic() + self._wait
        while not done():
            if time.monotonic() > deadline:
                raise TimeoutError(f"the service did not apply the change within {self._wait} s")
            time.sleep(0.2)


_RUNNING = ("queued", "processing")


def _matches_condition(namespace: tuple[str, ...], condition: Any) -> bool:
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    return all(expected in ("*", actual) for expected, actual in zip(path, part, strict=True))


__all__ = ["MemoryServiceStore"]
