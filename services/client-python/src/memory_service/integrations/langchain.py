"""A LangChain retriever over a user's memories: each hit a `Document` with the memory's content, and its id,
type, score and dates in the metadata."""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from .._async.client import AsyncMemoryClient
from .._sync.client import MemoryClient
from ..models import MemorySearchResponse


class MemoryServiceRetriever(BaseRetriever):
    """`MemoryServiceRetriever(user_id="ana")`: the clients default to MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    user_id: str | None = None
    customer_id: str | None = None
    k: int = 5
    mode: Literal["accurate", "fast"] = "accurate"
    client: MemoryClient = Field(default_factory=MemoryClient)
    async_client: AsyncMemoryClient = Field(default_factory=AsyncMemoryClient)

    def _scope(self) -> dict[str, Any]:
        return {name: value for name, value in (("user_id", self.user_id), ("customer_id", self.customer_id)) if value}

    @staticmethod
    def _documents(found: MemorySearchResponse) -> list[Document]:
        return [
            Document(
                page_content=hit.content,
                id=hit.id,
                metadata={
                    "memory_id": hit.id,
                    "type": hit.type,
                    "score": hit.score,
                    "created_at": str(hit.created_at),
                    **(hit.metadata or {}),
                },
            )
            for hit in found.results
        ]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return self._documents(self.client.memories.search(query=query, limit=self.k, mode=self.mode, **self._scope()))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        found = await self.async_client.memories.search(query=query, limit=self.k, mode=self.mode, **self._scope())
        return self._documents(found)
