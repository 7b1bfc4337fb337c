import { readFileSync } from 'node:fs'
import { RejectedWriteError } from '../failures/permanentFailures.js'
import { Client, type estypes } from '@elastic/elasticsearch'

export interface ElasticsearchConnectionOptions {
  url: string
  username?: string
  password?: string
  /** Instead of a username and password (loadConfig refuses both). */
  apiKey?: string
  /** PEM file of the authorities to trust for an https URL. */
  caFile?: string
  /** SHA-256 fingerprint of the CA certificate to trust, as Elasticsearch prints it at its first start. */
  caFingerprint?: string
}

export function createElasticsearchClient(options: ElasticsearchConnectionOptions): Client {
  const auth =
    options.apiKey !== undefined
      ? { apiKey: options.apiKey }
      : options.username !== undefined && options.password !== undefined
        ? { username: options.username, password: options.password }
        : undefined
  return new Client({
    node: options.url,
    ...(auth ? { auth } : {}),
    ...(options.caFile !== undefined ? { tls: { ca: readFileSync(options.caFile, 'utf8') } } : {}),
    // A pinned CA replaces the chain's validation: the client checks the fingerprint of the certificate that signed
    // the server's after the handshake, which a self-signed CA (what Elasticsearch makes at first start) would not
    // pass with Node's own validation on.
    ...(options.caFingerprint !== undefined
      ? { caFingerprint: options.caFingerprint, tls: { rejectUnauthorized: false } }
      : {}),
    requestTimeout: 30_000,
  })
}

/**
 * An engine's reason without the value it quotes: Elasticsearch ends a mapping refusal with a preview of the field's
 * value, which is a user's content, and the reason goes into logs and into a dead letter's headers, which are not
 * sealed and outlive an erasure.
 */
export function withoutFieldValues(reason: string): string {
  return reason.replace(/Preview of field's value: '[\s\S]*$/, "Preview of field's value withheld.")
}

export interface IndexedDocument<T> {
  id: string
  /** The document to write, or `null` to delete it (a versioned delete leaves a tombstone at that version). */
  document: T | null
  /** External version: a replayed or reordered write with a lower version is ignored, not applied. */
  version?: number
}

export interface KnnHit<T> {
  id: string
  score: number
  document: T
}

export interface ElasticsearchStore<T> {
  readonly index: string
  /**
   * Creates the index with its mappings if it does not exist (safe under concurrent callers); on an existing index
   * adds the fields declared since it was created (Elasticsearch refuses changes to existing fields, loudly).
   */
  ensureIndex(mappings: estypes.MappingTypeMapping, settings?: estypes.IndicesIndexSettings): Promise<void>
  /**
   * Writes (and, for a `null` document, deletes) documents in one bulk request. Version conflicts (an older event
   * replayed) count as skipped, every other per-document failure is thrown. `sameVersion: 'replace'` writes a
   * document again at the version it has (Elasticsearch's `external_gte`), for re-projecting it under another policy.
   */
  upsert(
    documents: IndexedDocument<T>[],
    options?: { refresh?: boolean; sameVersion?: 'skip' | 'replace' },
  ): Promise<{ written: number; skipped: number }>
  get(id: string): Promise<T | null>
  knnSearch(params: {
    field: string
    vector: number[]
    k: number
    numCandidates?: number
    filter?: estypes.QueryDslQueryContainer
  }): Promise<KnnHit<T>[]>
  deleteIndex(): Promise<void>
}

export function createElasticsearchStore<T extends object>(
  client: Client,
  index: string,
): ElasticsearchStore<T> {
  return {
    index,
    async ensureIndex(mappings, settings) {
      if (await client.indices.exists({ index })) {
        if (mappings.properties) await client.indices.putMapping({ index, properties: mappings.properties })
        // The refresh interval is dynamic: a deployment created with another one takes the declared one (it bounds
        // how soon a write is searchable). Static settings stay as the index was created.
        if (settings?.refresh_interval !== undefined)
          await client.indices.putSettings({
            index,
            settings: { refresh_interval: settings.refresh_interval },
          })
        return
      }
      try {
        await client.indices.create({ index, mappings, ...(settings ? { settings } : {}) })
      } catch (error) {
        const type = (error as { body?: { error?: { type?: string } } }).body?.error?.type
        if (type !== 'resource_already_exists_exception') throw error
      }
    },
    async upsert(documents, options) {
      if (documents.length === 0) return { written: 0, skipped: 0 }
      const versionType =
        options?.sameVersion === 'replace' ? ('external_gte' as const) : ('external' as const)
      const operations = documents.flatMap(
        ({ id, document, version }): (estypes.BulkOperationContainer | T)[] => {
          const target = {
            _index: index,
            _id: id,
            ...(version !== undefined ? { version, version_type: versionType } : {}),
          }
          return document === null ? [{ delete: target }] : [{ index: target }, document]
        },
      )
      const response = await client.bulk({ operations, refresh: options?.refresh ?? false })
      let skipped = 0
      const failures: string[] = []
      let retryable = false
      for (const item of response.items) {
        const result = item.index ?? item.delete
        const error = result?.error
        if (!error) continue
        if (error.type === 'version_conflict_engine_exception') skipped += 1
        else {
          failures.push(`${result._id ?? '?'}: ${error.type} ${withoutFieldValues(error.reason ?? '')}`)
          // 400: the document itself is refused (a value the mapping cannot take); 429 and 5xx pass.
          if (result.status !== 400) retryable = true
        }
      }
      if (failures.length > 0) {
        const message = `Bulk write to ${index} failed for ${failures.length} document(s): ${failures.join('; ')}`
        // The other documents were written: a retry of the batch skips them by version.
        throw retryable ? new Error(message) : new RejectedWriteError(message, failures)
      }
      return { written: documents.length - skipped, skipped }
    },
    async get(id) {
      const response = await client.get<T>({ index, id }, { ignore: [404] })
      return response.found ? (response._source ?? null) : null
    },
    async knnSearch({ field, vector, k, numCandidates, filter }) {
      const response = await client.search<T>({
        index,
        knn: {
          field,
          query_vector: vector,
          k,
          num_candidates: numCandidates ?? Math.max(k * 10, 50),
          ...(filter ? { filter } : {}),
        },
        size: k,
      })
      return response.hits.hits.map((hit) => ({
        id: hit._id ?? '',
        score: hit._score ?? 0,
        document: hit._source as T,
      }))
    },
    async deleteIndex() {
      await client.indices.delete({ index }, { ignore: [404] })
    },
  }
}

/** Server version through a call every distribution answers (the integ-test build has no `GET /`). */
export async function elasticsearchVersion(client: Client): Promise<string> {
  const health = await client.cluster.health({ wait_for_status: 'yellow', timeout: '5s' })
  if (health.timed_out) throw new Error(`Elasticsearch cluster status is ${health.status}`)
  const nodes = await client.nodes.info({ node_id: '_local', metric: '_none' })
  const node = Object.values(nodes.nodes)[0]
  return node?.version ?? 'unknown'
}
