import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importedRecordOf, recordsOf, type ImportFormat } from './memoryImport.js'

const sample = (name: string): unknown => {
  const text = readFileSync(
    fileURLToPath(new URL(`../../../../test/fixtures/import/${name}`, import.meta.url)),
    'utf8',
  )
  return name.endsWith('.jsonl')
    ? text
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as unknown)
    : (JSON.parse(text) as unknown)
}

function importAll(format: ImportFormat, name: string, defaults = {}) {
  const taken = recordsOf(sample(name))
  if (!('records' in taken)) throw new Error(JSON.stringify(taken.fields))
  return taken.records.map((record, index) => importedRecordOf(format, record, index, defaults))
}

const documentOf = (outcome: ReturnType<typeof importedRecordOf>) => {
  if (!('document' in outcome)) throw new Error(`not imported: ${JSON.stringify(outcome)}`)
  return outcome.document
}

describe('memory import: mem0', () => {
  it('takes a get_all page: text, user, dates in UTC, the source fields kept, replaced memories ended', () => {
    // Read on the trip's second day: its memory expires after its expiration date, which counts in full.
    const outcomes = importAll('mem0', 'mem0-platform-v3-list.json', {
      now: () => new Date('2024-07-02T08:00:00Z'),
    })
    expect(outcomes).toHaveLength(4)
    const [trip, vegetarian, moved, livedInNewYork] = outcomes.map(documentOf)
    expect(trip).toMatchObject({
      document: 'Alex is planning a trip to San Francisco from July 1st to July 10th',
      document_id: 'import:mem0:f4cbdb08-7062-4f3e-8eb2-9f5c80dfe64c',
      user_id: 'alex',
      document_created_at: '2024-07-01T12:00:00.000Z',
      metadata: { mem0: { categories: ['travel'] } },
      expires_at: '2024-07-12T00:00:00.000Z',
      imported: { format: 'mem0', external_id: 'f4cbdb08-7062-4f3e-8eb2-9f5c80dfe64c' },
    })
    expect(trip?.imported.valid_to).toBeUndefined()
    expect(vegetarian?.expires_at).toBeUndefined()
    // user_preferences is mem0's preference category; its own metadata is kept beside the source's fields.
    expect(vegetarian?.imported.type).toBe('preference')
    expect(vegetarian?.metadata).toMatchObject({
      source: 'chat',
      mem0: { categories: ['food', 'user_preferences'] },
    })
    expect(moved?.metadata).toMatchObject({ mem0: { agent_id: 'travel-bot', session_id: 'run-42' } })
    expect(livedInNewYork?.imported).toMatchObject({
      valid_to: '2026-01-15T10:30:00.000Z',
      created_at: '2025-03-02T08:00:00.000Z',
    })
  })

  it('takes the open-source get_all with offsets and microseconds, and a memory export with `content`', () => {
    const oss = importAll('mem0', 'mem0-oss-get-all.json', {
      now: () => new Date('2025-03-02T00:00:00Z'),
    }).map(documentOf)
    expect(oss.map((document) => document.imported.created_at)).toEqual([
      '2025-02-27T16:33:20.557Z',
      '2025-02-27T16:33:20.560Z',
      '2025-03-01T09:12:00.000Z',
    ])
    expect(oss[2]?.metadata).toMatchObject({
      mem0: { run_id: 'sess-7', role: 'user', hash: expect.any(String) },
    })
    const exported = importAll('mem0', 'mem0-memory-export.json').map(documentOf)
    expect(exported.map((document) => document.document)).toEqual([
      'Alex is planning a trip to San Francisco from July 1st to July 10th',
      'Alex prefers vegetarian restaurants',
      'Alex works at TechCorp as a senior engineer',
    ])
    expect(exported[1]?.imported.type).toBe('preference')
  })

  it('skips a memory whose expiration date has passed, and refuses one that is not a date', () => {
    const outcomes = importAll('mem0', 'mem0-platform-v3-list.json', {
      now: () => new Date('2024-07-12T00:00:00Z'),
    })
    expect(outcomes[0]).toEqual({
      externalId: 'f4cbdb08-7062-4f3e-8eb2-9f5c80dfe64c',
      skipped: 'expired in the source (2024-07-12T00:00:00.000Z)',
    })
    expect(outcomes.slice(1).every((outcome) => 'document' in outcome)).toBe(true)
    const bad = importedRecordOf('mem0', { id: 'm-1', memory: 'Likes tea', expiration_date: 'soon' }, 7)
    expect(bad).toEqual({ fields: { 'records.7.expiration_date': expect.stringMatching(/date/) } })
    const ours = importedRecordOf(
      'memory-service',
      { id: 'n-1', content: 'Trial ends Friday', expires_at: '2030-01-31T18:00:00+01:00' },
      0,
    )
    expect('document' in ours && ours.document.expires_at).toBe('2030-01-31T17:00:00.000Z')
  })

  it('skips what an OpenMemory backup marks deleted and ends what it archived', () => {
    const lines = sample('openmemory-backup.jsonl') as Record<string, unknown>[]
    const deleted = { ...lines[0], id: 'gone-1', state: 'deleted' }
    const outcomes = [...lines, deleted].map((line, index) =>
      importedRecordOf('mem0', line, index, { userId: 'u-1' }),
    )
    expect(outcomes[3]).toEqual({ externalId: 'gone-1', skipped: 'deleted in the source (state: deleted)' })
    const archived = documentOf(outcomes[2] as never)
    expect(archived.imported.valid_to).toBe('2025-08-05T08:00:00.000Z')
    expect(archived.user_id).toBe('u-1')
    expect(documentOf(outcomes[0] as never).metadata).toMatchObject({
      mem0: { app: 'cursor', state: 'active' },
    })
  })
})

describe('memory import: Zep', () => {
  it('takes a user graph’s edges with their validity, and leaves its nodes and threads', () => {
    const outcomes = importAll('zep', 'zep-v3-user-graph.json', { userId: 'kendra' })
    expect(outcomes).toHaveLength(3)
    const [loves, likes, marathon] = outcomes.map(documentOf)
    expect(loves).toMatchObject({
      document: 'Kendra loves Adidas shoes',
      user_id: 'kendra',
      document_id: 'import:zep:e1a0c3f2-1111-4b6a-9d1e-000000000001',
      imported: {
        format: 'zep',
        valid_from: '2025-05-01T09:00:00.000Z',
        valid_to: '2025-06-10T18:20:00.000Z',
        created_at: '2025-05-01T09:00:05.000Z',
      },
      metadata: { zep: { name: 'LOVES', source_node_uuid: 'n-kendra', episodes: ['ep-001'] } },
    })
    expect(likes?.imported.valid_to).toBeUndefined()
    expect(marathon?.imported.valid_from).toBe('2026-04-20T00:00:00.000Z')
  })

  it('takes a v2 session memory’s facts and its messages as episodes, and Graphiti’s group as the user', () => {
    const session = importAll('zep', 'zep-v2-session-memory.json', { userId: 'kendra' }).map(documentOf)
    expect(session.map((document) => [document.document, document.imported.type ?? null])).toEqual([
      ['Kendra likes Puma shoes', null],
      ['Kendra loves Adidas shoes', null],
      ["My Adidas shoes broke after two weeks, I'm so annoyed!", 'episode'],
      ['Sorry to hear that! Want to look at Puma?', 'episode'],
    ])
    expect(session[2]?.metadata).toMatchObject({ zep: { role_type: 'user', role: 'Kendra' } })
    const graphiti = importAll('zep', 'graphiti-entity-edges.jsonl').map(documentOf)
    expect(graphiti.map((document) => document.user_id)).toEqual(['kendra', 'kendra', 'kendra'])
    // An edge expired without an invalid_at ends when Zep expired it; one with neither holds from its creation.
    expect(graphiti[1]?.imported.valid_to).toBe('2025-06-10T18:20:00.000Z')
    expect(graphiti[2]?.imported).not.toHaveProperty('valid_from')
  })
})

describe('memory import: our format and refusals', () => {
  it('keeps type, confidence, validity, metadata and a vector; an id that is no document id is digested', () => {
    const document = documentOf(
      importedRecordOf(
        'memory-service',
        {
          id: 'crm note #8812',
          content: 'Prefers invoices in EUR',
          type: 'preference',
          confidence: 0.7,
          user_id: 'user_42',
          customer_id: 'acme',
          created_at: '2025-03-04T09:30:00+01:00',
          valid_from: '2025-03-01',
          valid_to: '2025-12-31T00:00:00Z',
          metadata: { source: 'crm' },
          embedding: { model: 'all-MiniLM-L6-v2', vector: [0.1, 0.2] },
        },
        0,
      ),
    )
    expect(document.document_id).toMatch(/^import:memory-service:sha256:[0-9a-f]{64}$/)
    expect(document).toMatchObject({
      user_id: 'user_42',
      customer_id: 'acme',
      metadata: { source: 'crm' },
      imported: {
        external_id: 'crm note #8812',
        type: 'preference',
        confidence: 0.7,
        created_at: '2025-03-04T08:30:00.000Z',
        valid_from: '2025-03-01T00:00:00.000Z',
        valid_to: '2025-12-31T00:00:00.000Z',
        embedding: { model: 'all-MiniLM-L6-v2', vector: [0.1, 0.2] },
      },
    })
  })

  it('stores a record that ended, with no start of its own, as valid at no moment', () => {
    const now = () => new Date('2026-11-29T12:00:00Z')
    const ended = documentOf(
      importedRecordOf(
        'memory-service',
        { id: 'e', content: 'Worked at Globex', valid_to: '2025-06-30' },
        0,
        {
          now,
        },
      ),
    )
    expect(ended.imported).toMatchObject({
      valid_from: '2025-06-30T00:00:00.000Z',
      valid_to: '2025-06-30T00:00:00.000Z',
    })
    // Zep recorded the fact after it ended (created_at after invalid_at, no valid_at).
    const late = documentOf(
      importedRecordOf(
        'zep',
        {
          uuid: 'z',
          fact: 'Kendra lived in Austin',
          created_at: '2025-07-01T00:00:00Z',
          invalid_at: '2025-06-01',
        },
        0,
        { now },
      ),
    )
    expect(late.imported.valid_from).toBe('2025-06-01T00:00:00.000Z')
    // One that ends after its creation starts at its creation, as every memory does.
    const current = documentOf(
      importedRecordOf('memory-service', { id: 'c', content: 'Lives in Porto', valid_to: '2027-01-01' }, 0, {
        now,
      }),
    )
    expect(current.imported).not.toHaveProperty('valid_from')
  })

  it('reports each problem under the record’s own key', () => {
    expect(importedRecordOf('mem0', { memory: 'no id' }, 3)).toEqual({
      fields: { 'records.3.id': expect.stringMatching(/required/) },
    })
    expect(importedRecordOf('zep', { uuid: 'e-1', fact: '', valid_at: 'yesterday' }, 0)).toEqual({
      fields: { 'records.0.fact': expect.any(String), 'records.0.valid_at': expect.stringMatching(/date/) },
    })
    const refused = importedRecordOf(
      'memory-service',
      {
        id: 'x',
        content: 'c'.repeat(20_001),
        type: 'opinion',
        confidence: 2,
        valid_from: '2025-02-01',
        valid_to: '2025-01-01',
        metadata: [],
        embedding: { model: 'm', vector: ['a'] },
      },
      1,
    )
    expect(Object.keys('fields' in refused ? refused.fields : {}).sort()).toEqual([
      'records.1.confidence',
      'records.1.content',
      'records.1.embedding',
      'records.1.metadata',
      'records.1.type',
      'records.1.valid_to',
    ])
    expect(importedRecordOf('memory-service', { id: 'x', content: 'c', user_id: 'a\u0001' }, 2)).toEqual({
      fields: { 'records.2.user_id': expect.any(String) },
    })
    expect(importedRecordOf('memory-service', 'text', 4)).toEqual({
      fields: { 'records.4': 'must be an object' },
    })
    expect(recordsOf({ count: 0 })).toEqual({ fields: { body: expect.stringMatching(/records, results/) } })
    expect(recordsOf({ results: {} })).toEqual({ fields: { results: 'must be a list of records' } })
    expect(recordsOf(7)).toHaveProperty('fields')
  })

  it('answers any JSON value as a record or as field-level messages, never a throw', () => {
    const values: unknown[] = [
      null,
      0,
      'x',
      [],
      {},
      { id: 1, content: 2 },
      { uuid: {}, fact: [] },
      { id: 'a', content: 'b', created_at: 5 },
    ]
    for (const format of ['memory-service', 'mem0', 'zep'] as const)
      for (const [index, value] of values.entries()) {
        const outcome = importedRecordOf(format, value, index)
        expect('document' in outcome || 'fields' in outcome || 'skipped' in outcome).toBe(true)
      }
  })
})
