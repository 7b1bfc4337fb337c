import { describe, expect, it } from 'vitest'
import type { MemoryChanged } from '@memory-service/contracts'
import { importedRecordOf, memoryDocumentOf } from '@memory-service/domain'
import { parquetReadObjects } from 'hyparquet'
import type { Client } from '@elastic/elasticsearch'
import { createMemoryExports, exportLineOf, type MemoryExportRecord } from './memoryExports.js'
import { parquetFileOf } from './memoryExportParquet.js'
import type { MemoryHistory, MemoryHistoryEntry } from './memoryHistory.js'
import type { MemoryStore, StoredMemory } from './memoryStore.js'

const change: MemoryChanged = {
  type: 'memory_changed',
  change: 'created',
  event_id: 'evt-1',
  memory_id: 'mem_0123456789abcdef01234567',
  instance_id: 'inst_0123456789abcdef',
  version: 1,
  changed_at: '2025-03-04T09:30:00.000Z',
  memory: {
    id: 'mem_0123456789abcdef01234567',
    instance_id: 'inst_0123456789abcdef',
    type: 'preference',
    content: 'Prefers invoices in EUR',
    confidence: 0.7,
    entities: [{ entity_id: 'ent_eur', canonical_name: 'EUR', type: 'other', aliases: [] }],
    relations: [],
    scope: { user_id: 'user_42', customer_id: 'acme', client_id: 'client_a' },
    source: { ingestion_id: 'ing_1', document_type: 'note', document_created_at: '2025-03-04T09:30:00.000Z' },
    metadata: { source: 'crm', price: 12.5 },
    created_at: '2025-03-04T09:30:00.000Z',
    updated_at: null,
    occurred_on: null,
    speaker: null,
    mode: 'fast',
    valid_from: '2025-03-01T00:00:00.000Z',
    valid_to: '2025-12-31T00:00:00.000Z',
    superseded_by: null,
    expires_at: '2027-01-01T00:00:00.000Z',
    feedback: { rating: 'positive', reason: 'Accurate', given_at: '2025-04-02T08:00:00.000Z' },
    embedding: { model: 'test-model', vector: [1, 0] },
  },
}

const created: MemoryHistoryEntry = {
  instance_id: change.instance_id,
  memory_id: change.memory_id,
  version: 1,
  change: 'created',
  changed_at: change.changed_at,
  event_id: 'evt-1',
  correlation_id: 'corr-1',
  cause: { kind: 'ingestion', ingestion_id: 'ing_1' },
  user_id: 'user_42',
  customer_id: 'acme',
  content: 'Prefers invoices in EUR',
  valid_from: '2025-03-01T00:00:00.000Z',
  valid_to: null,
  superseded_by: null,
}

describe('memory export lines', () => {
  it('carry the memory as the API answers it, its scope at the top, its history, and none of the index’s fields', () => {
    const { content_terms: _terms, ...stored } = memoryDocumentOf(change)
    const line = exportLineOf(stored, [created])
    expect(line).toMatchObject({
      id: change.memory_id,
      user_id: 'user_42',
      customer_id: 'acme',
      entities: [{ entity_id: 'ent_eur', canonical_name: 'EUR', type: 'other' }],
      valid_to: '2025-12-31T00:00:00.000Z',
      history: [{ version: 1, change: 'created', correlation_id: 'corr-1' }],
    })
    for (const internal of ['embedding', 'entity_names', 'metadata_values', 'version', 'instance_id'])
      expect(line).not.toHaveProperty(internal)
    expect(exportLineOf(stored)).not.toHaveProperty('history')
  })

  it('import back as they are: the same text, type, confidence, scope, dates, validity and metadata', () => {
    const { content_terms: _terms, ...stored } = memoryDocumentOf(change)
    const line = JSON.parse(JSON.stringify(exportLineOf(stored, [created]))) as unknown
    const imported = importedRecordOf('memory-service', line, 0)
    if (!('document' in imported)) throw new Error(JSON.stringify(imported))
    expect(imported.document).toMatchObject({
      document: 'Prefers invoices in EUR',
      user_id: 'user_42',
      customer_id: 'acme',
      metadata: { source: 'crm', price: 12.5 },
      document_id: `import:memory-service:${change.memory_id}`,
      imported: {
        type: 'preference',
        confidence: 0.7,
        created_at: '2025-03-04T09:30:00.000Z',
        valid_from: '2025-03-01T00:00:00.000Z',
        valid_to: '2025-12-31T00:00:00.000Z',
        feedback: { rating: 'positive', reason: 'Accurate', given_at: '2025-04-02T08:00:00.000Z' },
      },
      expires_at: '2027-01-01T00:00:00.000Z',
    })
  })
})

describe('memory export as Parquet', () => {
  const { content_terms: _terms, ...stored } = memoryDocumentOf(change)

  it('writes a row per memory, scalars as columns and the nested fields as JSON, and reads back as written', async () => {
    const line = exportLineOf(stored, [created])
    const other = exportLineOf({
      ...stored,
      id: 'mem_89abcdef0123456789abcdef',
      feedback: null,
      expires_at: null,
    })
    const file = parquetFileOf([line, other], true)
    const rows = await parquetReadObjects({ file: file.buffer as ArrayBuffer })
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatchObject({
      id: change.memory_id,
      type: 'preference',
      content: 'Prefers invoices in EUR',
      confidence: 0.7,
      user_id: 'user_42',
      customer_id: 'acme',
      ingestion_id: 'ing_1',
      valid_from: new Date('2025-03-01T00:00:00.000Z'),
      valid_to: new Date('2025-12-31T00:00:00.000Z'),
      expires_at: new Date('2027-01-01T00:00:00.000Z'),
      feedback_rating: 'positive',
      feedback_reason: 'Accurate',
      entities: [{ entity_id: 'ent_eur', canonical_name: 'EUR', type: 'other' }],
      metadata: { source: 'crm', price: 12.5 },
      history: [expect.objectContaining({ version: 1, change: 'created', correlation_id: 'corr-1' })],
    })
    expect(rows[1]).toMatchObject({ updated_at: null, expires_at: null, feedback_rating: null })
    // Without histories the export's files have no history column.
    const bare = await parquetReadObjects({ file: parquetFileOf([line], false).buffer as ArrayBuffer })
    expect(Object.keys(bare[0] ?? {})).not.toContain('history')
  })

  it('comes in files of at most the limit, each naming the after of the next, the last none', async () => {
    const ids = Array.from({ length: 7 }, (_, index) => `mem_${String(index).padStart(24, '0')}`)
    const store = {
      inIdOrder: async (_instance: string, _query: unknown, after: string | undefined, size: number) =>
        ids
          .filter((id) => after === undefined || id > after)
          .slice(0, size)
          .map((id): StoredMemory => ({ ...stored, id })),
    } as unknown as MemoryStore
    const exports = createMemoryExports({} as Client, {
      store,
      history: {} as MemoryHistory,
      pageSize: 2,
    })
    const record: MemoryExportRecord = {
      export_id: 'exp_1',
      instance_id: change.instance_id,
      include_history: false,
      format: 'parquet',
      as_of: '2026-01-01T00:00:00.000Z',
      created_at: '2026-01-01T00:00:00.000Z',
      matched: 7,
    }
    const files: string[][] = []
    let after: string | undefined
    for (;;) {
      const { file, nextAfter } = await exports.parquetFile(record, null, after, 3)
      files.push(
        (await parquetReadObjects({ file: file.buffer as ArrayBuffer })).map((row) => String(row.id)),
      )
      if (nextAfter === null) break
      after = nextAfter
    }
    expect(files).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)])
  })
})
