/**
 * The clients of `npm run bench:lag`, in a process of their own: a sustained stream of conversation events, a
 * document stream beside it, and probes that measure how long after its acknowledgement a turn is readable through
 * the context route and a memory is found by search. Started by lag.bench.ts; answers over IPC.
 */
import { performance } from 'node:perf_hooks'
import { createEventStream, createMemoryClient } from '@memory-service/client'

export interface LagJob {
  grpcAddress: string
  baseUrl: string
  apiKey: string
  runId: string
  /** Conversation events per second. */
  rate: number
  seconds: number
  /** Documents per second beside the stream. */
  documentsPerSecond: number
  /** Probe turns per second (each in a conversation of its own). */
  probesPerSecond: number
}

export interface LagResult {
  sent: number
  acked: number
  notAccepted: number
  seconds: number
  /** ms from the ack of a probe turn to the first context fetch that returned it. */
  turnLags: number[]
  /** [seconds into the run, lag ms] of each probe turn, to see whether lag grows. */
  turnSeries: [number, number][]
  turnProbesLost: number
  /** ms from the 201 of a document to the first search that found its memory. */
  memoryLags: number[]
  memoryProbesLost: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function run(job: LagJob): Promise<LagResult> {
  const client = createMemoryClient({ baseUrl: job.baseUrl, apiKey: job.apiKey })
  let acked = 0
  let notAccepted = 0
  const ackWaiters = new Map<string, (at: number) => void>()
  const stream = createEventStream({
    address: job.grpcAddress,
    apiKey: job.apiKey,
    onAnticipatedContext: () => undefined,
    onAck: (ack) => {
      acked += 1
      if (ack.status !== 'ACCEPTED') notAccepted += 1
      ackWaiters.get(ack.eventId)?.(performance.now())
    },
  })
  stream.start()

  const started = performance.now()
  const turnLags: number[] = []
  const turnSeries: [number, number][] = []
  const memoryLags: number[] = []
  let turnProbesLost = 0
  let memoryProbesLost = 0
  const probes: Promise<void>[] = []
  const deadlineFor = (from: number) => from + 30_000

  // A probe turn is an assistant message: the context route then reads the conversation without a memory search.
  const probeTurn = (index: number) => {
    const conversationId = `lag-${job.runId}-probe-${index}`
    const eventId = `lag-${job.runId}-probe-${index}`
    const ackedAt = new Promise<number>((resolve) => ackWaiters.set(eventId, resolve))
    stream.send({
      event_id: eventId,
      event_type: 'assistant_message',
      conversation_id: conversationId,
      user_id: `lag-${job.runId}-prober`,
      content: `Probe ${index}`,
    })
    probes.push(
      (async () => {
        const from = await ackedAt
        while (performance.now() < deadlineFor(from)) {
          const context = await client.conversations.context(conversationId, {
            user_id: `lag-${job.runId}-prober`,
          })
          if (context.recent_turns.some((turn) => turn.content === `Probe ${index}`)) {
            turnLags.push(performance.now() - from)
            turnSeries.push([(from - started) / 1000, performance.now() - from])
            return
          }
          await sleep(50)
        }
        turnProbesLost += 1
      })(),
    )
  }

  const probeDocument = (index: number) => {
    const name = `Zarvex${job.runId}x${index}`
    probes.push(
      (async () => {
        const user = `lag-${job.runId}-reader-${index % 20}`
        await client.memories.ingest({
          document: `${name} moved to Lisbon in 2021 and works there as a marine biologist.`,
          document_type: 'note',
          mode: 'fast',
          user_id: user,
        })
        const from = performance.now()
        while (performance.now() < deadlineFor(from)) {
          const found = await client.memories.search({
            query: `Where does ${name} live?`,
            user_id: user,
            mode: 'fast',
          })
          if (found.results.some((memory) => memory.content.includes(name))) {
            memoryLags.push(performance.now() - from)
            return
          }
          await sleep(100)
        }
        memoryProbesLost += 1
      })(),
    )
  }

  const conversations = 200
  let sent = 0
  let probesSent = 0
  let documentsSent = 0
  const total = job.rate * job.seconds
  while (sent < total) {
    const elapsed = (performance.now() - started) / 1000
    const due = Math.min(total, Math.floor(elapsed * job.rate))
    for (; sent < due; sent += 1) {
      stream.send({
        event_type: 'user_message',
        conversation_id: `lag-${job.runId}-conv-${sent % conversations}`,
        user_id: `lag-${job.runId}-user-${sent % 50}`,
        content: `Turn ${sent}: we talked about the trip to Porto and the new job at the aquarium.`,
      })
    }
    for (; probesSent < Math.floor(elapsed * job.probesPerSecond); probesSent += 1) probeTurn(probesSent)
    for (; documentsSent < Math.floor(elapsed * job.documentsPerSecond); documentsSent += 1)
      probeDocument(documentsSent)
    await sleep(5)
  }
  const seconds = (performance.now() - started) / 1000
  await Promise.all(probes)
  await stream.stop(60_000)
  return {
    sent: sent + probesSent,
    acked,
    notAccepted,
    seconds,
    turnLags,
    turnSeries,
    turnProbesLost,
    memoryLags,
    memoryProbesLost,
  }
}

const job = JSON.parse(process.argv[2] ?? '{}') as LagJob
run(job).then(
  (result) => {
    process.send?.(result, () => process.exit(0))
  },
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
