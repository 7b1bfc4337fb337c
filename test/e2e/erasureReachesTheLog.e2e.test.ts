/**
 * An erasure reaches every byte we hold (issue 31), counted from outside: one user's data carries a canary word
 * through every path (a document with metadata, conversation events over HTTP and over the gRPC stream, a transcript,
 * its compaction, a poisoned document that is dead-lettered, a webhook delivery); after the user is erased, every
 * Kafka topic of the deployment is read raw from its first offset, every Elasticsearch index scrolled, every graph
 * node and relation of the deployment read, the usage rows exported from ClickHouse and the services' log file read
 * — and the canary is nowhere. Another user's data is intact, and a replay from the beginning brings nothing back.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@elastic/elasticsearch'
import { createEventStream, type MemoryClient } from '@memory-service/client'
import {
  createElasticsearchClient,
  createLogger,
  createNeo4jDriver,
  createNeo4jStore,
  isErasedContent,
  loadEngineDeclarations,
  type Neo4jStore,
} from '@memory-service/engines'
import { createDeadLetterInbox } from '@memory-service/log'
import {
  CONVERSATION_TURNS_INDEX,
  deployment,
  ERASURES_INDEX,
  ERASURE_RECEIPTS_INDEX,
  serviceConsumerGroups,
} from '@memory-service/domain'
import { runReplay } from '@memory-service/cli'
import { faultMarkers } from '../support/faultInjection.js'
import { createTestClient } from '../support/http.js'
import { eventually, startGatewayWithInstance, uniqueName } from '../support/testEngines.js'

const canary = `zq${randomBytes(6).toString('hex')}canary`
const keptWord = `kw${randomBytes(6).toString('hex')}kept`
const erasedUser = uniqueName('canary-user')
const keptUser = uniqueName('kept-user')
const logFile = join(tmpdir(), `memory-service-erasure-${String(process.pid)}.log`)

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>>
let client: MemoryClient
let elasticsearch: Client
let neo4j: Neo4jStore
let receiver: { url: string; bodies: string[]; server: Server }

async function startReceiver() {
  const bodies: string[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      bodies.push(body)
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, bodies, server }
}

async function ingest(userId: string, document: string, metadata: Record<string, string> = {}) {
  const accepted = await client.memories.ingest({
    document,
    document_type: 'note',
    mode: 'long-range',
    user_id: userId,
    metadata,
  })
  return eventually(async () => {
    const job = await client.memories.status(accepted.ingestion_id)
    return ['completed', 'failed', 'partial_success'].includes(job.status) ? job : undefined
  }, 60_000)
}

async function sendBatch(events: unknown[]) {
  const response = await fetch(`${harness.gateway.addresses.http ?? ''}/v1/events/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${harness.instance.api_key.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  })
  expect(response.status).toBe(200)
}

interface RawRecord {
  value: Buffer
  /** Key, value and headers as text, to search. */
  text: string
}

/** Every record of every topic of this deployment, raw (key, value and headers as bytes), from the first offset. */
async function everyRecordRaw(): Promise<{ topic: string; records: RawRecord[] }[]> {
  const admin = harness.kafka.admin()
  await admin.connect()
  const existing = new Set(await admin.listTopics())
  const topics = loadEngineDeclarations()
    .topics.map((topic) => topic.name)
    .filter((name) => existing.has(name))
  const ends = new Map<string, Map<number, bigint>>()
  for (const topic of topics) {
    const offsets = await admin.fetchTopicOffsets(topic)
    ends.set(
      topic,
      new Map(offsets.filter((o) => o.high !== o.low).map((o) => [o.partition, BigInt(o.high) - 1n])),
    )
  }
  await admin.disconnect()
  const records = new Map(topics.map((topic) => [topic, [] as RawRecord[]]))
  const remaining = () => [...ends.values()].reduce((sum, partitions) => sum + partitions.size, 0)
  if (remaining() === 0) return []
  const consumer = harness.kafka.consumer({ groupId: uniqueName('raw-scan') })
  await consumer.connect()
  await consumer.subscribe({ topics, fromBeginning: true })
  await new Promise<void>((resolve, reject) => {
    consumer
      .run({
        eachMessage: ({ topic, partition, message }) => {
          const last = ends.get(topic)?.get(partition)
          if (last === undefined || BigInt(message.offset) > last) return Promise.resolve()
          const headers = Object.entries(message.headers ?? {}).map(
            ([name, value]) => `${name}=${String(value)}`,
          )
          const value = message.value ?? Buffer.alloc(0)
          records.get(topic)?.push({
            value,
            text: [message.key?.toString('utf8') ?? '', value.toString('utf8'), ...headers].join('\n'),
          })
          if (BigInt(message.offset) >= last) ends.get(topic)?.delete(partition)
          if (remaining() === 0) resolve()
          return Promise.resolve()
        },
      })
      .catch(reject)
  })
  await consumer.disconnect()
  return [...records].map(([topic, found]) => ({ topic, records: found }))
}

/** Every document of every index of this deployment, as JSON text, by index. */
async function everyIndexedDocument(): Promise<Map<string, string[]>> {
  const indices = Object.keys(
    await elasticsearch.indices.get({ index: deployment.index('*'), expand_wildcards: 'all' }),
  )
  const found = new Map<string, string[]>()
  for (const index of indices) {
    const documents: string[] = []
    for await (const document of elasticsearch.helpers.scrollDocuments({
      index,
      size: 1000,
      query: { match_all: {} },
    }))
      documents.push(JSON.stringify(document))
    found.set(index, documents)
  }
  return found
}

/** Every node and relation of this deployment's graph generations, as JSON text. */
async function everyGraphElement(): Promise<string[]> {
  const rows = await neo4j.read<{ node: unknown; relations: unknown[] }>(
    `MATCH (node) WHERE node.generation STARTS WITH $prefix
     OPTIONAL MATCH (node)-[relation]-()
     RETURN properties(node) AS node, collect(properties(relation)) AS relations`,
    { prefix: deployment.graph.generationPrefix },
  )
  return rows.map((row) => JSON.stringify(row))
}

const containing = (texts: Iterable<string>, word: string) => [...texts].filter((text) => text.includes(word))

beforeAll(async () => {
  rmSync(logFile, { force: true })
  const logger = createLogger({
    level: 'debug',
    name: 'memory-service',
    destination: logFile,
    format: 'json',
  })
  harness = await startGatewayWithInstance('erasure-log', {
    withWorkers: true,
    logger,
    env: { WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '200ms', WEBHOOK_RETRY_WINDOW: '5s' },
  })
  client = createTestClient({
    baseUrl: harness.gateway.addresses.http ?? '',
    apiKey: harness.instance.api_key.key,
  })
  elasticsearch = createElasticsearchClient(harness.config.elasticsearch)
  neo4j = createNeo4jStore(createNeo4jDriver(harness.config.neo4j), harness.config.neo4j.database)
  receiver = await startReceiver()
})

afterAll(async () => {
  // The workers go first: a webhook delivery still being retried would keep a connection to the receiver open, and
  // close() waits for open connections (CI's hook waited 120 s on it).
  await harness.close()
  receiver.server.closeAllConnections()
  await new Promise((resolve) => receiver.server.close(resolve))
  await elasticsearch.close()
  await neo4j.close()
  rmSync(logFile, { force: true })
})

describe('an erasure that reaches the log', () => {
  it('leaves the canary of an erased user in no topic, index, graph, usage row, dead letter or log line', async () => {
    const hook = await client.webhooks.create({
      url: `${receiver.url}/hook`,
      events: ['ingestion.completed', 'ingestion.failed', 'ingestion.partial_success'],
    })

    // Every path a user's content takes into the log.
    const place = `${canary[0]?.toUpperCase() ?? 'Z'}${canary.slice(1)}`
    const document = await ingest(
      erasedUser,
      `My sister Clara moved to ${place} last spring. My locker code word is ${canary}.`,
      { note: canary },
    )
    expect(document.status).toBe('completed')
    const conversation = uniqueName('canary-conversation')
    await sendBatch([
      {
        event_type: 'user_message',
        conversation_id: conversation,
        user_id: erasedUser,
        role: 'user',
        content: `Remind me that ${canary} is my gym locker.`,
        metadata: { label: canary },
      },
    ])
    const stream = createEventStream({
      address: harness.gateway.addresses.grpc ?? '',
      apiKey: harness.instance.api_key.key,
    })
    stream.start()
    stream.send({
      event_type: 'user_message',
      conversation_id: conversation,
      user_id: erasedUser,
      content: `Also, ${canary} opens the shed.`,
    })
    expect((await stream.stop(10_000)).unacknowledged).toEqual([])
    const transcript = uniqueName('canary-transcript')
    await client.conversations.ingestTranscript(transcript, {
      user_id: erasedUser,
      messages: [
        { role: 'user', content: `I am planning a trip to ${place} with ${canary} as my alias.` },
        { role: 'assistant', content: 'When would you like to go?' },
        { role: 'user', content: `In May; book it under ${canary}.` },
        { role: 'assistant', content: 'Noted.' },
      ],
    })
    await eventually(async () =>
      (await client.conversations.context(transcript, { user_id: erasedUser })).recent_turns.length === 4
        ? true
        : undefined,
    )
    const compaction = await client.conversations.compact(transcript, { user_id: erasedUser, keep_recent: 1 })
    await eventually(async () => {
      const job = await client.memories.status(compaction.ingestion_id ?? '')
      return job.status === 'completed' ? true : undefined
    }, 60_000)
    const poisoned = await ingest(
      erasedUser,
      `${faultMarkers.malformedExtraction} ${canary} in a poisoned note.`,
    )
    expect(poisoned.status).toBe('failed')
    const inbox = createDeadLetterInbox({ kafka: harness.kafka, codec: harness.codec })
    const letter = await eventually(async () =>
      (await inbox.list({ group: serviceConsumerGroups.pipeline })).find(
        (candidate) => candidate.original.key?.endsWith(poisoned.ingestion_id) ?? false,
      ),
    )
    await eventually(async () =>
      receiver.bodies.some((body) => body.includes(erasedUser)) ? true : undefined,
    )

    // The other user, whose data must stay.
    const kept = await ingest(keptUser, `My neighbour Tomas grows ${keptWord} tomatoes in his garden.`)
    expect(kept.status).toBe('completed')
    const keptConversation = uniqueName('kept-conversation')
    await sendBatch([
      {
        event_type: 'user_message',
        conversation_id: keptConversation,
        user_id: keptUser,
        role: 'user',
        content: `The ${keptWord} seeds arrived.`,
      },
    ])

    // The scans can fail: before the erasure the read models hold the canary, and the log holds users' ids.
    await elasticsearch.indices.refresh({ index: deployment.index('*') })
    const indexedBefore = [...(await everyIndexedDocument()).values()].flat()
    expect(containing(indexedBefore, canary).length).toBeGreaterThan(0)
    expect(containing(await everyGraphElement(), canary).length).toBeGreaterThan(0)
    const rawBefore = (await everyRecordRaw()).flatMap(({ records }) => records.map((record) => record.text))
    expect(containing(rawBefore, erasedUser).length).toBeGreaterThan(0)
    // Sealed from the start: the log never held the canary in plaintext.
    expect(containing(rawBefore, canary)).toEqual([])

    const response = await fetch(`${harness.gateway.addresses.http ?? ''}/v1/users/${erasedUser}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${harness.instance.api_key.key}` },
    })
    expect(response.status).toBe(202)
    const accepted = (await response.json()) as { receipt_id: string; log: { data_key_destroyed: boolean } }
    expect(accepted.log.data_key_destroyed).toBe(true)
    await eventually(async () => {
      const receipt = await client.users.erasure(erasedUser, accepted.receipt_id)
      return receipt.status === 'completed' ? true : undefined
    }, 60_000)

    // Kafka, every topic read raw from the beginning (dead letters included).
    for (const { topic, records } of await everyRecordRaw()) {
      expect(
        containing(
          records.map((record) => record.text),
          canary,
        ),
        topic,
      ).toEqual([])
    }
    // The dead letter is still there, and opens to nothing.
    const shown = await inbox.show(letter.id)
    expect(shown?.payload_error).toBeDefined()
    expect(JSON.stringify(shown)).not.toContain(canary)
    await inbox.close()
    // Elasticsearch, every index of the deployment (the data keys' included).
    await elasticsearch.indices.refresh({ index: deployment.index('*') })
    const indexed = await everyIndexedDocument()
    for (const [index, documents] of indexed) expect(containing(documents, canary), index).toEqual([])
    // The user's id is an identifier, not content: it stays where the erasure itself needs it and in job records.
    expect(containing(indexed.get(ERASURES_INDEX) ?? [], erasedUser)).toHaveLength(1)
    expect(containing(indexed.get(ERASURE_RECEIPTS_INDEX) ?? [], erasedUser)).toHaveLength(1)
    expect(containing(indexed.get(CONVERSATION_TURNS_INDEX) ?? [], erasedUser)).toEqual([])
    // Neo4j.
    expect(containing(await everyGraphElement(), canary)).toEqual([])
    // ClickHouse: the usage rows carry pseudonyms, and the erased user's can no longer be linked to them.
    const start = new Date(Date.now() - 3_600_000).toISOString()
    const end = new Date(Date.now() + 60_000).toISOString()
    const exported = await eventually(async () => {
      const rows = await fetch(
        `${harness.gateway.addresses.http ?? ''}/v1/analytics/export?${new URLSearchParams({
          instance_id: harness.instance.instance.instance_id,
          start,
          end,
          format: 'csv',
        }).toString()}`,
        { headers: { authorization: `Bearer ${harness.instance.api_key.key}` } },
      )
      const text = await rows.text()
      return text.includes('psn_') ? text : undefined
    })
    expect(exported).not.toContain(canary)
    expect(exported).not.toContain(erasedUser)
    // The webhook sender's records (the receiver, outside, keeps what it was sent: that is theirs).
    await client.webhooks.delete(hook.webhook_id)
    // The services' log.
    expect(containing(readFileSync(logFile, 'utf8').split('\n'), canary)).toEqual([])

    // The records are there and cannot be opened.
    const sealedRecords = await eventually(async () => {
      const inConversations = (await everyRecordRaw()).find(({ topic }) =>
        topic.endsWith('mem.conversation-events.v1'),
      )
      return inConversations?.records.filter((record) => record.text.includes(erasedUser))
    })
    expect(sealedRecords.length).toBeGreaterThanOrEqual(2)
    for (const record of sealedRecords) {
      const opened: unknown = await harness.codec.decode(record.value).catch((error: unknown) => error)
      expect(isErasedContent(opened)).toBe(true)
    }

    // The other user's data is intact and readable.
    const search = await client.memories.search({ query: `${keptWord} tomatoes`, user_id: keptUser })
    expect(search.results.some((result) => result.content.includes(keptWord))).toBe(true)
    const context = await client.conversations.context(keptConversation, { user_id: keptUser })
    expect(context.recent_turns.map((turn) => turn.content)).toEqual([`The ${keptWord} seeds arrived.`])

    // A replay from the first offset projects nothing of the erased user, and the other user's memory again.
    await runReplay(harness.config, ['--projection', 'all', '--from-beginning'], harness.logger)
    await elasticsearch.indices.refresh({ index: deployment.index('*') })
    const indexedAfter = [...(await everyIndexedDocument()).values()].flat()
    expect(containing(indexedAfter, canary)).toEqual([])
    expect(containing(indexedAfter, keptWord).length).toBeGreaterThan(0)
    expect(containing(await everyGraphElement(), canary)).toEqual([])
    const again = await client.memories.search({ query: `${keptWord} tomatoes`, user_id: keptUser })
    expect(again.results.some((result) => result.content.includes(keptWord))).toBe(true)
  })
})
