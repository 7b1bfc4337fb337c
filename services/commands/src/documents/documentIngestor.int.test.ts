import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DocumentAccepted } from '@memory-service/contracts'
import {
  createElasticsearchClient,
  createElasticsearchStore,
  createKafka,
  createSchemaCodec,
  createTopicAdmin,
  loadEngineDeclarations,
  type TopicAdmin,
} from '@memory-service/engines'
import { createEventProducer, type EventProducer } from '@memory-service/log'
import {
  DOCUMENT_SUBJECT,
  documentAcceptedSchema,
  IDEMPOTENCY_INDEX,
  INGESTION_JOBS_INDEX,
  ingestionIdFor,
  type IngestionJob,
} from '@memory-service/domain'
import { readTopicToEnd, testConfig, testLogger, uniqueName } from '../../../../test/support/testEngines.js'
import { createClaimStore, type ClaimStore } from '../idempotency/createClaimStore.js'
import { createDocumentIngestor, type IngestOutcome } from './createDocumentIngestor.js'

/**
 * Documents stay idempotent when something fails between the claim and the answer: the send that reached Kafka but
 * was never acknowledged, the gateway that died before confirming its claim. The retry may append the document again;
 * it must be the same ingestion (one job, the same memory ids), counted here in the log itself.
 */
const config = testConfig()
const logger = testLogger()
const kafka = createKafka({ brokers: config.kafka.brokers, clientId: 'ingestor-int-test', logger })
const codec = createSchemaCodec(config.schemaRegistry.url)
const elasticsearch = createElasticsearchClient(config.elasticsearch)
const topic = uniqueName('mem.test-documents.v1')
const claimsIndex = uniqueName('test-idempotency')
const jobsIndex = uniqueName('test-ingestion-jobs')
const scope = { instanceId: 'inst_0123456789abcdef', clientId: 'cli_0123456789abcdef' }

let admin: TopicAdmin
let producer: EventProducer

beforeAll(async () => {
  admin = await createTopicAdmin(kafka)
  await admin.ensureTopics([{ name: topic, partitions: 2, config: {} }])
  await codec.register([{ subject: DOCUMENT_SUBJECT, schema: documentAcceptedSchema }])
  producer = await createEventProducer(kafka, codec)
  for (const [name, index] of [
    [IDEMPOTENCY_INDEX, claimsIndex],
    [INGESTION_JOBS_INDEX, jobsIndex],
  ] as const) {
    const declaration = loadEngineDeclarations().indices.find((entry) => entry.name === name)
    if (!declaration) throw new Error(`${name} is not declared`)
    await createElasticsearchStore(elasticsearch, index).ensureIndex(
      declaration.mappings,
      declaration.settings,
    )
  }
})

afterAll(async () => {
  await producer.close()
  await admin.deleteTopics([topic])
  await admin.close()
  await elasticsearch.indices.delete({ index: [claimsIndex, jobsIndex] }, { ignore: [404] })
  await elasticsearch.close()
})

/** The documents topic redirected to this test's topic; `ambiguous` sends that reach Kafka but report a failure. */
function ingestor(options: { claims: ClaimStore; ambiguous?: boolean }) {
  const redirected = {
    ...producer,
    async append(_topic: string, events: Parameters<EventProducer['append']>[1]) {
      const written = await producer.append(topic, events)
      if (options.ambiguous) throw new Error('injected: the request timed out after the broker wrote it')
      return written
    },
  }
  return createDocumentIngestor({
    producer: redirected,
    claims: options.claims,
    jobs: createElasticsearchStore<IngestionJob>(elasticsearch, jobsIndex),
    logger,
  })
}

const document = (documentId: string) => ({
  document: 'Caroline: I moved to Lisbon last spring.',
  document_type: 'ai-chat-conversation' as const,
  mode: 'fast' as const,
  document_id: documentId,
})

const idOf = (outcome: IngestOutcome | undefined) =>
  outcome && 'ingestionId' in outcome ? outcome.ingestionId : outcome?.error.code

async function appendedIngestions(documentId: string): Promise<string[]> {
  const records = await readTopicToEnd<DocumentAccepted>(kafka, codec, topic)
  return records.filter((record) => record.value.document_id === documentId).map((r) => r.value.ingestion_id)
}

describe('document ingestion after a failure', () => {
  it('a retry after an ambiguous send appends the same ingestion again, and a third request is a duplicate', async () => {
    const claims = createClaimStore(elasticsearch, { index: claimsIndex, owner: 'gateway-a' })
    const documentId = uniqueName('doc-ambiguous')
    const [first] = await ingestor({ claims, ambiguous: true }).ingest(
      scope,
      [document(documentId)],
      'corr-1',
      'interactive',
    )
    expect(idOf(first)).toBe('SERVICE_UNAVAILABLE')

    const [retry] = await ingestor({ claims }).ingest(scope, [document(documentId)], 'corr-2', 'interactive')
    const ingestionId = ingestionIdFor(scope.instanceId, documentId)
    expect(idOf(retry)).toBe(ingestionId)
    // Both appends are in the log, as one ingestion.
    expect(await appendedIngestions(documentId)).toEqual([ingestionId, ingestionId])

    const [third] = await ingestor({ claims }).ingest(scope, [document(documentId)], 'corr-3', 'interactive')
    expect(third && 'error' in third ? third.error.details : undefined).toMatchObject({
      ingestion_id: ingestionId,
    })
  })

  it('a claim its gateway never confirmed (it died) is taken over as the same ingestion', async () => {
    const documentId = uniqueName('doc-crashed')
    const crashed = createClaimStore(elasticsearch, { index: claimsIndex, owner: 'gateway-dead' })
    // The gateway died after its append and before confirming the claim.
    const [first] = await ingestor({ claims: { ...crashed, confirm: async () => undefined } }).ingest(
      scope,
      [document(documentId)],
      'corr-1',
      'interactive',
    )
    const survivor = createClaimStore(elasticsearch, {
      index: claimsIndex,
      owner: 'gateway-b',
      // The lease has run out.
      now: () => Date.now() + 60_000,
    })
    const [retry] = await ingestor({ claims: survivor }).ingest(
      scope,
      [document(documentId)],
      'corr-2',
      'interactive',
    )
    expect(idOf(retry)).toBe(idOf(first))
    expect(new Set(await appendedIngestions(documentId))).toEqual(new Set([idOf(first)]))
  })

  it('a claim its gateway died holding is retryable, not a 409, until the retry takes it over', async () => {
    // The gateway died after claiming and before its append: the document is nowhere in the log. A 409 would tell
    // the client it was ingested, and it would be lost.
    const documentId = uniqueName('doc-died-claiming')
    const dead = createClaimStore(elasticsearch, { index: claimsIndex, owner: 'gateway-dead' })
    await dead.claim([
      {
        instance_id: scope.instanceId,
        kind: 'document',
        client_id: documentId,
        record_id: ingestionIdFor(scope.instanceId, documentId),
      },
    ])
    let clock = Date.now()
    const survivor = createClaimStore(elasticsearch, {
      index: claimsIndex,
      owner: 'gateway-b',
      leaseMs: 10_000,
      now: () => clock,
    })
    const [early] = await ingestor({ claims: survivor }).ingest(
      scope,
      [document(documentId)],
      'corr-1',
      'interactive',
    )
    expect(early && 'error' in early ? [early.error.code, early.error.details] : early).toEqual([
      'SERVICE_UNAVAILABLE',
      { retry_after_seconds: 1, reason: 'document_in_flight' },
    ])
    expect(await appendedIngestions(documentId)).toEqual([])

    clock += 11_000
    const [late] = await ingestor({ claims: survivor }).ingest(
      scope,
      [document(documentId)],
      'corr-2',
      'interactive',
    )
    expect(idOf(late)).toBe(ingestionIdFor(scope.instanceId, documentId))
    expect(await appendedIngestions(documentId)).toEqual([idOf(late)])
    const [again] = await ingestor({ claims: survivor }).ingest(
      scope,
      [document(documentId)],
      'corr-3',
      'interactive',
    )
    expect(idOf(again)).toBe('DOCUMENT_ALREADY_INGESTED')
  })

  it('documents without a document_id each get an ingestion of their own', async () => {
    const claims = createClaimStore(elasticsearch, { index: claimsIndex, owner: 'gateway-a' })
    const { document_id: _unused, ...anonymous } = document('unused')
    const outcomes = await ingestor({ claims }).ingest(scope, [anonymous, anonymous], 'corr-1', 'bulk')
    const ids = outcomes.map(idOf)
    expect(ids[0]).toMatch(/^ing_[0-9a-f]{32}$/)
    expect(ids[1]).not.toBe(ids[0])
  })
})
