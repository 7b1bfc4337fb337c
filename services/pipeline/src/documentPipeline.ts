import { randomUUID } from 'node:crypto'
import {
  categorize,
  ExtractionError,
  finishJob,
  nothingToRemember,
  type JobReason,
  isTerminal,
  memoryIdFor,
  queuedJobOf,
  recordStage,
  startProcessing,
  usageEvent,
  validateExtractionResult,
  type ExtractedStatement,
  type ExtractionResult,
  type Extractor,
  type JobStatus,
  type StageError,
  type TokenUsage,
} from '@memory-service/domain'
import { EmbeddingError, type Embedder, type FactDecider, type Logger } from '@memory-service/engines'
import { contextualTextOf, ModelServiceError } from '@memory-service/domain'
import { type ConsumedEvent, type DeadLetterError, type DeadLetterWriter } from '@memory-service/log'
import { type OutgoingEvent } from '@memory-service/domain'
import {
  type DocumentAccepted,
  type IngestionJobChanged,
  type MemoryChanged,
} from '@memory-service/contracts'
import { resolveEntities, type StoredEntity, type ResolvedStatement } from '@memory-service/domain'
import { RetriesExhausted, withRetry, type RetryPolicy } from '@memory-service/domain'
import { factSlotOfReading, isAssistantSpeaker, validFromOf, type FactSlot } from '@memory-service/domain'

import {
  createFactSupersession,
  factsOf,
  type FactPorts,
  type FactScope,
  type StoredFactVersion,
} from '@memory-service/commands'
import { freeTurns, type StageTurns } from './lanes.js'

/** What the pipeline needs from the outside world; the worker wires engines in, tests inject faults. */
export interface PipelinePorts {
  extractor: Extractor
  embedder: Embedder
  /** Entities of the instance that may match these names (long-range resolution). */
  knownEntities(instanceId: string, names: string[]): Promise<StoredEntity[]>
  /** The job's projected status, to skip documents already finished (a redelivered message). */
  jobStatus(ingestionId: string): Promise<JobStatus | null>
  publishJob(job: IngestionJobChanged, correlationId: string): Promise<void>
  publishMemories(events: MemoryChanged[], correlationId: string): Promise<void>
  publishUsage(events: OutgoingEvent[]): Promise<void>
  /**
   * Resolves true once these versions of the memories are readable from the vector projection, false if that takes
   * too long (they are in the log and will be projected). A job reports completion only after this, so its memory
   * ids can be read. Memories the instance's configuration does not store are not waited for.
   */
  awaitProjected(memories: MemoryChanged[]): Promise<boolean>
  /** Stored versions of the facts a document states (supersession). */
  factVersions: FactPorts['factVersions']
  /** Older memories of a speaker that may state another value of a fact a document states (supersession). */
  unstatedVersions?: FactPorts['unstatedVersions']
  /**
   * The fact reader of the memories' model (services/language: readers learned from labelled examples): which
   * changing fact a statement states. Without it (its model failed) the memories are stored stating none.
   */
  factReader?: FactPorts['factReader']
  /**
   * With an LLM configured: the model decides, for each new statement against the nearest existing memories, whether
   * it adds, updates or ends one of them, or adds nothing (llmFactDecider.ts). Facts read by meaning are the fallback
   * when it fails.
   */
  factDecider?: FactDecider
  /** The memories of the scope nearest a vector, for the decider to compare a statement with. */
  nearestMemories?(
    instanceId: string,
    scope: FactScope,
    vector: number[],
    limit: number,
  ): Promise<StoredFactVersion[]>
  deadLetters: DeadLetterWriter
  now?: () => Date
}

export interface PipelineSettings {
  retry: RetryPolicy
  /** Statements embedded per model call; a failing group fails only its own statements. */
  embeddingGroupSize?: number
}

export interface DocumentOutcome {
  job: IngestionJobChanged
  skipped: boolean
  deadLettered: boolean
}

// Failures of our own model services say whether a retry can help; anything else (a network error) may pass.
const isTransient = (error: unknown): boolean => (error instanceof ModelServiceError ? error.transient : true)

function describeFailure(
  error: unknown,
  fallbackCode: string,
): { code: string; message: string; attempts?: number } {
  const cause = error instanceof RetriesExhausted ? error.lastError : error
  const attempts = error instanceof RetriesExhausted ? { attempts: error.attempts } : {}
  const code = cause instanceof ModelServiceError ? cause.code : fallbackCode
  const message = cause instanceof Error ? cause.message : String(cause)
  return { code, message: message.slice(0, 500), ...attempts }
}

/**
 * One accepted document through extraction → categorization → entity resolution → storage. Every transition of its
 * job is an event; memories are events; what kept failing is dead-lettered with the errors seen. Failures of a
 * stage's own work become stage errors; failures to write to Kafka are thrown, so the consumer retries the record.
 */
export function createDocumentPipeline(ports: PipelinePorts, settings: PipelineSettings) {
  const now = ports.now ?? (() => new Date())
  const at = () => now().toISOString()
  const groupSize = settings.embeddingGroupSize ?? 32
  const facts = createFactSupersession(ports, now)

  async function extract(accepted: DocumentAccepted): Promise<ExtractionResult> {
    // An imported memory is stored as given: its text is the statement, its type (when given) the category.
    if (accepted.imported) {
      const { type, confidence } = accepted.imported
      return {
        statements: [
          {
            content: accepted.document,
            speaker: null,
            occurredOn: null,
            entities: [],
            relations: [],
            ...(type ? { category: { type, confidence: confidence ?? 1 } } : {}),
          },
        ],
      }
    }
    const result = await withRetry(
      () =>
        ports.extractor.extract({
          text: accepted.document,
          documentType: accepted.document_type,
          documentCreatedAt: accepted.document_created_at,
          mode: accepted.mode,
        }),
      isTransient,
      settings.retry,
    )
    const checked = validateExtractionResult(result)
    if ('problems' in checked) {
      throw new ExtractionError(
        'EXTRACTION_MALFORMED_OUTPUT',
        `${ports.extractor.name} extractor returned malformed output: ${checked.problems.slice(0, 3).join('; ')}`,
        false,
      )
    }
    return checked.result
  }

  async function embedGroup(texts: string[]): Promise<number[][]> {
    const embedded = await withRetry(() => ports.embedder.embed(texts), isTransient, settings.retry)
    if (
      embedded.length !== texts.length ||
      embedded.some((vector) => vector.length !== ports.embedder.dimension)
    ) {
      throw new EmbeddingError(
        'EMBEDDING_MALFORMED_OUTPUT',
        `embedder returned ${String(embedded.length)} vector(s) for ${String(texts.length)} text(s), or a wrong dimension`,
        false,
      )
    }
    return embedded
  }

  /**
   * Vectors for every statement that can get one. Statements are embedded in groups; when a group fails, its
   * statements are tried one by one, so one bad statement costs only itself (the job then ends partial_success).
   */
  async function embedAll(
    texts: string[],
    nameOf: (index: number) => string,
  ): Promise<{ vectors: (number[] | null)[]; errors: (DeadLetterError & { stage: 'storage' })[] }> {
    const vectors: (number[] | null)[] = new Array<number[] | null>(texts.length).fill(null)
    const errors: (DeadLetterError & { stage: 'storage' })[] = []
    for (let start = 0; start < texts.length; start += groupSize) {
      const group = texts.slice(start, start + groupSize)
      try {
        ;(await embedGroup(group)).forEach((vector, offset) => (vectors[start + offset] = vector))
        continue
      } catch (error) {
        if (group.length === 1) {
          errors.push({ stage: 'storage', ...describeFailure(error, 'EMBEDDING_FAILED') })
          continue
        }
      }
      for (const [offset, text] of group.entries()) {
        try {
          const [vector] = await embedGroup([text])
          vectors[start + offset] = vector ?? null
        } catch (error) {
          const failure = describeFailure(error, 'EMBEDDING_FAILED')
          errors.push({
            stage: 'storage',
            ...failure,
            message: `${nameOf(start + offset)} not stored: ${failure.message}`,
          })
        }
      }
    }
    return { vectors, errors }
  }

  function givenVectorOf(accepted: DocumentAccepted): number[] | null {
    const embedding = accepted.imported?.embedding
    return embedding?.model === ports.embedder.model && embedding.vector.length === ports.embedder.dimension
      ? embedding.vector
      : null
  }

  function memoryEvents(
    accepted: DocumentAccepted,
    resolved: ResolvedStatement[],
    vectors: (number[] | null)[],
    contextVectors: (number[] | null)[],
    facts: (FactSlot | null)[],
  ): MemoryChanged[] {
    const changedAt = at()
    return resolved.flatMap(({ statement, entities, relations }, ordinal) => {
      const vector = vectors[ordinal]
      const contextVector = contextVectors[ordinal]
      if (!vector || (accepted.context && !contextVector)) return []
      const category = statement.category ?? categorize(statement)
      const id = memoryIdFor(accepted.ingestion_id, ordinal)
      const fact = facts[ordinal] ?? null
      const imported = accepted.imported
      return [
        {
          type: 'memory_changed' as const,
          change: 'created' as const,
          event_id: randomUUID(),
          memory_id: id,
          instance_id: accepted.instance_id,
          version: 1,
          changed_at: changedAt,
          cause: { kind: 'ingestion' as const, ingestion_id: accepted.ingestion_id },
          memory: {
            id,
            instance_id: accepted.instance_id,
            type: category.type,
            content: statement.content,
            confidence: imported?.confidence ?? category.confidence,
            entities,
            relations,
            scope: {
              user_id: accepted.user_id,
              customer_id: accepted.customer_id,
              client_id: accepted.client_id,
            },
            source: {
              ingestion_id: accepted.ingestion_id,
              document_type: accepted.document_type,
              document_created_at: accepted.document_created_at,
            },
            metadata: accepted.metadata,
            created_at: imported?.created_at ?? changedAt,
            updated_at: null,
            occurred_on: statement.occurredOn,
            speaker: statement.speaker,
            mode: accepted.mode,
            valid_from:
              imported?.valid_from ??
              imported?.created_at ??
              validFromOf(statement.occurredOn, accepted.document_created_at),
            valid_to: imported?.valid_to ?? null,
            superseded_by: null,
            expires_at: accepted.expires_at ?? null,
            ...(imported?.feedback ? { feedback: imported.feedback } : {}),
            ...(fact ? { fact } : {}),
            embedding: { model: ports.embedder.model, vector },
            ...(accepted.context && contextVector
              ? {
                  context: {
                    ...accepted.context,
                    embedding: { model: ports.embedder.model, vector: contextVector },
                  },
                }
              : {}),
          },
        },
      ]
    })
  }

  /**
   * The fact each statement states, read by the fact reader on its vector, with what it says the value replaced.
   * An imported memory versions nothing (its validity is the one it came with), nor does an assistant's statement or
   * one nobody is named as saying. A statement the reader fails on is stored stating no fact.
   */
  async function readFacts(
    accepted: DocumentAccepted,
    resolved: ResolvedStatement[],
    vectors: (number[] | null)[],
    log: Logger,
  ): Promise<{ facts: (FactSlot | null)[]; previous: Map<number, string> }> {
    const previous = new Map<number, string>()
    const reader =
      !accepted.imported && resolved.length > 0 && ports.factReader
        ? await ports.factReader().catch((error: unknown) => {
            log.warn({ err: error }, 'fact reader unavailable; memories stored stating no fact')
            return null
          })
        : null
    const facts = await Promise.all(
      resolved.map(async ({ statement }, ordinal) => {
        const speaker = statement.speaker
        const vector = vectors[ordinal]
        if (!reader || !vector || speaker === null || isAssistantSpeaker(speaker)) return null
        try {
          const reading = await reader.read({ content: statement.content, speaker, vector })
          if (!reading) return null
          if (reading.previous) previous.set(ordinal, reading.previous)
          return factSlotOfReading(reading, speaker)
        } catch (error) {
          log.warn(
            { err: error, ingestionId: accepted.ingestion_id },
            'fact reading failed; stored stating none',
          )
          return null
        }
      }),
    )
    return { facts, previous }
  }

  /**
   * The model's decisions applied: a statement that adds nothing is not stored; one that updates or ends an existing
   * memory becomes a version of that memory's fact (keyed by the speaker and the attribute the model names; each
   * version's value its own id, so any two differ), and the target is returned as the older version to end.
   */
  async function decideFacts(
    accepted: DocumentAccepted,
    memories: MemoryChanged[],
    log: Logger,
  ): Promise<{ kept: MemoryChanged[]; targets: StoredFactVersion[]; usage?: TokenUsage }> {
    const decider = ports.factDecider
    if (!decider || !ports.nearestMemories || memories.length === 0) return { kept: memories, targets: [] }
    const nearest = ports.nearestMemories.bind(ports)
    const scope = { user_id: accepted.user_id, customer_id: accepted.customer_id }
    try {
      const neighbours = await Promise.all(
        memories.map(({ memory }) => nearest(accepted.instance_id, scope, memory.embedding.vector, 5)),
      )
      const { decisions, usage } = await withRetry(
        () =>
          decider.decide({
            documentCreatedAt: accepted.document_created_at,
            statements: memories.map(({ memory }, index) => ({
              content: memory.content,
              speaker: memory.speaker,
              occurredOn: memory.occurred_on,
              neighbours: (neighbours[index] ?? []).map((stored) => ({
                id: stored.memory.id,
                content: stored.memory.content,
                validFrom: stored.memory.valid_from ?? null,
              })),
            })),
          }),
        isTransient,
        settings.retry,
      )
      const kept: MemoryChanged[] = []
      const targets: StoredFactVersion[] = []
      memories.forEach((event, index) => {
        const decision = decisions[index]
        if (decision?.action === 'none') return
        // The model's decision replaces the facts read by meaning: only its updates and deletions version a fact.
        delete event.memory.fact
        kept.push(event)
        const target = (neighbours[index] ?? []).find(({ memory }) => memory.id === decision?.target)
        if (!decision || !target || (decision.action !== 'update' && decision.action !== 'delete')) return
        const subject = (event.memory.speaker ?? target.memory.speaker ?? 'self').toLowerCase()
        const attribute = decision.attribute ?? 'fact'
        const key = `${subject}|${attribute}`
        event.memory.fact = { subject, attribute, value: event.memory_id, key }
        targets.push({
          ...target,
          memory: { ...target.memory, fact: { subject, attribute, value: target.memory.id, key } },
        })
      })
      return { kept, targets, ...(usage ? { usage } : {}) }
    } catch (error) {
      log.warn(
        { err: error, ingestionId: accepted.ingestion_id },
        'fact decision failed; facts read by meaning instead',
      )
      return { kept: memories, targets: [] }
    }
  }

  /**
   * `turns` share the processor between the lanes (lanes.ts): a turn is awaited before each stage that takes it
   * (extraction, embedding, fact reading), and it is given up before supersession, which only reads and writes.
   */
  async function process(
    event: ConsumedEvent<DocumentAccepted>,
    log: Logger,
    turns: StageTurns = freeTurns,
  ): Promise<DocumentOutcome> {
    const accepted = event.payload
    const correlationId = event.correlationId ?? accepted.ingestion_id
    const status = await ports.jobStatus(accepted.ingestion_id)
    let job = startProcessing(queuedJobOf(accepted), at())
    if (status && isTerminal(status)) {
      log.info({ ingestionId: accepted.ingestion_id, status }, 'document already processed; skipped')
      return { job, skipped: true, deadLettered: false }
    }
    const startedAt = now().getTime()
    // Stage errors not yet recorded on the job by a progress transition; the finishing transition records them.
    const failures: StageError[] = []
    const progressWrites: Promise<void>[] = []
    // Progress (processing first) is written without waiting for it: the job's read model keeps its highest version
    // whatever order transitions land in, and a failed write is thrown when the job finishes, not lost.
    const publishProgress = () => {
      const write = ports.publishJob(job, correlationId)
      write.catch(() => undefined)
      progressWrites.push(write)
    }
    publishProgress()
    const deadLetterErrors: DeadLetterError[] = []

    let statements: ExtractedStatement[] = []
    let usage: ExtractionResult['usage']
    try {
      await turns.waitTurn()
      const extracted = await extract(accepted)
      statements = extracted.statements
      usage = extracted.usage
      job = recordStage(job, 'extraction', 1, [], at())
    } catch (error) {
      const failure = describeFailure(error, 'EXTRACTION_FAILED')
      log.warn({ err: error, ingestionId: accepted.ingestion_id }, 'extraction failed')
      failures.push({ stage: 'extraction', code: failure.code, message: failure.message })
      deadLetterErrors.push({ stage: 'extraction', ...failure })
    }

    let resolved: ResolvedStatement[] = []
    let graphQueries = 0
    let reason: JobReason | undefined
    if (failures.length === 0) {
      if (statements.length === 0) {
        reason = nothingToRemember
      } else {
        // A defect in categorization or resolution must not block the partition: it becomes this document's error.
        try {
          const categorized = statements.map((statement) => ({
            ...statement,
            category: statement.category ?? categorize(statement),
          }))
          job = recordStage(job, 'categorization', 1, [], at())
          publishProgress()
          let known: StoredEntity[] = []
          const entityErrors: StageError[] = []
          if (accepted.mode === 'long-range') {
            try {
              const names = [
                ...new Set(categorized.flatMap((statement) => statement.entities.map(({ name }) => name))),
              ]
              graphQueries += 1
              known = await withRetry(
                () => ports.knownEntities(accepted.instance_id, names),
                () => true,
                settings.retry,
              )
            } catch (error) {
              // Memories are still worth storing with name-level resolution; the job says it was degraded.
              const failure = describeFailure(error, 'ENTITY_LOOKUP_FAILED')
              entityErrors.push({
                stage: 'entity_resolution',
                code: failure.code,
                message: `Aliases not matched against known entities: ${failure.message}`,
              })
              deadLetterErrors.push({ stage: 'entity_resolution', ...failure })
            }
          }
          resolved = resolveEntities(accepted.instance_id, accepted.mode, categorized, known)
          job = recordStage(job, 'entity_resolution', 1, entityErrors, at())
          publishProgress()
        } catch (error) {
          const stage = job.progress.categorization < 1 ? 'categorization' : 'entity_resolution'
          const failure = describeFailure(error, 'STAGE_FAILED')
          log.error({ err: error, ingestionId: accepted.ingestion_id, stage }, 'stage failed')
          resolved = []
          failures.push({ stage, code: failure.code, message: failure.message })
          deadLetterErrors.push({ stage, ...failure })
        }
      }
    }

    const contents = resolved.map(({ statement }) => statement.content)
    // A turn of a conversation is also embedded as read after the turn before it (conversationContext.ts), in the
    // same model calls as the statements.
    const context = accepted.context
    const contextual = context ? contents.map((content) => contextualTextOf(content, context)) : []
    // An imported memory's vector is used when it comes from our model; any other model's is not comparable.
    const given = givenVectorOf(accepted)
    await turns.waitTurn()
    const { vectors, errors: embeddingErrors } = given
      ? { vectors: [given], errors: [] }
      : await embedAll([...contents, ...contextual], (index) =>
          index < contents.length
            ? `statement ${String(index + 1)}`
            : `statement ${String(index - contents.length + 1)} in its conversation`,
        )
    for (const { attempts, ...error } of embeddingErrors) {
      failures.push({ stage: error.stage, code: error.code, message: error.message })
      deadLetterErrors.push({ ...error, ...(attempts !== undefined ? { attempts } : {}) })
    }
    const statementVectors = vectors.slice(0, contents.length)
    await turns.waitTurn()
    const read = await readFacts(accepted, resolved, statementVectors, log)
    const formed = memoryEvents(
      accepted,
      resolved,
      statementVectors,
      vectors.slice(contents.length),
      read.facts,
    )
    // What a statement says its value replaced names the older version (factSupersession.ts), by memory id.
    const previousOf = new Map(
      [...read.previous].map(([ordinal, words]) => [memoryIdFor(accepted.ingestion_id, ordinal), words]),
    )
    const decided = accepted.imported
      ? { kept: formed, targets: [] }
      : await decideFacts(accepted, formed, log)
    const memories = decided.kept

    const finishedAt = at()
    const measuredBy = accepted.ingestion_id
    const dimensions = {
      ...(accepted.user_id ? { user_id: accepted.user_id } : {}),
      ...(accepted.customer_id ? { customer_id: accepted.customer_id } : {}),
      document_type: accepted.document_type,
      mode: accepted.mode,
    }
    const usageEvents: OutgoingEvent[] = [
      usageEvent(
        {
          instanceId: accepted.instance_id,
          metric: 'ingestion',
          value: 1,
          measuredBy,
          occurredAt: finishedAt,
          latencyMs: Math.max(0, now().getTime() - Date.parse(accepted.accepted_at)),
          dimensions: { ...dimensions, operation: 'ingestion' },
        },
        correlationId,
      ),
    ]
    if (memories.length > 0) {
      usageEvents.push(
        usageEvent(
          {
            instanceId: accepted.instance_id,
            metric: 'memories_stored',
            value: memories.length,
            measuredBy,
            occurredAt: finishedAt,
            dimensions,
          },
          correlationId,
        ),
      )
    }
    if (graphQueries > 0) {
      usageEvents.push(
        usageEvent(
          {
            instanceId: accepted.instance_id,
            metric: 'graph_queries',
            value: graphQueries,
            measuredBy: `${measuredBy}/entity-lookup`,
            occurredAt: finishedAt,
            dimensions: { ...dimensions, operation: 'ingestion' },
          },
          correlationId,
        ),
      )
    }
    // A model's tokens, for the extraction and for the fact decisions each.
    for (const [modelUsage, by] of [
      [usage, measuredBy],
      [decided.usage, `${measuredBy}/fact-decisions`],
    ] as const) {
      if (!modelUsage) continue
      for (const [metric, value] of [
        ['llm_input_tokens', modelUsage.inputTokens],
        ['llm_output_tokens', modelUsage.outputTokens],
      ] as const) {
        usageEvents.push(
          usageEvent(
            {
              instanceId: accepted.instance_id,
              metric,
              value,
              measuredBy: by,
              occurredAt: finishedAt,
              dimensions: { ...dimensions, operation: 'ingestion', model: modelUsage.model },
            },
            correlationId,
          ),
        )
      }
    }
    // Versions of one fact are settled one document at a time (factSupersession.ts). The model's decisions name
    // their versions themselves.
    const stated = factsOf(memories)
    turns.doneWithProcessor()
    const release = await facts.lock(stated)
    try {
      const superseding = await withRetry(
        () => facts.supersede(memories, decided.targets, previousOf),
        () => true,
        settings.retry,
      )
      const written = [...memories, ...superseding]
      // The job may say a memory exists only once its event is in the log; usage needs no such order.
      await Promise.all([ports.publishMemories(written, correlationId), ports.publishUsage(usageEvents)])
      if (memories.length > 0 && !(await ports.awaitProjected(written))) {
        log.warn({ ingestionId: accepted.ingestion_id }, 'memories not yet projected; job finished anyway')
      }
      const reconciled = await withRetry(
        () => facts.reconcile(stated, correlationId),
        () => true,
        settings.retry,
      )
      if (superseding.length + reconciled > 0) {
        log.info(
          { ingestionId: accepted.ingestion_id, superseded: superseding.length, reconciled },
          'fact versions superseded',
        )
      }
    } finally {
      release()
    }

    await Promise.all(progressWrites)
    if (resolved.length > 0) {
      job = recordStage(job, 'storage', memories.length / resolved.length, [], at())
    }
    job = finishJob(
      job,
      {
        memoryIds: memories.map((memory) => memory.memory_id),
        errors: failures,
        ...(reason ? { reason } : {}),
      },
      at(),
    )
    const deadLettered = deadLetterErrors.length > 0
    if (deadLettered) await ports.deadLetters.write(event, deadLetterErrors)
    await ports.publishJob(job, correlationId)
    log.info(
      {
        ingestionId: accepted.ingestion_id,
        status: job.status,
        memories: memories.length,
        errors: job.errors.length,
        ms: now().getTime() - startedAt,
      },
      'document processed',
    )
    return { job, skipped: false, deadLettered }
  }

  return { process }
}
