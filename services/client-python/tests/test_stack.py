"""Every route once against the real gateway, with the answers' models, and errors matched by code."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone
from functools import partial

import pytest

from memory_service import (
    AsyncMemoryClient,
    AuthenticationError,
    ConflictError,
    InvalidInputError,
    MemoryClient,
    NotFoundError,
    models,
)

from .support import eventually, unique

pytestmark = pytest.mark.stack


def test_liveness_readiness_and_the_current_key(client: MemoryClient, instance_id: str) -> None:
    assert client.liveness().status == "ok"
    assert {check.name for check in client.readiness().checks} >= {"kafka", "elasticsearch"}
    key = client.keys.current()
    assert key.instance_id == instance_id
    assert "memories:write" in key.permissions


def test_instances(client: MemoryClient, instance_id: str) -> None:
    assert instance_id in [item.instance_id for item in client.instances.list(page_size=100).items]
    assert client.instances.get(instance_id).instance_id == instance_id
    created = client.instances.create(name=unique("py-instance"), tier="free")
    assert created.api_key.key.startswith("msk_")
    assert client.instances.get(created.instance.instance_id).tier == "free"


def test_a_document_becomes_memories_that_are_read_searched_changed_and_deleted(client: MemoryClient) -> None:
    user = unique("py-user")
    accepted = client.memories.ingest(
        models.Document(
            document="My sister Clara works as a nurse in Lisbon. I love spicy ramen.",
            document_type="note",
            mode="fast",
            user_id=user,
        )
    )
    job = eventually(
        lambda: status if (status := client.memories.status(accepted.ingestion_id)).status == "completed" else None
    )
    memory_id = (job.memory_ids or [""])[0]
    memory = client.memories.get(memory_id)
    assert memory.scope.user_id == user

    def searched() -> models.MemorySearchResponse | None:
        reply = client.memories.search(query="Clara", user_id=user)
        return reply if any(hit.id == memory_id for hit in reply.results) else None

    found = eventually(searched)
    assert found.mode == "accurate"
    assert client.memories.list(user_id=user).total >= 1
    same_type = {"type": memory.type, "created_at": {"lte": memory.created_at}}
    assert memory_id in [item.id for item in client.memories.list(user_id=user, filters=same_type).items]
    other_types = client.memories.list(user_id=user, filters={"not": {"type": memory.type}})
    assert memory_id not in [item.id for item in other_types.items]
    assert accepted.ingestion_id in [job.ingestion_id for job in client.memories.ingestions(page_size=100).items]
    changed = client.memories.update(memory_id, content="Clara works as a nurse in Porto.")
    assert changed.content == "Clara works as a nurse in Porto."
    assert len(client.memories.history(memory_id).changes) >= 2
    expiring = client.memories.update(memory_id, expires_at="2099-01-31T00:00:00Z")
    assert expiring.expires_at == datetime(2099, 1, 31, tzinfo=timezone.utc)
    with pytest.raises(InvalidInputError) as past:
        client.memories.update(memory_id, expires_at="2001-01-01T00:00:00Z")
    assert "expires_at" in past.value.details["fields"]
    rated = client.memories.feedback(memory_id, "negative", reason="Clara moved on")
    assert rated.feedback is not None
    assert (rated.feedback.rating, rated.feedback.reason) == ("negative", "Clara moved on")
    assert client.memories.history(memory_id).changes[-1].change == "feedback"
    assert client.memories.feedback(memory_id, None).feedback is None
    reviewed = {"updates": [{"memory_id": memory_id, "metadata": {"reviewed": True}}]}
    assert [result.status for result in client.memories.bulk_update(reviewed).results] == ["updated"]
    assert client.memories.bulk_update(reviewed).summary.unchanged == 1

    def counted() -> models.MemoryBulkResponse | None:
        reply = client.memories.bulk_delete(user_id=user, filters={"metadata.reviewed": True}, dry_run=True)
        return reply if reply.matched == 1 else None

    # A filter sees the update once the index has refreshed (within a second).
    dry_run = eventually(counted)
    assert (dry_run.dry_run, dry_run.results) == (True, [])
    batch = client.memories.ingest_batch(
        [
            {
                "document": "I play the cello.",
                "document_type": "note",
                "mode": "fast",
                "user_id": user,
                "document_id": unique("py-doc"),
            }
        ]
    )
    assert [result.status for result in batch.results] == ["queued"]
    client.memories.delete(memory_id)
    with pytest.raises(NotFoundError) as missing:
        client.memories.get(memory_id)
    assert missing.value.status == 404


def test_import_of_mem0_records_is_stored_as_given_and_once(client: MemoryClient) -> None:
    user = unique("py-import")
    source_id = unique("mem0")
    page = {
        "count": 1,
        "next": None,
        "results": [
            {
                "id": source_id,
                "memory": "Prefers window seats on long flights",
                "user_id": user,
                "categories": ["travel", "user_preferences"],
                "metadata": None,
                "created_at": "2025-02-27T16:33:20.557000+00:00",
                "updated_at": "2025-02-27T16:33:20.557000+00:00",
            }
        ],
    }
    first = client.memories.import_memories(page, format="mem0")
    assert [(result.external_id, result.status) for result in first.results] == [(source_id, "queued")]
    eventually(
        lambda: job if (job := client.memories.status(first.results[0].ingestion_id)).status == "completed" else None
    )
    memory = client.memories.get(first.results[0].memory_id)
    assert (memory.type, memory.created_at) == ("preference", datetime(2025, 2, 27, 16, 33, 20, 557000, timezone.utc))
    again = client.memories.import_memories(page, format="mem0")
    assert [result.status for result in again.results] == ["duplicate"]
    refused = client.memories.import_memories([{"id": "x", "content": ""}])
    assert [error.code for error in refused.errors] == ["INVALID_INPUT"]
    # An export counts what the index shows, once it has refreshed (within a second).
    export = eventually(
        lambda: made if (made := client.memories.create_export(user_id=user, include_history=False)).matched else None
    )
    assert (export.matched, export.status) == (1, "ready")
    assert client.memories.get_export(export.export_id).export_id == export.export_id
    lines = client.memories.download_export(export.export_id).splitlines()
    assert [json.loads(line)["content"] for line in lines] == ["Prefers window seats on long flights"]
    assert client.memories.download_export(export.export_id, after=json.loads(lines[-1])["id"]) == ""
    parquet = client.memories.create_export(user_id=user, include_history=False, format="parquet")
    file, next_after = client.memories.download_export_parquet(parquet.export_id)
    # A whole Parquet file (its magic at both ends), the only one of this export.
    assert (file[:4], file[-4:], next_after) == (b"PAR1", b"PAR1", None)


def test_events_transcripts_context_and_compaction(client: MemoryClient) -> None:
    user = unique("py-user")
    conversation = unique("py-conv")
    event = {
        "event_id": unique("py-event"),
        "event_type": "user_message",
        "conversation_id": conversation,
        "user_id": user,
        "content": "I adopted a cat called Miso.",
    }
    assert client.events.send([event]).accepted == 1
    again = client.events.send([event])
    assert (again.accepted, again.duplicate) == (0, 1)
    transcript = unique("py-transcript")
    messages = [
        {"role": "user" if turn % 2 == 0 else "assistant", "content": f"Turn {turn} about my garden."}
        for turn in range(8)
    ]
    assert client.conversations.ingest_transcript(transcript, user_id=user, messages=messages).status == "accepted"
    context = eventually(
        lambda: ctx if len((ctx := client.conversations.context(transcript, user_id=user)).recent_turns) == 8 else None
    )
    assert context.summary is None
    compacted = client.conversations.compact(transcript, user_id=user, keep_recent=2)
    assert (compacted.status, compacted.compacted_turns) == ("compacted", 6)
    # Right after a compaction its summary is still becoming memories: the receipt covers those too.
    accepted = client.users.erase(user)
    assert (accepted.user_id, accepted.receipt_id) == (user, accepted.log.erasure_event_id)
    receipt = eventually(
        lambda: read if (read := client.users.erasure(user, accepted.receipt_id)).status == "completed" else None
    )
    assert receipt.completed_at is not None


def test_a_users_profile(client: MemoryClient) -> None:
    user = unique("py-profile")

    def completed(ingestion_id: str) -> models.IngestionStatus | None:
        status = client.memories.status(ingestion_id)
        return status if status.status == "completed" else None

    for text, at in [
        ("Ana: I live in Lisbon, near the river.", "2023-01-10T09:00:00Z"),
        ("Ana: We finally moved to Porto last month!", "2024-03-10T09:00:00Z"),
    ]:
        accepted = client.memories.ingest(
            document=text, document_type="ai-chat-conversation", mode="fast", user_id=user, document_created_at=at
        )
        eventually(partial(completed, accepted.ingestion_id))

    # The profile projection follows the memories' on its own: wait until it holds the move and what it replaced.
    def residence(**query: str) -> models.UserProfile | None:
        profile = client.users.profile(user, **query)
        facts = [a for subject in profile.subjects for a in subject.attributes if a.attribute == "residence"]
        return profile if any(fact.value == "porto" and fact.replaced for fact in facts) else None

    now = eventually(residence)
    [fact] = [a for subject in now.subjects for a in subject.attributes if a.attribute == "residence"]
    assert fact.value == "porto"
    assert [replaced.value for replaced in fact.replaced] == ["lisbon"]
    then = client.users.profile(user, as_of="2023-06-01T00:00:00Z")
    assert [a.value for subject in then.subjects for a in subject.attributes if a.attribute == "residence"] == [
        "lisbon"
    ]
    with pytest.raises(InvalidInputError):
        client.users.profile(user, as_of="yesterday")


def test_analytics(client: MemoryClient, instance_id: str) -> None:
    end = datetime.now(timezone.utc) + timedelta(minutes=1)
    window = {"instance_id": instance_id, "bucket": "hour", "start": end - timedelta(days=1), "end": end}
    assert client.analytics.metrics(window, metric="api_call").metric == "api_call"
    assert client.analytics.latency(window, operation="ingestion").operation == "ingestion"
    assert client.analytics.tokens(window).bucket == "hour"
    assert client.analytics.summary(instance_id=instance_id, period="24h").instance_id == instance_id
    csv = client.analytics.export(instance_id=instance_id, start=window["start"], end=end)
    assert csv.splitlines()[0].startswith(b'"occurred_at","metric","value"')


def test_a_configuration_through_its_lifecycle(client: MemoryClient, instance_id: str) -> None:
    reviewer_key = os.environ.get("MEMORY_SERVICE_REVIEWER_KEY")
    if not reviewer_key:
        pytest.skip("MEMORY_SERVICE_REVIEWER_KEY names no second key of the instance to review with")
    assert client.configs.init(instance_id).status == "active"
    proposed = client.configs.propose(instance_id, "retrieval:\n  max_results: 5\n")
    assert proposed.status == "pending_review"
    with pytest.raises(ConflictError):
        client.configs.apply(instance_id, proposed.config_id)
    with MemoryClient(api_key=reviewer_key) as reviewer:
        reviewer.configs.review(instance_id, proposed.config_id, decision="approve", comment="fine")
        assert reviewer.configs.apply(instance_id, proposed.config_id).status == "active"
    assert client.configs.get(instance_id, proposed.config_id).status == "active"
    assert client.configs.current(instance_id).config.config_id == proposed.config_id
    assert client.configs.list(instance_id, status="superseded").total >= 1
    assert len(client.configs.history(instance_id).versions) >= 2


def test_webhooks(client: MemoryClient) -> None:
    created = client.webhooks.create(url="https://hooks.example.com/memory", events=["ingestion.completed"])
    assert created.secret.startswith("whsec_")
    webhook_id = created.webhook_id
    assert webhook_id in [item.webhook_id for item in client.webhooks.list(page_size=100).items]
    assert client.webhooks.get(webhook_id).url == "https://hooks.example.com/memory"
    assert client.webhooks.update(webhook_id, description="from Python").description == "from Python"
    assert client.webhooks.deliveries(webhook_id).total >= 0
    with pytest.raises(NotFoundError) as unknown:
        client.webhooks.redeliver(webhook_id, "whd_0000000000000000")
    assert unknown.value.code == "WEBHOOK_DELIVERY_NOT_FOUND"
    client.webhooks.delete(webhook_id)
    with pytest.raises(NotFoundError) as gone:
        client.webhooks.get(webhook_id)
    assert gone.value.code == "WEBHOOK_NOT_FOUND"


def test_errors_carry_the_spec_code_and_details(client: MemoryClient) -> None:
    with pytest.raises(InvalidInputError) as invalid:
        client.memories.search(query="")
    assert invalid.value.code == "INVALID_INPUT"
    assert invalid.value.details
    assert invalid.value.correlation_id
    with MemoryClient(api_key="msk_not_a_key") as stranger:
        assert stranger.liveness().status == "ok"
        with pytest.raises(AuthenticationError) as refused:
            stranger.instances.list()
    assert refused.value.status == 401


async def test_the_async_client_on_the_stack() -> None:
    user = unique("py-async-user")
    async with AsyncMemoryClient() as client:
        conversation = unique("py-async-conv")
        sent = await client.events.send(
            [
                {
                    "event_id": unique("e"),
                    "event_type": "user_message",
                    "conversation_id": conversation,
                    "user_id": user,
                    "content": "I run every Sunday.",
                }
            ]
        )
        assert sent.accepted == 1
        reply = await client.memories.search(query="running", user_id=user, mode="fast")
        assert reply.mode == "fast"
        with pytest.raises(NotFoundError):
            await client.memories.get("mem_00000000000000000000000000000000")
