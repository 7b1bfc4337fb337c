import { describe, expect, it } from 'vitest'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { collectSchemaExamples, loadContractSchemas } from './examples.js'

/**
 * Every `examples` value in the contract schemas (the REST bodies, which the OpenAPI document and a generated client
 * show, and any other schema that has some) is valid against the (sub)schema it illustrates, as the gateway's
 * validator reads it.
 */
describe('schema examples', () => {
  const schemas = loadContractSchemas()
  const ajv = new Ajv({ allErrors: true, strict: false })
  addFormats.default(ajv)
  for (const { schema } of schemas) ajv.addSchema(schema)
  const examples = collectSchemaExamples(schemas)

  it('are there to check', () => {
    expect(examples.length).toBeGreaterThan(0)
  })

  it.each(examples.map((example) => [example.label, example] as const))('%s is valid', (_label, example) => {
    const validate = ajv.getSchema(example.ref)
    if (!validate) throw new Error(`no schema at ${example.ref}`)
    const valid = validate(example.value)
    expect({ valid, errors: validate.errors ?? [] }).toEqual({ valid: true, errors: [] })
  })
})
