import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { externalIdPattern, externalIdSchemaPattern, storeIdOf } from './externalIds.js'

const real = [
  '😀'.repeat(200),
  'auth0|123',
  'a+b@x.com',
  'team/42',
  'Zoë Ünal',
  '用户-7',
  'x'.repeat(200),
  'with space',
]
const refused = ['', 'tab\there', 'line\nbreak', 'nul\u0000', 'del\u007f', 'c1\u0085', 'x'.repeat(201)]

describe('external ids', () => {
  it('take any text of 1 to 200 characters without control characters', () => {
    for (const id of real) expect(externalIdPattern.test(id), id).toBe(true)
    for (const id of refused) expect(externalIdPattern.test(id), JSON.stringify(id)).toBe(false)
  })

  it('follow the same rule in JSON Schema (with its maxLength) as in code', () => {
    const validate = new Ajv().compile({
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: externalIdSchemaPattern,
    })
    for (const id of [...real, ...refused])
      expect(validate(id), JSON.stringify(id)).toBe(externalIdPattern.test(id))
  })

  it('become store ids that stay readable, and within 512 bytes when they would not', () => {
    expect(storeIdOf('inst_1', 'team/42')).toBe('inst_1:team/42')
    const long = '😀'.repeat(200)
    const id = storeIdOf('inst_1', long)
    expect(Buffer.byteLength(id)).toBeLessThanOrEqual(512)
    expect(id).toMatch(/^inst_1:sha256:[0-9a-f]{64}$/)
    expect(storeIdOf('inst_1', long)).toBe(id)
    expect(storeIdOf('inst_1', `${long}!`)).not.toBe(id)
  })
})
