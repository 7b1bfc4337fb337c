"""Store a note about a user, wait until it has become memories, and search them."""

import time

from memory_service import MemoryClient

with MemoryClient() as client:  # MEMORY_SERVICE_URL, MEMORY_SERVICE_API_KEY
    accepted = client.memories.ingest(
        document="My sister Clara works as a nurse in Lisbon.", document_type="note", mode="fast", user_id="ana"
    )
    while (job := client.memories.status(accepted.ingestion_id)).status in ("queued", "processing"):
        time.sleep(0.5)
    print("ingestion", job.status, "with", len(job.memory_ids or []), "memories")
    for hit in client.memories.search(query="where does Clara work", user_id="ana").results:
        print(f"{hit.score:.2f} {hit.content}")
