import { describe, expect, it } from 'vitest'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { isStorableDateTime, useStorableDateTimes } from './timestamps.js'

// Each case was indexed into an Elasticsearch 9.5 `date` field: the first list was taken, the second refused with
// document_parsing_exception although ajv-formats' RFC 3339 check accepts every one of them.
const taken = [
  '2026-11-20T10:00:00Z',
  '2026-11-20T10:00:00+0100',
  '2026-11-20T10:00:00+18:00',
  '2026-11-20T10:00:00-18:00',
  '0000-01-01T00:00:00Z',
  '2026-11-20T10:00:00.123456789Z',
  '2024-02-29T10:00:00Z',
]
const refusedByElasticsearch = [
  '2026-11-20t10:00:00z',
  '2026-11-20 10:00:00Z',
  '2026-11-20T10:00:00+18:01',
  '0062-06-03T02:48:12+23:41',
  '2026-11-20T23:59:60Z',
  '2026-11-20T10:00:00.1234567891Z',
]

describe('storable date-times', () => {
  it('takes what Elasticsearch takes', () => {
    for (const text of taken) expect(isStorableDateTime(text), text).toBe(true)
  })

  it('refuses what RFC 3339 allows but Elasticsearch refuses, and what is not a date-time at all', () => {
    for (const text of refusedByElasticsearch) expect(isStorableDateTime(text), text).toBe(false)
    for (const text of ['2026-02-29T10:00:00Z', '2026-11-20T10:00:00', '2026-11-20', 'yesterday', ''])
      expect(isStorableDateTime(text), text).toBe(false)
  })

  it('replaces format date-time in a validator', () => {
    const ajv = useStorableDateTimes(addFormats.default(new Ajv()))
    const validate = ajv.compile({ type: 'string', format: 'date-time' })
    expect(validate('2026-11-20T10:00:00Z')).toBe(true)
    expect(validate('0062-06-03T02:48:12+23:41')).toBe(false)
  })
})
