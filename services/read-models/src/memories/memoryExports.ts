import type { Client } from '@elastic/elasticsearch'
import type { Memory, MemoryHistory as MemoryHistoryResponse } from '@memory-service/contracts'
import { MEMORY_EXPORTS_INDEX, publicMemoryOf, type MemoryFilter } from '@memory-service/domain'
import { deleteMatchingDocuments } from '@memory-service/engines'
import type { MemoryHistory, MemoryHistoryEntry } from './memoryHistory.js'
import { parquetFileLimit, parquetFileOf } from './memoryExportParquet.js'
import { memoryStateOf, type MemoryStore, type StoredMemory } from './memoryStore.js'

/** An export as stored: what it takes and when it was taken; its lines are read from the memories when downloaded. */
export interface MemoryExportRecord {
  export_id: string
  instance_id: string
  user_id?: string
  customer_id?: string
  /** The request's filter as given (kept to answer the export as it was asked for). */
  filters?: Record<string, unknown>
  include_history: boolean
  format: 'jsonl' | 'parquet'
  as_of: string
  created_at: string
  matched: number
}

/** One line of an export: the memory as the API answers it, its user and customer again at the top (the import reads them there), and its changes. */
export type MemoryExportLine = Memory & {
  user_id: string | null
  customer_id: string | null
  history?: MemoryHistoryResponse['changes']
}

/** A memory's history rows as GET /v1/memories/{memory_id}/history answers them. */
export const historyChangesOf = (entries: MemoryHistoryEntry[]): MemoryHistoryResponse['changes'] =>
  entries.map((entry) => ({
    version: entry.version,
    change: entry.change,
    changed_at: entry.changed_at,
    cause: entry.cause,
    correlation_id: entry.correlation_id,
    content: entry.content,
    valid_from: entry.valid_from,
    valid_to: entry.valid_to,
    superseded_by: entry.superseded_by,
    // Rows written before expiry and feedback existed hold neither.
    expires_at: entry.expires_at ?? null,
    feedback: entry.feedback ?? null,
  }))

/** A memory as its export line (without the newline); its history when the export takes histories. */
export function exportLineOf(stored: StoredMemory, history?: MemoryHistoryEntry[]): MemoryExportLine {
  const memory = publicMemoryOf(memoryStateOf(stored))
  return {
    ...memory,
    user_id: memory.scope.user_id,
    customer_id: memory.scope.customer_id,
    ...(history ? { history: historyChangesOf(history) } : {}),
  }
}

export interface MemoryExports {
  save(record: MemoryExportRecord): Promise<void>
  /** The instance's export, or null (another instance's is not found either). */
  get(instanceId: string, exportId: string): Promise<MemoryExportRecord | null>
  /**
   * The export's lines after the memory id `after`, in id order, read a page at a time (each line ends with a
   * newline): a download cut anywhere resumes from the last complete line's id.
   */
  lines(record: MemoryExportRecord, filter: MemoryFilter | null, after?: string): AsyncGenerator<string>
  /** The same memories as lines, one page of objects at a time (what a Parquet file is built from). */
  pages(
    record: MemoryExportRecord,
    filter: MemoryFilter | null,
    after?: string,
  ): AsyncGenerator<MemoryExportLine[]>
  /**
   * One Parquet file of the export: up to `limit` memories after `after`, and the `after` of the next file (null
   * after the last). A Parquet file is whole or nothing (its footer comes last), so a large export is several files.
   */
  parquetFile(
    record: MemoryExportRecord,
    filter: MemoryFilter | null,
    after?: string,
    limit?: number,
  ): Promise<{ file: Uint8Array; nextAfter: string | null }>
  /** A user's exports go with the user (they name the user and how their memories were chosen). */
  eraseUser(instanceId: string, userId: string): Promise<number>
}

export function createMemoryExports(
  client: Client,
  deps: { store: MemoryStore; history: MemoryHistory; pageSize?: number },
  index: string = MEMORY_EXPORTS_INDEX,
): MemoryExports {
  const pageSize = deps.pageSize ?? 500
  async function* pages(
    record: MemoryExportRecord,
    filter: MemoryFilter | null,
    after?: string,
  ): AsyncGenerator<MemoryExportLine[]> {
    let cursor = after
    for (;;) {
      const page = await deps.store.inIdOrder(
        record.instance_id,
        {
          ...(record.user_id !== undefined ? { user_id: record.user_id } : {}),
          ...(record.customer_id !== undefined ? { customer_id: record.customer_id } : {}),
          filter,
          createdUpTo: record.as_of,
        },
        cursor,
        pageSize,
      )
      const histories = record.include_history
        ? await deps.history.ofMany(
            record.instance_id,
            page.map((memory) => memory.id),
          )
        : undefined
      yield page.map((stored) =>
        exportLineOf(stored, histories ? (histories.get(stored.id) ?? []) : undefined),
      )
      if (page.length < pageSize) return
      cursor = page[page.length - 1]?.id
    }
  }

  return {
    async save(record) {
      await client.index({ index, id: record.export_id, document: record, refresh: 'wait_for' })
    },
    async get(instanceId, exportId) {
      const response = await client.get<MemoryExportRecord>({ index, id: exportId }, { ignore: [404] })
      const record = response.found ? response._source : undefined
      return record?.instance_id === instanceId ? record : null
    },
    async *lines(record, filter, after) {
      for await (const page of pages(record, filter, after))
        for (const line of page) yield `${JSON.stringify(line)}\n`
    },
    pages,
    async parquetFile(record, filter, after, limit = parquetFileLimit) {
      const taken: MemoryExportLine[] = []
      for await (const page of pages(record, filter, after)) {
        taken.push(...page)
        // One memory past the file says whether another file follows.
        if (taken.length > limit) break
      }
      const file = taken.slice(0, limit)
      const nextAfter = taken.length > limit ? (file.at(-1)?.id ?? null) : null
      return { file: parquetFileOf(file, record.include_history), nextAfter }
    },
    eraseUser: (instanceId, userId) =>
      deleteMatchingDocuments(client, index, [
        { term: { instance_id: instanceId } },
        { term: { user_id: userId } },
      ]),
  }
}
