/**
 * `memory-service verify`: the live projections against the log. For each instance, the entries a fresh rebuild
 * would write (read from the topics, folded by projectionDigests.ts) against the entries the store holds now, as a
 * count and a hash; any difference is drift, reported with samples. Projections that are still catching up show
 * drift too: verify after the consumer lag reached zero (the fault suite waits for that).
 */
import type { Client as ElasticsearchClient } from '@elastic/elasticsearch'
import type {
  ConversationCompacted,
  ConversationEventRecorded,
  MemoryChanged,
  UserDataErased,
} from '@memory-service/contracts'
import {
  CONVERSATION_EVENTS_TOPIC,
  CONVERSATION_TURNS_INDEX,
  CONVERSATIONS_TOPIC,
  MEMORIES_ALIAS,
  MEMORIES_TOPIC,
  withheldAsDeletions,
  type PolicyLookup,
} from '@memory-service/domain'
import type { Neo4jStore, SchemaCodec } from '@memory-service/engines'
import { readTopicToEnd } from '@memory-service/log'
import type { Kafka } from 'kafkajs'
import { turnDocumentId } from '../conversations/conversationStore.js'
import { activeGraphGeneration } from '../graph/graphGenerations.js'
import {
  digestsOf,
  driftBetween,
  expectedMemories,
  expectedTurns,
  memoryKey,
  type InstanceDrift,
} from './projectionDigests.js'

export type VerifiedProjection = 'vector' | 'graph' | 'conversations'

export interface VerifyReport {
  projection: VerifiedProjection
  /** Instances compared (those the log or the store knows, or the one asked for). */
  instances: number
  /** Entries the log says the projection should hold, and the entries it holds. */
  expected: number
  actual: number
  drift: InstanceDrift[]
}

interface VerifyEngines {
  kafka: Kafka
  schemaCodec: SchemaCodec
  elasticsearch: ElasticsearchClient
  neo4j: Neo4jStore
}

type Entry = { instanceId: string; key: string }

async function decodedLog<T>(engines: VerifyEngines, topics: string[]): Promise<T[]> {
  const raw: Buffer[] = []
  for (const topic of topics) {
    await readTopicToEnd(engines.kafka, topic, (record) => {
      if (record.value) raw.push(record.value)
    })
  }
  const events: T[] = []
  // A record that does not decode is a dead letter of every projection, not an entry of any.
  for (const value of raw) {
    const event = await engines.schemaCodec.decode<T>(value).catch(() => undefined)
    if (event !== undefined) events.push(event)
  }
  return events
}

/** Every document of an index (through an alias), by point in time, as instance id and key. */
async function indexEntries(
  client: ElasticsearchClient,
  index: string,
  fields: string[],
  entryOf: (id: string, source: Record<string, unknown>) => Entry | undefined,
  instanceId: string | undefined,
): Promise<Entry[]> {
  const { id: pit } = await client.openPointInTime({ index, keep_alive: '2m' })
  const entries: Entry[] = []
  try {
    let after: (string | number | null)[] | undefined
    for (;;) {
      const page = await client.search<Record<string, unknown>>({
        pit: { id: pit, keep_alive: '2m' },
        size: 5000,
        _source: fields,
        sort: ['_shard_doc'],
        ...(instanceId === undefined ? {} : { query: { term: { instance_id: instanceId } } }),
        ...(after ? { search_after: after } : {}),
      })
      const hits = page.hits.hits
      for (const hit of hits) {
        const entry = hit._id && hit._source ? entryOf(hit._id, hit._source) : undefined
        if (entry) entries.push(entry)
      }
      if (hits.length < 5000) break
      after = hits.at(-1)?.sort as (string | number | null)[]
    }
  } finally {
    await client.closePointInTime({ id: pit }).catch(() => undefined)
  }
  return entries
}

async function graphEntries(neo4j: Neo4jStore, instanceId: string | undefined): Promise<Entry[]> {
  const entries: Entry[] = []
  let after = ''
  for (;;) {
    const rows = await neo4j.read<{ id: string; instance_id: string; version: number }>(
      `${activeGraphGeneration}
       MATCH (memory:Memory {generation: generation}) WHERE memory.id > $after
         AND ($instance IS NULL OR memory.instance_id = $instance)
       RETURN memory.id AS id, memory.instance_id AS instance_id, memory.version AS version
       ORDER BY memory.id LIMIT 10000`,
      { after, instance: instanceId ?? null },
    )
    for (const row of rows) entries.push({ instanceId: row.instance_id, key: memoryKey(row.id, row.version) })
    const last = rows.at(-1)
    if (!last) break
    after = last.id
  }
  return entries
}

function report(
  projection: VerifiedProjection,
  expected: Entry[],
  actual: Entry[],
  instanceId: string | undefined,
): VerifyReport {
  const only = (entries: Entry[]) =>
    instanceId === undefined ? entries : entries.filter((entry) => entry.instanceId === instanceId)
  const want = digestsOf(only(expected))
  const have = digestsOf(only(actual))
  const sum = (digests: typeof want) =>
    [...digests.values()].reduce((total, digest) => total + digest.count, 0)
  return {
    projection,
    instances: new Set([...want.keys(), ...have.keys()]).size,
    expected: sum(want),
    actual: sum(have),
    drift: driftBetween(want, have),
  }
}

/** Compares each named projection with the log; an instance id narrows both sides to that instance. */
export async function verifyProjections(
  engines: VerifyEngines,
  options: { projections: readonly VerifiedProjection[]; instanceId?: string; policyOf: PolicyLookup },
): Promise<VerifyReport[]> {
  const reports: VerifyReport[] = []
  const wantsMemories = options.projections.some((name) => name === 'vector' || name === 'graph')
  const memories = wantsMemories
    ? (await decodedLog<MemoryChanged>(engines, [MEMORIES_TOPIC])).filter(
        (event) => options.instanceId === undefined || event.instance_id === options.instanceId,
      )
    : []
  for (const projection of options.projections) {
    if (projection === 'conversations') {
      const events = await decodedLog<ConversationEventRecorded | ConversationCompacted | UserDataErased>(
        engines,
        [CONVERSATION_EVENTS_TOPIC, CONVERSATIONS_TOPIC],
      )
      const expected = expectedTurns(
        events.filter(
          (event): event is ConversationEventRecorded | UserDataErased =>
            event.type !== 'conversation_compacted',
        ),
        turnDocumentId,
      )
      const actual = await indexEntries(
        engines.elasticsearch,
        CONVERSATION_TURNS_INDEX,
        ['instance_id'],
        (id, source) =>
          typeof source.instance_id === 'string' ? { instanceId: source.instance_id, key: id } : undefined,
        options.instanceId,
      )
      reports.push(report(projection, expected, actual, options.instanceId))
      continue
    }
    // What the instance's configuration keeps out of a projection is, for that projection, a deletion.
    const stored = withheldAsDeletions(
      memories.map((payload) => ({ payload })),
      projection,
      options.policyOf,
    ).map(({ payload }) => payload)
    const expected = expectedMemories(stored)
    const actual =
      projection === 'vector'
        ? await indexEntries(
            engines.elasticsearch,
            MEMORIES_ALIAS,
            ['instance_id', 'version'],
            (id, source) =>
              typeof source.instance_id === 'string' && typeof source.version === 'number'
                ? { instanceId: source.instance_id, key: memoryKey(id, source.version) }
                : undefined,
            options.instanceId,
          )
        : await graphEntries(engines.neo4j, options.instanceId)
    reports.push(report(projection, expected, actual, options.instanceId))
  }
  return reports
}
