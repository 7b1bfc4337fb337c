"""Memory for the OpenAI Agents SDK, as the TypeScript adapter gives it: `memory_search` (what is known about the
user; on a failure the model learns memory is unavailable and carries on), `memory_store` (a statement to
remember; a failure is shown to the model), and `memory_instructions` (the compacted context of the conversation
added after the agent's own instructions each turn)."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from agents import Agent, FunctionTool, RunContextWrapper
from agents.tool_context import ToolContext

from .._async.client import AsyncMemoryClient
from ..errors import MemoryServiceError

logger = logging.getLogger("memory_service.integrations.openai_agents")

InstructionStyle = Literal["narrative", "structured", "bullet_points"]

_SEARCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["query", "max_results"],
    "properties": {
        "query": {"type": "string", "description": "What to look for, as a question."},
        "max_results": {"type": "integer", "description": "At most this many memories (5 is usual)."},
    },
}
_STORE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["content"],
    "properties": {"content": {"type": "string", "description": "What to remember, as one statement."}},
}


def memory_tools(
    *,
    user_id: str,
    customer_id: str | None = None,
    conversation_id: str | None = None,
    client: AsyncMemoryClient | None = None,
    mode: Literal["accurate", "fast"] = "accurate",
) -> list[FunctionTool]:
    """`memory_search` and `memory_store` for one user (and customer), as tools of an `agents.Agent`."""
    memory = client or AsyncMemoryClient()
    scope: dict[str, Any] = {"user_id": user_id, **({"customer_id": customer_id} if customer_id else {})}

    async def search(_context: ToolContext[Any], arguments: str) -> str:
        try:
            asked = json.loads(arguments)
            found = await memory.memories.search(
                query=str(asked["query"]), limit=max(1, min(50, int(asked.get("max_results") or 5))), mode=mode, **scope
            )
        except (MemoryServiceError, ValueError, KeyError) as error:
            logger.warning("memory search unavailable; the agent carries on without memory: %s", error)
            return json.dumps({"available": False})
        memories = [
            {
                "id": hit.id,
                "type": hit.type,
                "content": hit.content,
                "score": hit.score,
                "created_at": str(hit.created_at),
            }
            for hit in found.results
        ]
        return json.dumps({"available": True, "memories": memories})

    async def store(_context: ToolContext[Any], arguments: str) -> str:
        content = str(json.loads(arguments)["content"])
        metadata = {"source": "memory_store_tool", **({"conversation_id": conversation_id} if conversation_id else {})}
        accepted = await memory.memories.ingest(
            document=content, document_type="note", mode="fast", metadata=metadata, **scope
        )
        return json.dumps({"stored": True, "ingestion_id": accepted.ingestion_id})

    return [
        FunctionTool(
            name="memory_search",
            description=(
                "Search long-term memory about the user (facts, preferences, past events) by meaning. Use it before "
                "answering anything that depends on what the user said in earlier conversations."
            ),
            params_json_schema=_SEARCH_SCHEMA,
            on_invoke_tool=search,
        ),
        FunctionTool(
            name="memory_store",
            description=(
                "Store a fact, preference or event about the user in long-term memory, as one self-contained statement."
            ),
            params_json_schema=_STORE_SCHEMA,
            on_invoke_tool=store,
        ),
    ]


def format_instructions(summary: str, style: InstructionStyle) -> str:
    statements = [line.strip().lstrip("-*").strip() for line in summary.splitlines() if line.strip()]
    if style == "structured":
        return "\n".join(
            ["## Conversation memory", "", "### Earlier in this conversation", *(f"- {s}" for s in statements)]
        )
    if style == "bullet_points":
        return "\n".join(["Earlier in this conversation:", *(f"- {s}" for s in statements)])
    return f"Earlier in this conversation (compacted): {' '.join(statements)}"


def memory_instructions(
    base: str,
    *,
    user_id: str,
    conversation_id: str,
    customer_id: str | None = None,
    client: AsyncMemoryClient | None = None,
    style: InstructionStyle = "narrative",
) -> Callable[[RunContextWrapper[Any], Agent[Any]], Awaitable[str]]:
    """Dynamic instructions for `agents.Agent(instructions=…)`: `base`, then the conversation's compacted summary
    when there is one. When the context cannot be fetched the turn goes on with `base` alone."""
    memory = client or AsyncMemoryClient()
    scope: dict[str, Any] = {"user_id": user_id, **({"customer_id": customer_id} if customer_id else {})}

    async def instructions(_context: RunContextWrapper[Any], _agent: Agent[Any]) -> str:
        try:
            context = await memory.conversations.context(conversation_id, **scope)
        except MemoryServiceError as error:
            logger.warning("short-term context unavailable; the turn goes on without it: %s", error)
            return base
        summary = context.summary.text if context.summary is not None else None
        return f"{base}\n\n{format_instructions(summary, style)}" if summary else base

    return instructions
