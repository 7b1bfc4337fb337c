import { describe, expect, it } from 'vitest'
import type { MemoryChanged } from '@memory-service/contracts'
import { importedRecordOf, memoryDocumentOf } from '@memory-service/domain'
import { exportLineOf } from './memoryExports.js'
import type { MemoryHistoryEntry } from './memoryHistory.js'

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
      },
    })
  })
})
