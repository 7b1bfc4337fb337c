import { dirname } from 'node:path'
import { createRequire } from 'node:module'
import { afterEach, describe, expect, it } from 'vitest'
import * as grpc from '@grpc/grpc-js'
import * as protoLoader from '@grpc/proto-loader'
import { createEventStream } from './eventStream.js'

interface StreamCall {
  on(
    event: 'data',
    listener: (message: { event?: { eventId: string }; events?: { events: { eventId: string }[] } }) => void,
  ): void
  write(message: unknown): void
  emit(event: 'error', error: Partial<grpc.StatusObject>): void
}

const protoDir = dirname(
  dirname(
    dirname(createRequire(import.meta.url).resolve('@memory-service/proto/memory/v1/event_stream.proto')),
  ),
)

/**
 * An in-process EventStream server whose first `refusals` calls fail with UNAVAILABLE while the connection stays
 * up (a draining or restarting server does this); later calls acknowledge every event.
 */
async function startRefusingServer(refusals: number): Promise<{ address: string; server: grpc.Server }> {
  const definition = protoLoader.loadSync('memory/v1/event_stream.proto', {
    includeDirs: [protoDir],
    enums: String,
    defaults: true,
    oneofs: true,
  })
  const proto = grpc.loadPackageDefinition(definition) as unknown as {
    memory: { v1: { EventStream: { service: grpc.ServiceDefinition } } }
  }
  const server = new grpc.Server()
  let calls = 0
  server.addService(proto.memory.v1.EventStream.service, {
    Stream(call: StreamCall) {
      calls += 1
      if (calls <= refusals) {
        call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'not serving yet' })
        return
      }
      call.on('data', (message) => {
        const ids = message.event
          ? [message.event.eventId]
          : (message.events?.events ?? []).map((e) => e.eventId)
        call.write({ acks: { acks: ids.map((eventId) => ({ eventId, status: 'ACCEPTED' })) } })
      })
    },
  })
  const port = await new Promise<number>((resolvePort, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolvePort(bound),
    ),
  )
  return { address: `127.0.0.1:${port}`, server }
}

let running: grpc.Server | undefined
afterEach(() => running?.forceShutdown())

const turn = (index: number) => ({
  event_type: 'user_message' as const,
  conversation_id: 'c',
  user_id: 'u',
  content: `turn ${index}`,
})

describe('event stream reconnection', () => {
  // The connection stays READY while the server refuses the call, so no connectivity change announces that delivery
  // may resume: the stream must look at the connection when it opens the next call, not wait for a change.
  it('delivers what a refused call held on the next call when the connection stayed up', async () => {
    const { address, server } = await startRefusingServer(2)
    running = server
    const acked: string[] = []
    const stream = createEventStream({
      address,
      apiKey: 'k',
      backoff: { initialMs: 20, maxMs: 50 },
      onAck: (ack) => acked.push(ack.eventId),
      warn: () => undefined,
    })
    stream.start()
    const ids = [0, 1, 2].map((index) => stream.send(turn(index)))
    // Far below the 60 s the stream would otherwise wait for a connectivity change that never comes.
    const { unacknowledged } = await stream.stop(5_000)
    expect(unacknowledged).toEqual([])
    expect(acked).toEqual(ids)
  })
})
