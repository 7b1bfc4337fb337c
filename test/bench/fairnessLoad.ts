/**
 * The three customers of `npm run bench:fairness`, in a process of their own as agents are: A imports documents
 * through the batch route, B streams a conversation as fast as it is acknowledged, C writes one short document and
 * one conversation event a second and measures how long each takes to be found. Started by fairness.bench.ts with
 * one phase as JSON in argv; answers its measurements over IPC. A phase without an import lasts `seconds`, or as long
 * as B's conversation takes.
 */
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { createEventStream, createMemoryClient } from '@memory-service/client'
import type { Document } from '@memory-service/contracts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const locomoFile = join(root, '../shared/eval/locomo/locomo-dev.json')
const beamFile = process.env.BEAM_DATA ?? join(homedir(), '.cache', 'beam-100k-dev.json')

type LocomoTurn = { speaker: string; text: string }
type Locomo = { conversation: Record<string, unknown> }

/** LoCoMo's turns as an importer sends them: one document per turn, a user per conversation, `count` in all. */
function importedDocuments(count: number, runId: string): Document[] {
  const conversations = JSON.parse(readFileSync(locomoFile, 'utf8')) as Locomo[]
  const turns = conversations.flatMap((entry, conversation) =>
    Object.entries(entry.conversation)
      .filter(([key, value]) => /^session_\d+$/.test(key) && Array.isArray(value))
      .flatMap(([, value]) => (value as LocomoTurn[]).map((turn) => ({ conversation, turn }))),
  )
  return Array.from({ length: count }, (_, index) => {
    const { conversation, turn } = turns[index % turns.length] as (typeof turns)[number]
    return {
      document: `${turn.speaker}: ${turn.text}`,
      document_type: 'ai-chat-conversation',
      document_id: `fair-${runId}-a-${String(index)}`,
      mode: 'long-range',
      user_id: `fair-${runId}-a-user-${String(conversation)}`,
    }
  })
}

/** The first BEAM development conversation (LoCoMo's first when the BEAM file is not on this machine). */
function streamedTurns(): { source: string; turns: { role: 'user' | 'assistant'; content: string }[] } {
  if (existsSync(beamFile)) {
    const [first] = JSON.parse(readFileSync(beamFile, 'utf8')) as {
      turns: { role: 'user' | 'assistant'; content: string }[]
    }[]
    return {
      source: 'BEAM conversation 1',
      turns: (first?.turns ?? []).map(({ role, content }) => ({ role, content })),
    }
  }
  const [first] = JSON.parse(readFileSync(locomoFile, 'utf8')) as Locomo[]
  const turns = Object.entries(first?.conversation ?? {})
    .filter(([key, value]) => /^session_\d+$/.test(key) && Array.isArray(value))
    .flatMap(([, value]) => value as LocomoTurn[])
  return {
    source: 'LoCoMo conversation 1 (no BEAM file here)',
    turns: turns.map((turn, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content: turn.text })),
  }
}

export interface Customer {
  apiKey: string
}

export interface FairnessJob {
  baseUrl: string
  grpcAddress: string
  runId: string
  /** A: this many LoCoMo turns as documents through the batch route; the phase lasts until they are formed. */
  importer?: Customer & { documents: number }
  /** B: a conversation's turns (streamedTurns), streamed once. */
  streamer?: Customer
  /** C: one document and one event a second. */
  prober?: Customer
  /** Without an import, how long the phase lasts. */
  seconds: number
}

export interface FairnessResult {
  seconds: number
  /** A: documents accepted, and seconds from the first accepted to the last formed. */
  imported?: { documents: number; formedInSeconds: number }
  /** B: events acknowledged as accepted, over how many seconds, and which conversation. */
  streamed?: { acked: number; seconds: number; source: string }
  /** C: ms from a document's 201 to the first search that finds it. */
  documentLags: number[]
  /** C: ms from an event's ack to the first context fetch that returns it. */
  eventLags: number[]
  probesLost: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const batchSize = 100
const probeTimeoutMs = 300_000

async function bulkLag(baseUrl: string): Promise<number | null> {
  const response = await fetch(`${baseUrl}/readyz`)
  const body = (await response.json()) as { consumers?: { group: string; lag?: number }[] }
  const bulk = body.consumers?.find((entry) => entry.group.endsWith('memory-pipeline-bulk'))
  return bulk?.lag ?? null
}

async function importAll(job: FairnessJob, importer: NonNullable<FairnessJob['importer']>) {
  const client = createMemoryClient({ baseUrl: job.baseUrl, apiKey: importer.apiKey, timeoutMs: 120_000 })
  const documents = importedDocuments(importer.documents, job.runId)
  let firstAccepted: number | undefined
  let accepted = 0
  for (let start = 0; start < documents.length; start += batchSize) {
    const { results, errors } = await client.memories.ingestBatch(documents.slice(start, start + batchSize))
    if (errors.length > 0) throw new Error(`import refused: ${JSON.stringify(errors[0])}`)
    firstAccepted ??= performance.now()
    accepted += results.length
  }
  // Formed once the bulk lane has nothing left (offsets are committed after each document is formed).
  for (;;) {
    await sleep(500)
    if ((await bulkLag(job.baseUrl)) === 0) break
  }
  return { documents: accepted, formedInSeconds: (performance.now() - (firstAccepted ?? 0)) / 1000 }
}

async function run(job: FairnessJob): Promise<FairnessResult> {
  const started = performance.now()
  // Set once the phase ends (an object: the loops below read it after awaits).
  const phase = { done: false }
  const ended = () => phase.done
  const documentLags: number[] = []
  const eventLags: number[] = []
  let probesLost = 0

  const streaming = job.streamer
    ? (async (streamer) => {
        const { turns, source } = streamedTurns()
        let acked = 0
        let inFlight = 0
        const stream = createEventStream({
          address: job.grpcAddress,
          apiKey: streamer.apiKey,
          onAnticipatedContext: () => undefined,
          onAck: (ack) => {
            inFlight -= 1
            if (ack.status === 'ACCEPTED') acked += 1
          },
        })
        stream.start()
        const from = performance.now()
        // The conversation once, as fast as it is acknowledged (64 in flight), or until the phase ends.
        for (const turn of turns) {
          while (inFlight >= 64) await sleep(2)
          if (ended()) break
          inFlight += 1
          stream.send({
            event_type: turn.role === 'user' ? 'user_message' : 'assistant_message',
            conversation_id: `fair-${job.runId}-b`,
            user_id: `fair-${job.runId}-b-user`,
            role: turn.role,
            content: turn.content,
          })
        }
        while (inFlight > 0) await sleep(2)
        const seconds = (performance.now() - from) / 1000
        await stream.stop(60_000)
        return { acked, seconds, source }
      })(job.streamer)
    : undefined

  const probing = job.prober
    ? (async (prober) => {
        const client = createMemoryClient({ baseUrl: job.baseUrl, apiKey: prober.apiKey })
        const ackWaiters = new Map<string, (at: number) => void>()
        const stream = createEventStream({
          address: job.grpcAddress,
          apiKey: prober.apiKey,
          onAnticipatedContext: () => undefined,
          onAck: (ack) => ackWaiters.get(ack.eventId)?.(performance.now()),
        })
        stream.start()
        const probes: Promise<void>[] = []
        for (let index = 0; !ended(); index += 1) {
          const name = `Quorvel${job.runId}x${String(index)}`
          // A user per probe: what is measured is when the memory can be found, not how it ranks among near twins
          // (the analyzer splits the made-up name at its digits, so a hundred probes of one user look alike).
          const user = `fair-${job.runId}-c-user-${String(index)}`
          probes.push(
            (async () => {
              await client.memories.ingest({
                document: `${name} adopted a greyhound called Pixel last week.`,
                document_type: 'note',
                mode: 'fast',
                user_id: user,
              })
              const from = performance.now()
              // Listed from the search index (the same refresh as search) rather than searched: a search embeds its
              // question, and twenty polls a second of it would load the machine the benchmark measures.
              while (performance.now() - from < probeTimeoutMs) {
                const { items } = await client.memories.list({ user_id: user, page_size: 10 })
                if (items.some((memory) => memory.content.includes(name))) {
                  documentLags.push(performance.now() - from)
                  return
                }
                await sleep(100)
              }
              probesLost += 1
            })(),
          )
          const conversationId = `fair-${job.runId}-c-${String(index)}`
          const eventId = `fair-${job.runId}-c-${String(index)}`
          const ackedAt = new Promise<number>((resolve) => ackWaiters.set(eventId, resolve))
          stream.send({
            event_id: eventId,
            event_type: 'assistant_message',
            conversation_id: conversationId,
            user_id: user,
            content: `Probe ${String(index)}`,
          })
          probes.push(
            (async () => {
              const from = await ackedAt
              while (performance.now() - from < probeTimeoutMs) {
                const context = await client.conversations.context(conversationId, { user_id: user })
                if (context.recent_turns.some((turn) => turn.content === `Probe ${String(index)}`)) {
                  eventLags.push(performance.now() - from)
                  return
                }
                await sleep(100)
              }
              probesLost += 1
            })(),
          )
          await sleep(1_000)
        }
        await Promise.all(probes)
        await stream.stop(60_000)
      })(job.prober)
    : undefined

  const imported = job.importer ? await importAll(job, job.importer) : undefined
  if (!imported) await sleep(job.seconds * 1000)
  phase.done = true
  const streamed = await streaming
  await probing
  return {
    seconds: (performance.now() - started) / 1000,
    ...(imported ? { imported } : {}),
    ...(streamed ? { streamed } : {}),
    documentLags,
    eventLags,
    probesLost,
  }
}

const job = JSON.parse(process.argv[2] ?? '{}') as FairnessJob
run(job).then(
  (result) => {
    process.send?.(result, () => process.exit(0))
  },
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
