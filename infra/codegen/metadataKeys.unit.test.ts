import { describe, expect, it } from 'vitest'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { loadContractSchemas } from './examples.js'

/**
 * Metadata keys reach Elasticsearch's flattened fields, which refuse a NUL in a key: such a key, accepted, would stop
 * the projection at that record. Every body that carries metadata refuses control characters in its keys.
 */
describe('metadata keys in request bodies', () => {
  const schemas = loadContractSchemas()
  const ajv = new Ajv({ allErrors: true, strict: false })
  addFormats.default(ajv)
  for (const { schema } of schemas) ajv.addSchema(schema)
  const bodies: [string, Record<string, unknown>][] = [
    ['Document.schema.json', { document: 'Ana lives in Porto.', document_type: 'note', mode: 'fast' }],
    ['MemoryUpdateRequest.schema.json', {}],
    [
      'ConversationEvent.schema.json',
      { event_type: 'user_message', conversation_id: 'c', user_id: 'u', content: 'hi' },
    ],
  ]

  it.each(bodies)('%s takes ordinary keys and refuses a control character or an empty key', (id, body) => {
    const validate = ajv.getSchema(id)
    if (!validate) throw new Error(`no schema ${id}`)
    expect(
      validate({ ...body, metadata: { source: 'crm', 'Zoë.team': 1 } }),
      JSON.stringify(validate.errors),
    ).toBe(true)
    for (const key of ['\u0000', 'tab\there', '']) {
      expect(validate({ ...body, metadata: { [key]: 1 } }), JSON.stringify(key)).toBe(false)
    }
  })
})
