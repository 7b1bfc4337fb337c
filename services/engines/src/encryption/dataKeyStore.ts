import type { Client } from '@elastic/elasticsearch'
import { DATA_KEYS_INDEX } from '@memory-service/domain'

/** One data subject's key as stored: wrapped by a master key, never in plaintext. */
export interface StoredDataKey {
  /** The document's id, also as a field (Elasticsearch does not sort by `_id`). */
  subject_id: string
  instance_id: string
  user_id: string
  /** Changes when a subject erased before comes back: records sealed under an earlier key stay unreadable. */
  key_id: string
  /** The data key wrapped by the master key `master_key_id` (see keyring.ts for the format). */
  wrapped: string
  master_key_id: string
  /** The subject's usage pseudonym, so that analytics can name the users who still have a key. */
  pseudonym: string
  created_at: string
}

/** Where data keys live; every process of a deployment reads the same store. */
export interface DataKeyStore {
  get(subjectId: string): Promise<StoredDataKey | undefined>
  /** Stores a new key unless the subject has one already; returns the one that is stored either way. */
  createIfAbsent(subjectId: string, key: StoredDataKey): Promise<StoredDataKey>
  /** Removes the key for good; true when there was one. */
  destroy(subjectId: string): Promise<boolean>
  /** The users of an instance behind each of these pseudonyms that still has a key. */
  usersOfPseudonyms(instanceId: string, pseudonyms: string[]): Promise<Map<string, string>>
  /** Every stored key, page by page, with what a conditional write needs. */
  scan(): AsyncIterable<{ subjectId: string; key: StoredDataKey; seqNo: number; primaryTerm: number }>
  /** Replaces a key if it is still the one scanned; false when it changed meanwhile. */
  replace(subjectId: string, key: StoredDataKey, seqNo: number, primaryTerm: number): Promise<boolean>
}

const statusOf = (error: unknown) => (error as { meta?: { statusCode?: number } }).meta?.statusCode

const isMissingDocument = (error: unknown) =>
  statusOf(error) === 404 && (error as { meta?: { body?: { found?: boolean } } }).meta?.body?.found === false

/**
 * Data keys in Elasticsearch (`mem-data-keys-v1`), one document per subject. It is not a projection: nothing in the
 * log can rebuild it, a rebuild never touches it, and losing it loses every sealed record (back it up with the
 * cluster's snapshots). Reads are realtime gets, so a key created by one process is found by every other at once;
 * `op_type=create` makes the first of two processes creating a subject's key the winner. Destroying a key deletes the
 * document (no API returns it from then on), then asks for deleted documents to be expunged from the index's files
 * (expunge_deletes_allowed 0) and flushes. Elasticsearch keeps a deleted document in its segments while a retention
 * lease covers it (for peer recovery, advanced in the background within minutes), so the expunge reaches a key at
 * the latest with the next destruction after that: docs/security.md says what this leaves.
 */
export function createDataKeyStore(client: Client, index = DATA_KEYS_INDEX): DataKeyStore {
  return {
    async get(subjectId) {
      try {
        const found = await client.get<StoredDataKey>({ index, id: subjectId })
        return found._source
      } catch (error) {
        // Only a document that is not there means no key: a missing index (a node recovering) is an outage, and
        // reading it as "no key" would make a user's records look erased.
        if (isMissingDocument(error)) return undefined
        throw error
      }
    },
    async createIfAbsent(subjectId, key) {
      try {
        await client.create({ index, id: subjectId, document: key })
        return key
      } catch (error) {
        if (statusOf(error) !== 409) throw error
        const winner = await this.get(subjectId)
        if (!winner)
          throw new Error(`data key ${subjectId} was created and removed at once`, { cause: error })
        return winner
      }
    },
    async destroy(subjectId) {
      const deleted = await client.delete({ index, id: subjectId }).then(
        () => true,
        (error: unknown) => {
          if (statusOf(error) === 404) return false
          throw error
        },
      )
      if (deleted) {
        await client.indices.refresh({ index })
        await client.indices.forcemerge({ index, only_expunge_deletes: true })
        await client.indices.flush({ index })
      }
      return deleted
    },
    async usersOfPseudonyms(instanceId, pseudonyms) {
      if (pseudonyms.length === 0) return new Map()
      const found = await client.search<StoredDataKey>({
        index,
        size: pseudonyms.length,
        _source: ['pseudonym', 'user_id'],
        query: {
          bool: { filter: [{ term: { instance_id: instanceId } }, { terms: { pseudonym: pseudonyms } }] },
        },
      })
      return new Map(
        found.hits.hits.flatMap((hit) => (hit._source ? [[hit._source.pseudonym, hit._source.user_id]] : [])),
      )
    },
    async *scan() {
      // A search sees what a refresh made visible: keys created a moment ago must be rewrapped too.
      await client.indices.refresh({ index })
      let after: (string | number)[] | undefined
      for (;;) {
        const page = await client.search<StoredDataKey>({
          index,
          size: 500,
          sort: [{ subject_id: 'asc' }],
          seq_no_primary_term: true,
          query: { match_all: {} },
          ...(after ? { search_after: after } : {}),
        })
        const hits = page.hits.hits
        if (hits.length === 0) return
        for (const hit of hits) {
          if (hit._source)
            yield {
              subjectId: hit._source.subject_id,
              key: hit._source,
              seqNo: hit._seq_no ?? 0,
              primaryTerm: hit._primary_term ?? 0,
            }
        }
        after = hits[hits.length - 1]?.sort as (string | number)[] | undefined
      }
    },
    async replace(subjectId, key, seqNo, primaryTerm) {
      try {
        await client.index({
          index,
          id: subjectId,
          document: key,
          if_seq_no: seqNo,
          if_primary_term: primaryTerm,
        })
        return true
      } catch (error) {
        if (statusOf(error) === 409) return false
        throw error
      }
    },
  }
}
