import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Client } from '@elastic/elasticsearch'
import { judgeLease, leaseFor, LEASES_INDEX, type Lease } from '@memory-service/domain'
import { loadEngineDeclarations } from '../provisioning/provisionEngines.js'
import { createElasticsearchStore } from './createElasticsearchStore.js'

/** A lease this process holds, renewed in the background until released. */
export interface HeldLease {
  readonly name: string
  readonly holder: string
  /** True once a renewal found the lease taken by another holder (this one stopped renewing in time). */
  lost(): boolean
  release(): Promise<void>
}

export interface LeaseStore {
  /**
   * Takes the lease, waiting while another holder has it and renews it; `onWait` hears who holds it, once per wait.
   * Renewed every third of its time until released.
   */
  acquire(
    name: string,
    options?: {
      onWait?: (holder: Lease) => void
      pollMs?: number
      /** Stops waiting: the promise rejects with the signal's reason, and nothing is taken. */
      signal?: AbortSignal
    },
  ): Promise<HeldLease>
}

export interface LeaseStoreOptions {
  index?: string
  /** Who this process is in a lease (default: host, pid and a random suffix). */
  holder?: string
  /** How long a lease lasts without renewal (default 60 s): how long a crashed holder blocks the name. */
  ttlMs?: number
  now?: () => number
}

const isConflict = (error: unknown) => (error as { meta?: { statusCode?: number } }).meta?.statusCode === 409

/**
 * Leases in Elasticsearch, one document per name, changed only with optimistic concurrency (`if_seq_no`), so that of
 * processes racing for a name exactly one holds it — across processes and machines, unlike an in-process lock.
 */
export function createLeaseStore(client: Client, options: LeaseStoreOptions = {}): LeaseStore {
  const index = options.index ?? LEASES_INDEX
  const holder = options.holder ?? `${hostname()}-${String(process.pid)}-${randomBytes(4).toString('hex')}`
  const ttlMs = options.ttlMs ?? 60_000
  const now = options.now ?? Date.now

  type Version = { seqNo: number; primaryTerm: number }

  // A process that is not provisioned (`replay`) may be the first to take a lease: the index is created with its
  // declared mapping rather than left to dynamic mapping.
  let indexReady: Promise<void> | undefined
  const ensureIndex = (): Promise<void> => {
    indexReady ??= (async () => {
      const declaration = loadEngineDeclarations().indices.find((entry) => entry.name === LEASES_INDEX)
      if (!declaration) throw new Error(`${LEASES_INDEX} is not declared in infra/elasticsearch/indices.json`)
      await createElasticsearchStore(client, index).ensureIndex(declaration.mappings, declaration.settings)
      // Created by another process a moment ago, its shard may not be allocated yet.
      await client.cluster.health({ index, wait_for_status: 'yellow', timeout: '30s' })
    })().catch((error: unknown) => {
      indexReady = undefined
      throw error
    })
    return indexReady
  }

  /** Takes the lease if free, expired or ours; otherwise answers who holds it. */
  async function tryTake(name: string): Promise<{ taken: Version } | { heldBy: Lease }> {
    for (let unavailable = 0; ;) {
      let found: Awaited<ReturnType<typeof client.get<Lease>>>
      try {
        found = await client.get<Lease>({ index, id: name }, { ignore: [404] })
      } catch (error) {
        // A shard still starting (the index was created a moment ago) answers 503 for a moment.
        if ((error as { meta?: { statusCode?: number } }).meta?.statusCode !== 503 || ++unavailable > 100)
          throw error
        await new Promise((resolve) => setTimeout(resolve, 100))
        continue
      }
      const lease = found.found ? (found._source ?? null) : null
      const verdict = judgeLease(lease, holder, now())
      if (verdict === 'held' && lease) return { heldBy: lease }
      try {
        const written = await client.index({
          index,
          id: name,
          document: leaseFor(name, holder, now(), ttlMs),
          refresh: false,
          ...(verdict === 'free'
            ? { op_type: 'create' as const }
            : { if_seq_no: found._seq_no ?? 0, if_primary_term: found._primary_term ?? 0 }),
        })
        return { taken: { seqNo: written._seq_no ?? 0, primaryTerm: written._primary_term ?? 0 } }
      } catch (error) {
        // Another process wrote the lease between the read and the write: read it again.
        if (!isConflict(error)) throw error
      }
    }
  }

  return {
    async acquire(name, acquireOptions = {}) {
      await ensureIndex()
      let told = false
      let version: Version
      const signal = acquireOptions.signal
      for (;;) {
        signal?.throwIfAborted()
        const outcome = await tryTake(name)
        if ('taken' in outcome) {
          version = outcome.taken
          break
        }
        if (!told) acquireOptions.onWait?.(outcome.heldBy)
        told = true
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer)
            signal?.removeEventListener('abort', done)
            resolve()
          }
          const timer = setTimeout(done, acquireOptions.pollMs ?? 2_000)
          signal?.addEventListener('abort', done, { once: true })
        })
      }
      const acquiredAt = new Date(now()).toISOString()
      let lost = false
      let renewing: Promise<void> = Promise.resolve()
      const timer = setInterval(
        () => {
          renewing = client
            .index({
              index,
              id: name,
              document: leaseFor(name, holder, now(), ttlMs, acquiredAt),
              if_seq_no: version.seqNo,
              if_primary_term: version.primaryTerm,
            })
            .then((written) => {
              version = { seqNo: written._seq_no ?? 0, primaryTerm: written._primary_term ?? 0 }
            })
            .catch((error: unknown) => {
              if (isConflict(error)) lost = true
              // Elasticsearch unreachable: the next renewal tries again before the lease runs out.
            })
        },
        Math.max(Math.floor(ttlMs / 3), 10),
      )
      timer.unref()
      return {
        name,
        holder,
        lost: () => lost,
        async release() {
          clearInterval(timer)
          await renewing
          if (lost) return
          await client
            .delete({ index, id: name, if_seq_no: version.seqNo, if_primary_term: version.primaryTerm })
            .catch((error: unknown) => {
              if (
                !isConflict(error) &&
                (error as { meta?: { statusCode?: number } }).meta?.statusCode !== 404
              )
                throw error
            })
        },
      }
    },
  }
}
