"""The suite runs against a real gateway: MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY name it and a key of an
instance (test/e2e/pythonClient.e2e.test.ts starts one and runs this suite as part of `npm test`). Tests marked
`stack` are skipped, saying why, without them."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from memory_service import MemoryClient


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("MEMORY_SERVICE_URL") and os.environ.get("MEMORY_SERVICE_API_KEY"):
        return
    skip = pytest.mark.skip(reason="MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY name no running gateway")
    for item in items:
        if "stack" in item.keywords:
            item.add_marker(skip)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "stack: needs a running gateway (MEMORY_SERVICE_URL, MEMORY_SERVICE_API_KEY)")


@pytest.fixture(scope="session")
def client() -> Iterator[MemoryClient]:
    with MemoryClient() as opened:
        yield opened


@pytest.fixture(scope="session")
def instance_id(client: MemoryClient) -> str:
    return client.keys.current().instance_id
