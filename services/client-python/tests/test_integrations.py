"""The framework adapters on the real stack: the LangGraph store's put/get/search/delete/list, the OpenAI Agents SDK
tools and instructions, the LangChain retriever."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from agents import Agent, RunContextWrapper
from agents.tool_context import ToolContext
from langgraph.store.base import BaseStore

from memory_service import AsyncMemoryClient, MemoryClient
from memory_service.integrations.langchain import MemoryServiceRetriever
from memory_service.integrations.langgraph import MemoryServiceStore
from memory_service.integrations.openai_agents import memory_instructions, memory_tools

from .support import eventually, unique

pytestmark = pytest.mark.stack


@pytest.fixture(scope="module")
def store(client: MemoryClient) -> BaseStore:
    return MemoryServiceStore(client)


def test_the_langgraph_store_puts_gets_replaces_and_deletes(store: BaseStore) -> None:
    namespace = ("users", unique("lg-user"), "preferences")
    store.put(namespace, "editor", {"content": "Prefers dark mode in every editor.", "strength": 3})
    item = store.get(namespace, "editor")
    assert item is not None
    assert (item.namespace, item.key, item.value) == (
        namespace,
        "editor",
        {"content": "Prefers dark mode in every editor.", "strength": 3},
    )
    store.put(namespace, "editor", {"content": "Prefers light mode since the new monitor.", "strength": 1})
    replaced = store.get(namespace, "editor")
    assert replaced is not None and replaced.value["strength"] == 1
    assert store.get(namespace, "missing") is None
    assert store.get((namespace[0], namespace[1], "other"), "editor") is None
    store.delete(namespace, "editor")
    assert store.get(namespace, "editor") is None


def test_the_langgraph_store_searches_by_prefix_query_and_filter(store: BaseStore) -> None:
    user = unique("lg-user")
    store.put(("users", user, "food"), "lunch", {"content": "Loves spicy ramen for lunch.", "kind": "meal"})
    store.put(("users", user, "sport"), "weekend", {"content": "Goes climbing every Saturday.", "kind": "habit"})

    def both() -> list[Any] | None:
        found = store.search(("users", user), query="what does the user eat")
        return found if len(found) == 2 else None

    found = eventually(both)
    assert found[0].key == "lunch"
    assert found[0].score is not None
    assert [item.key for item in store.search(("users", user, "sport"))] == ["weekend"]
    assert [item.key for item in store.search(("users", user), filter={"kind": "habit"})] == ["weekend"]
    listed = store.list_namespaces(prefix=("users", user))
    assert set(listed) == {("users", user, "food"), ("users", user, "sport")}
    assert store.list_namespaces(prefix=("users", user), max_depth=2) == [("users", user)]


async def test_the_langgraph_store_from_async_code(store: BaseStore) -> None:
    namespace = ("customers", unique("lg-customer"), "users", unique("lg-user"))
    await store.aput(namespace, "pet", {"text": "Has a cat called Miso."})
    item = await store.aget(namespace, "pet")
    assert item is not None and item.value == {"text": "Has a cat called Miso."}


async def test_the_openai_agents_tools_store_and_search_and_instructions_add_the_summary(
    client: MemoryClient,
) -> None:
    user = unique("agents-user")
    conversation = unique("agents-conv")
    async with AsyncMemoryClient() as memory:
        search, store_tool = memory_tools(user_id=user, conversation_id=conversation, client=memory, mode="fast")
        assert (search.name, store_tool.name) == ("memory_search", "memory_store")
        context = ToolContext(context=None, tool_name="memory_store", tool_call_id="call-1", tool_arguments="{}")
        stored = json.loads(
            await store_tool.on_invoke_tool(context, json.dumps({"content": "My daughter Lena plays the cello."}))
        )
        assert stored["stored"] is True
        eventually(lambda: client.memories.status(stored["ingestion_id"]).status == "completed" or None)

        async def found() -> dict[str, Any]:
            return dict(
                json.loads(await search.on_invoke_tool(context, json.dumps({"query": "Lena", "max_results": 3})))
            )

        answer: dict[str, Any] = {}
        for _ in range(40):
            answer = await found()
            if answer["memories"]:
                break
            await asyncio.sleep(0.25)
        assert answer["available"] is True
        assert "cello" in answer["memories"][0]["content"]

        messages = [
            {"role": "user" if turn % 2 == 0 else "assistant", "content": f"Turn {turn}: we planned the garden."}
            for turn in range(8)
        ]
        client.conversations.ingest_transcript(conversation, user_id=user, messages=messages)
        eventually(lambda: len(client.conversations.context(conversation, user_id=user).recent_turns) == 8 or None)
        client.conversations.compact(conversation, user_id=user, keep_recent=2)
        eventually(lambda: client.conversations.context(conversation, user_id=user).summary)
        instructions = memory_instructions(
            "You are a gardening assistant.", user_id=user, conversation_id=conversation, client=memory
        )
        agent: Agent[Any] = Agent(name="gardener", instructions=instructions)
        text = await instructions(RunContextWrapper(context=None), agent)
        assert text.startswith("You are a gardening assistant.\n\nEarlier in this conversation (compacted): ")
        without = memory_instructions("Base.", user_id=user, conversation_id=unique("none"), client=memory)
        assert await without(RunContextWrapper(context=None), agent) == "Base."


async def test_the_langchain_retriever_returns_documents(client: MemoryClient) -> None:
    user = unique("lc-user")
    accepted = client.memories.ingest(
        document="My brother Tomas teaches physics in Porto.", document_type="note", mode="fast", user_id=user
    )
    eventually(lambda: client.memories.status(accepted.ingestion_id).status == "completed" or None)
    retriever = MemoryServiceRetriever(user_id=user, k=3, mode="fast", client=client)
    documents = eventually(lambda: retriever.invoke("Tomas physics") or None)
    assert "Tomas" in documents[0].page_content
    assert documents[0].metadata["memory_id"] == documents[0].id
    assert (await retriever.ainvoke("Tomas physics"))[0].id == documents[0].id


def test_the_langgraph_store_answers_as_langgraphs_reference_store(store: BaseStore) -> None:
    """LangGraph publishes no conformance suite for stores and points at InMemoryStore as the reference: the same
    operations on both give the same answers (search results compared as sets: the reference keeps insertion order,
    the service ranks)."""
    from langgraph.store.memory import InMemoryStore

    reference = InMemoryStore()
    user, other = unique("ref-user"), unique("ref-user")
    writes: list[tuple[tuple[str, ...], str, dict[str, Any] | None]] = [
        (("users", user, "profile"), "city", {"content": "Lives in Porto.", "kind": "place"}),
        (("users", user, "profile"), "job", {"content": "Works as a nurse.", "kind": "work"}),
        (("users", user, "hobbies"), "music", {"content": "Plays the cello.", "kind": "hobby"}),
        (("users", other, "profile"), "city", {"content": "Lives in Glasgow.", "kind": "place"}),
        (("users", user, "profile"), "city", {"content": "Moved to Austin.", "kind": "place"}),
        (("users", user, "hobbies"), "music", None),
    ]
    for namespace, key, value in writes:
        for target in (reference, store):
            if value is None:
                target.delete(namespace, key)
            else:
                target.put(namespace, key, value)

    def answers(target: BaseStore) -> dict[str, Any]:
        def found(prefix: tuple[str, ...], **options: Any) -> set[tuple[tuple[str, ...], str, str]]:
            return {
                (item.namespace, item.key, json.dumps(item.value, sort_keys=True))
                for item in target.search(prefix, **options)
            }

        def got(namespace: tuple[str, ...], key: str) -> dict[str, Any] | None:
            item = target.get(namespace, key)
            return None if item is None else item.value

        return {
            "city": got(("users", user, "profile"), "city"),
            "music": got(("users", user, "hobbies"), "music"),
            "other city": got(("users", other, "profile"), "city"),
            "user": found(("users", user)),
            "profile": found(("users", user, "profile")),
            "places": found(("users", user), filter={"kind": "place"}),
            "other": found(("users", other)),
        }

    expected = answers(reference)
    assert expected["city"] == {"content": "Moved to Austin.", "kind": "place"}
    # Each put and delete returned once a get saw it: the service's answers are current.
    assert answers(store) == expected
