import type { Client as ElasticsearchClient } from '@elastic/elasticsearch'
import type { Admin } from 'kafkajs'
import {
  activeGraphGeneration,
  activeGraphGenerationQuery,
  graphGenerationPattern,
  graphStateNode,
  nextGeneration,
} from '../graph/graphGenerations.js'
import {
  createElasticsearchStore,
  createLeaseStore,
  loadEngineDeclarations,
  withVectorDimension,
  type ElasticsearchStore,
  type Embedder,
  type LeaseStore,
  type LogAndProjections,
  type Logger,
  type Neo4jStore,
} from '@memory-service/engines'
import { createEventConsumer, type ConsumedEvent } from '@memory-service/log'
import {
  contextualTextOf,
  deployment,
  MEMORIES_ALIAS,
  MEMORIES_TOPIC,
  memoryDocumentOf,
  type MemoryDocument,
} from '@memory-service/domain'
import { type MemoryChanged } from '@memory-service/contracts'
import { createGraphProjection } from '../graph/graphProjection.js'
import { unheldChanges } from './unheldChanges.js'
import { profileGeneration } from '../profiles/profileRebuild.js'
import { indexGenerationTarget, nextIndexGeneration } from './indexGenerations.js'
import { withheldAsDeletions, type PolicyLookup } from '@memory-service/domain'

export type RebuildStart = { from: 'beginning' } | { from: 'timestamp'; at: Date }
export type RebuiltProjection = 'vector' | 'graph' | 'profiles'

export interface RebuildReport {
  projection: RebuiltProjection
  /** The one instance re-projected in place, or undefined for a rebuild of every instance into a new generation. */
  instanceId?: string
  previousGeneration: string
  generation: string
  /** Events read from the log into the new generation (including those written while it was being built). */
  events: number
  /** Memories whose vector was computed again because the log holds another model's vector. */
  reembedded: number
  copied: number
  seconds: number
}

/** What a rebuild of one projection does to its store; the log-reading part is shared. */
export interface GenerationTarget {
  previous: string
  next: string
  /** Seeds the new generation with the previous one's state (a rebuild from a timestamp replays only the rest). */
  copyPrevious(): Promise<number>
  /** Writes the events into the new generation; answers how many memories had to be embedded again. */
  apply(events: ConsumedEvent<MemoryChanged>[]): Promise<number>
  /** Points readers (and the live projector) at the new generation, in one atomic step. */
  switchReaders(): Promise<void>
  dropPrevious(): Promise<void>
}

const offsetsOf = async (admin: Admin, topic: string) =>
  new Map(
    (await admin.fetchTopicOffsets(topic)).map((partition) => [
      partition.partition,
      { low: BigInt(partition.low), high: BigInt(partition.high) },
    ]),
  )

/**
 * Rebuilds a projection from the log. For every instance (a replay, a new embedding model) it builds a new generation
 * while the current one keeps serving:
 * 1. a consumer group of its own reads mem.memories.v1 from the start (or from a timestamp, on a copy of the current
 *    generation) into the new generation, idempotently (external versions, version guards);
 * 2. once it has caught up with the end of the log, readers switch atomically (Elasticsearch alias swap, graph
 *    generation pointer); the live projector writes through the same switch from its next batch on;
 * 3. the rebuild keeps reading until the end of the log as seen after the switch, so whatever the live projector
 *    wrote into the previous generation meanwhile is in the new one too; then the previous generation is dropped.
 *
 * For one instance (its configuration changed what the projection stores) it re-projects that instance in place, in
 * the serving generation: every memory of the instance is written again at its logged version under the instance's
 * current policy (stored, or withheld as a deletion), replacing what the store holds at that version while any newer
 * version the live projector wrote meanwhile wins. No other instance's data is written, copied or switched.
 */
export async function rebuildProjection(
  engines: LogAndProjections,
  options: {
    projection: RebuiltProjection
    start: RebuildStart
    embedder: Embedder
    logger: Logger
    /** Which memories the projection stores (each instance's active configuration); all of them by default. */
    policyOf?: PolicyLookup
    /** Called every couple of seconds while the log is read, and once caught up. */
    onProgress?: (progress: { events: number; behind: number }) => Promise<void> | void
    /** Where the rebuild of a projection is held, one at a time across every process (Elasticsearch by default). */
    leases?: LeaseStore
    /** Re-project only this instance, in place (from the beginning of the log). */
    instanceId?: string
    /**
     * Pacing: after each batch, wait this many times the time the batch took (fetching, decoding, writing), so a
     * rebuild that shares the machine (and maybe the gateway's process) with live traffic leaves it room.
     */
    idleShare?: number
  },
): Promise<RebuildReport> {
  const { logger } = options
  // Two rebuilds of one projection (two projector processes, `replay` beside a configuration rebuild) would pick
  // the same next generation and consumer group and destroy each other's work: the second waits for the first.
  const lease = await (options.leases ?? createLeaseStore(engines.elasticsearch)).acquire(
    `rebuild-${options.projection}`,
    {
      onWait: (held) =>
        logger.info(
          { projection: options.projection, holder: held.holder, since: held.acquired_at },
          'another rebuild of this projection is running; waiting for it',
        ),
    },
  )
  try {
    return await rebuildHolding(engines, options, () => {
      // Renewals failed past the lease's time and another rebuild may have taken over: nothing more is switched.
      if (lease.lost())
        throw new Error(`the rebuild lease of ${options.projection} was lost; this rebuild stops`)
    })
  } finally {
    await lease.release()
  }
}

async function rebuildHolding(
  engines: LogAndProjections,
  options: Parameters<typeof rebuildProjection>[1],
  stillHeld: () => void,
): Promise<RebuildReport> {
  const started = performance.now()
  const { logger } = options
  if (options.instanceId !== undefined && options.start.from !== 'beginning')
    throw new Error('an instance is re-projected from the beginning of the log')
  if (options.instanceId !== undefined && options.projection === 'profiles')
    throw new Error('profiles are rebuilt for every instance: they hold what the memories hold')
  const target =
    options.instanceId !== undefined
      ? options.projection === 'vector'
        ? await vectorInPlace(engines.elasticsearch, options.embedder)
        : await graphInPlace(engines.neo4j)
      : options.projection === 'vector'
        ? await vectorGeneration(engines.elasticsearch, options.embedder, options.start)
        : options.projection === 'profiles'
          ? await profileGeneration(engines.elasticsearch)
          : await graphGeneration(engines.neo4j)
  logger.info(
    { projection: options.projection, from: target.previous, to: target.next, start: options.start },
    'rebuilding projection',
  )
  const copied = options.start.from === 'timestamp' ? await target.copyPrevious() : 0
  const admin = engines.kafka.admin()
  await admin.connect()
  const groupId = deployment.group(
    options.instanceId !== undefined
      ? `memory-reproject-${options.projection}-${options.instanceId}`
      : `memory-rebuild-${options.projection}-${target.next.replace('/', '-')}`,
  )
  let events = 0
  let reembedded = 0
  const position = new Map<number, bigint>()
  try {
    const ends = await offsetsOf(admin, MEMORIES_TOPIC)
    if (options.start.from === 'timestamp') {
      // A partition with nothing at or after the timestamp starts at its end.
      const offsets = (
        await admin.fetchTopicOffsetsByTimestamp(MEMORIES_TOPIC, options.start.at.getTime())
      ).map(({ partition, offset }) => ({
        partition,
        offset: BigInt(offset) < 0n ? String(ends.get(partition)?.high ?? 0n) : offset,
      }))
      await admin.setOffsets({ groupId, topic: MEMORIES_TOPIC, partitions: offsets })
      for (const { partition, offset } of offsets) position.set(partition, BigInt(offset))
    } else {
      for (const [partition, { low }] of ends) position.set(partition, low)
    }
    const countReembedded = (count: number) => {
      reembedded += count
    }
    const passed = (partition: number, offset: string) => {
      const next = BigInt(offset) + 1n
      if (next > (position.get(partition) ?? 0n)) position.set(partition, next)
    }
    // What the live projection parks in the dead-letter topic (a record that does not decode, or that the store
    // refuses for good) is already there under the live group: the rebuild passes it by, as the live one did.
    const passBy = (reason: string) => (record: { partition: number; offset: string }, error: unknown) => {
      logger.warn(
        { projection: options.projection, partition: record.partition, offset: record.offset, err: error },
        `rebuild passes by a ${reason} record (the live projection dead-letters it)`,
      )
      passed(record.partition, record.offset)
      return Promise.resolve()
    }
    let lastBatchEnd = performance.now()
    const consumer = await createEventConsumer<MemoryChanged>({
      kafka: engines.kafka,
      codec: engines.schemaCodec,
      logger: logger.child({ rebuild: options.projection }),
      groupId,
      topics: [MEMORIES_TOPIC],
      fromBeginning: true,
      onUndecodable: passBy('undecodable'),
      onRejected: passBy('refused'),
      handleBatch: async (read) => {
        const policyOf = options.policyOf
        const batch =
          options.instanceId === undefined
            ? read
            : read.filter(({ payload }) => payload.instance_id === options.instanceId)
        countReembedded(
          await target.apply(
            policyOf
              ? // A profile holds what search holds: the memories the vector policy keeps.
                withheldAsDeletions(
                  batch,
                  options.projection === 'profiles' ? 'vector' : options.projection,
                  policyOf,
                )
              : batch,
          ),
        )
        events += read.length
        for (const { partition, offset } of read) passed(partition, offset)
        const idleShare = options.idleShare ?? 0
        if (idleShare > 0) {
          // Paced: for every second spent reading and writing, idleShare seconds left to the others.
          const busy = performance.now() - lastBatchEnd
          await new Promise((resolve) => setTimeout(resolve, busy * idleShare))
          lastBatchEnd = performance.now()
        }
      },
    })
    try {
      const caughtUp = async (label: string) => {
        const wanted = await offsetsOf(admin, MEMORIES_TOPIC)
        let lastLog = performance.now()
        let lastProgress = 0
        for (;;) {
          const behind = [...wanted].reduce((sum, [partition, { high }]) => {
            const at = position.get(partition) ?? 0n
            return sum + (high > at ? high - at : 0n)
          }, 0n)
          if (options.onProgress && (behind === 0n || performance.now() - lastProgress > 2000)) {
            lastProgress = performance.now()
            await options.onProgress({ events, behind: Number(behind) })
          }
          if (behind === 0n) return
          if (performance.now() - lastLog > 5000) {
            logger.info(
              { projection: options.projection, events, behind: Number(behind), stage: label },
              'rebuilding',
            )
            lastLog = performance.now()
          }
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
      await caughtUp('catching up')
      stillHeld()
      await target.switchReaders()
      logger.info({ projection: options.projection, generation: target.next }, 'readers switched')
      await caughtUp('after the switch')
    } finally {
      await consumer.close()
    }
    await admin.deleteGroups([groupId]).catch((error: unknown) => {
      logger.warn({ err: error, groupId }, 'rebuild consumer group not deleted')
    })
  } finally {
    await admin.disconnect()
  }
  stillHeld()
  await target.dropPrevious()
  const report = {
    projection: options.projection,
    ...(options.instanceId !== undefined ? { instanceId: options.instanceId } : {}),
    previousGeneration: target.previous,
    generation: target.next,
    events,
    reembedded,
    copied,
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  }
  logger.info(report, 'projection rebuilt')
  return report
}

/** The next Elasticsearch index generation behind the memories alias, with the configured model's dimension. */
async function vectorGeneration(
  client: ElasticsearchClient,
  embedder: Embedder,
  start: RebuildStart,
): Promise<GenerationTarget> {
  const { previous, next } = await nextIndexGeneration(client, MEMORIES_ALIAS)
  const declaration = loadEngineDeclarations().indices.find((index) => index.alias === MEMORIES_ALIAS)
  if (!declaration)
    throw new Error(`no declaration for ${MEMORIES_ALIAS} in infra/elasticsearch/indices.json`)
  const store = createElasticsearchStore<MemoryDocument>(client, next)
  await store.ensureIndex(withVectorDimension(declaration, embedder.dimension), declaration.settings)

  if (start.from === 'timestamp') {
    const mapping = await client.indices.getMapping({ index: previous })
    const vectorField = mapping[previous]?.mappings.properties?.embedding as { dims?: number } | undefined
    const models = await client.search({
      index: previous,
      size: 0,
      aggs: { models: { terms: { field: 'embedding_model', size: 10 } } },
    })
    const buckets =
      (models.aggregations?.models as { buckets?: { key: string }[] } | undefined)?.buckets ?? []
    if (vectorField?.dims !== embedder.dimension || buckets.some(({ key }) => key !== embedder.model)) {
      await store.deleteIndex()
      throw new Error(
        `${previous} holds vectors of another model or dimension than ${embedder.model} (${String(embedder.dimension)}); a rebuild with a new model needs --from-beginning`,
      )
    }
  }

  return indexGenerationTarget({
    client,
    alias: MEMORIES_ALIAS,
    previous,
    next,
    store,
    idField: 'id',
    versionOf: (document) => document.version,
    withVectors: true,
    apply: (events) => writeMemories(store, embedder, events, 'skip'),
  })
}

/** The vectors of memories the log holds under another model than the one served, computed again. */
async function vectorsFor(
  embedder: Embedder,
  events: ConsumedEvent<MemoryChanged>[],
): Promise<Map<string, { vector: number[]; contextVector: number[] }>> {
  const stale = events.filter(
    ({ payload }) =>
      payload.change !== 'deleted' &&
      (payload.memory.embedding.model !== embedder.model ||
        payload.memory.embedding.vector.length !== embedder.dimension),
  )
  if (stale.length === 0) return new Map()
  // A memory with a conversation around it has a second vector, the statement read after the turn before it.
  const texts: string[] = []
  const slots = stale.map(({ payload }) => {
    const { content, context } = payload.memory
    const own = texts.push(content) - 1
    return { own, inContext: context ? texts.push(contextualTextOf(content, context)) - 1 : own }
  })
  const vectors = await embedder.embed(texts)
  return new Map(
    stale.map(({ payload }, position) => {
      const slot = slots[position] ?? { own: -1, inContext: -1 }
      return [
        payload.event_id,
        { vector: vectors[slot.own] ?? [], contextVector: vectors[slot.inContext] ?? [] },
      ]
    }),
  )
}

/** Memories written at their logged versions; answers how many had to be embedded again. */
async function writeMemories(
  store: ElasticsearchStore<MemoryDocument>,
  embedder: Embedder,
  events: ConsumedEvent<MemoryChanged>[],
  sameVersion: 'skip' | 'replace',
): Promise<number> {
  const reembedded = await vectorsFor(embedder, events)
  await store.upsert(
    events.map(({ payload }) => {
      if (payload.change === 'deleted')
        return { id: payload.memory_id, version: payload.version, document: null }
      const vectors = reembedded.get(payload.event_id)
      const { context } = payload.memory
      const event = vectors
        ? {
            ...payload,
            memory: {
              ...payload.memory,
              embedding: { model: embedder.model, vector: vectors.vector },
              ...(context
                ? {
                    context: {
                      ...context,
                      embedding: { model: embedder.model, vector: vectors.contextVector },
                    },
                  }
                : {}),
            },
          }
        : payload
      return { id: payload.memory_id, version: payload.version, document: memoryDocumentOf(event) }
    }),
    { sameVersion },
  )
  return reembedded.size
}

/** One instance re-projected into the serving index, through the alias readers and the live projector use. */
async function vectorInPlace(client: ElasticsearchClient, embedder: Embedder): Promise<GenerationTarget> {
  const [serving] = Object.keys(await client.indices.getAlias({ name: MEMORIES_ALIAS }))
  if (!serving) throw new Error(`${MEMORIES_ALIAS} points at no index; run provisioning (npm start) first`)
  const store = createElasticsearchStore<MemoryDocument>(client, MEMORIES_ALIAS)
  return inPlace(serving, async (events) => {
    if (events.length === 0) return 0
    const { docs } = await client.mget({
      index: MEMORIES_ALIAS,
      ids: [...new Set(events.map(({ payload }) => payload.memory_id))],
      _source: false,
    })
    const held = new Map(
      docs.flatMap((doc) => ('found' in doc && doc.found ? [[doc._id, doc._version ?? 0] as const] : [])),
    )
    return writeMemories(store, embedder, unheldChanges(events, held), 'replace')
  })
}

/** One instance re-projected into the active graph generation (followed per batch, as the live projector does). */
async function graphInPlace(graph: Neo4jStore): Promise<GenerationTarget> {
  const [active] = await graph.read<{ generation: string }>(activeGraphGenerationQuery)
  if (!active) throw new Error('the graph has no active generation; run provisioning (npm start) first')
  const project = createGraphProjection(graph, { sameVersion: 'replace' })
  return inPlace(active.generation, async (events) => {
    if (events.length === 0) return 0
    const rows = await graph.read<{ id: string; version: number }>(
      `${activeGraphGeneration}
       UNWIND $ids AS id
       MATCH (memory:Memory {generation: generation, id: id})
       RETURN memory.id AS id, memory.version AS version`,
      { ids: [...new Set(events.map(({ payload }) => payload.memory_id))] },
    )
    await project(unheldChanges(events, new Map(rows.map((row) => [row.id, row.version]))))
    return 0
  })
}

/** A target that writes into what is serving: nothing to copy, switch or drop. */
function inPlace(
  serving: string,
  apply: (events: ConsumedEvent<MemoryChanged>[]) => Promise<number>,
): GenerationTarget {
  const nothing = () => Promise.resolve()
  return {
    previous: serving,
    next: serving,
    copyPrevious: () => Promise.resolve(0),
    apply,
    switchReaders: nothing,
    dropPrevious: nothing,
  }
}

const graphLabels = ['Memory', 'Entity', 'DeletedMemory'] as const

/** Deletes one generation's nodes (and their relationships) in bounded transactions. */
async function dropGraphGeneration(graph: Neo4jStore, generation: string): Promise<void> {
  for (const label of graphLabels) {
    for (;;) {
      const [row] = await graph.write<{ deleted: number }>(
        `MATCH (node:${label} {generation: $generation}) WITH node LIMIT 5000 DETACH DELETE node RETURN count(*) AS deleted`,
        { generation },
      )
      if (!row || row.deleted === 0) break
    }
  }
}

// A generation's nodes and relationships copied into another, page by page (keyset pagination on the ids).
const copyEntities = `
MATCH (entity:Entity {generation: $from}) WHERE entity.entity_id > $after
WITH entity ORDER BY entity.entity_id LIMIT 2000
CREATE (copy:Entity) SET copy = entity { .*, generation: $to }
RETURN max(entity.entity_id) AS last, count(*) AS copied`
const copyMemories = `
MATCH (memory:Memory {generation: $from}) WHERE memory.id > $after
WITH memory ORDER BY memory.id LIMIT 2000
CREATE (copy:Memory) SET copy = memory { .*, generation: $to }
WITH memory, copy
CALL {
  WITH memory, copy
  MATCH (memory)-[:MENTIONS]->(entity:Entity)
  MATCH (mentioned:Entity {generation: $to, entity_id: entity.entity_id})
  CREATE (copy)-[:MENTIONS]->(mentioned)
}
RETURN max(memory.id) AS last, count(*) AS copied`
const copyRelations = `
MATCH (from:Entity {generation: $from}) WHERE from.entity_id > $after
WITH from ORDER BY from.entity_id LIMIT 2000
CALL {
  WITH from
  MATCH (from)-[relation:RELATES_TO]->(to:Entity)
  MATCH (fromCopy:Entity {generation: $to, entity_id: from.entity_id}), (toCopy:Entity {generation: $to, entity_id: to.entity_id})
  CREATE (fromCopy)-[:RELATES_TO {memory_id: relation.memory_id, type: relation.type}]->(toCopy)
}
RETURN max(from.entity_id) AS last, count(*) AS copied`
const copyTombstones = `
MATCH (deleted:DeletedMemory {generation: $from}) WHERE deleted.id > $after
WITH deleted ORDER BY deleted.id LIMIT 2000
CREATE (copy:DeletedMemory) SET copy = deleted { .*, generation: $to }
RETURN max(deleted.id) AS last, count(*) AS copied`

/** The next graph generation: nodes labelled with it, made active by moving the ProjectionState pointer. */
async function graphGeneration(graph: Neo4jStore): Promise<GenerationTarget> {
  const [active] = await graph.read<{ generation: string }>(activeGraphGenerationQuery)
  if (!active) throw new Error('the graph has no active generation; run provisioning (npm start) first')
  const previous = active.generation
  const next = nextGeneration(previous)
  // Whatever an interrupted rebuild of this deployment left behind serves nobody (other namespaces' are theirs).
  for (const label of graphLabels) {
    const stale = await graph.read<{ generation: string }>(
      `MATCH (node:${label}) WHERE node.generation <> $previous AND node.generation =~ $ours
       RETURN DISTINCT node.generation AS generation`,
      { previous, ours: graphGenerationPattern },
    )
    for (const { generation } of stale) await dropGraphGeneration(graph, generation)
  }
  const project = createGraphProjection(graph, { generation: next })
  return {
    previous,
    next,
    async copyPrevious() {
      let copied = 0
      for (const statement of [copyEntities, copyMemories, copyRelations, copyTombstones]) {
        let after = ''
        for (;;) {
          const [row] = await graph.write<{ last: string | null; copied: number }>(statement, {
            from: previous,
            to: next,
            after,
          })
          if (!row?.last) break
          after = row.last
          if (statement !== copyRelations) copied += row.copied
        }
      }
      return copied
    },
    apply: async (events) => {
      await project(events)
      return 0
    },
    async switchReaders() {
      await graph.write(`MATCH ${graphStateNode} SET graphState.generation = $next`, {
        next,
      })
    },
    dropPrevious: () => dropGraphGeneration(graph, previous),
  }
}
