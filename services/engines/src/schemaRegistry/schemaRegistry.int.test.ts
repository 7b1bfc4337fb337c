import { describe, expect, it } from 'vitest'
import { testConfig, uniqueName } from '../../../../test/support/testEngines.js'
import { createSchemaCodec, SchemaValidationError } from './createSchemaCodec.js'

const config = testConfig()

function documentSchema(extraProperty?: string, required: string[] = []) {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'TestDocumentAccepted',
    type: 'object',
    additionalProperties: false,
    required: ['document_id', 'mode', ...required],
    properties: {
      document_id: { type: 'string', minLength: 1 },
      mode: { enum: ['fast', 'long-range'] },
      ...(extraProperty ? { [extraProperty]: { type: 'string' } } : {}),
    },
  }
}

describe('schema codec against the registry', () => {
  it('registers a schema once: the same content under the same subject keeps its id', async () => {
    const subject = `${uniqueName('mem.test-docs.v1')}-value`
    const codec = createSchemaCodec(config.schemaRegistry.url)
    const first = await codec.register([{ subject, schema: documentSchema() }])
    const again = await createSchemaCodec(config.schemaRegistry.url).register([
      { subject, schema: documentSchema() },
    ])
    expect(again.get(subject)).toBe(first.get(subject))
    expect(await codec.listSubjects()).toContain(subject)
  })

  it('registers new subjects from processes starting together (one creates the subject while another reads it)', async () => {
    // Each codec stands for a process of a cluster starting on a new namespace: same subjects, same moment.
    const subjects = Array.from({ length: 12 }, () => `${uniqueName('mem.test-race.v1')}-value`)
    const codecs = Array.from({ length: 6 }, () => createSchemaCodec(config.schemaRegistry.url))
    const results = await Promise.all(
      codecs.map((codec) =>
        codec.register(subjects.map((subject) => ({ subject, schema: documentSchema() }))),
      ),
    )
    for (const subject of subjects)
      expect(new Set(results.map((ids) => ids.get(subject))).size, subject).toBe(1)
  })

  it('frames payloads in the Confluent wire format and decodes them in another process-like codec', async () => {
    const subject = `${uniqueName('mem.test-docs.v1')}-value`
    const writer = createSchemaCodec(config.schemaRegistry.url)
    const ids = await writer.register([{ subject, schema: documentSchema() }])
    const encoded = await writer.encode(subject, { document_id: 'doc-1', mode: 'fast' })
    expect(encoded.readUInt8(0)).toBe(0)
    expect(encoded.readUInt32BE(1)).toBe(ids.get(subject))
    expect(JSON.parse(encoded.subarray(5).toString('utf8'))).toEqual({ document_id: 'doc-1', mode: 'fast' })
    // A reader that registered nothing fetches the writer's schema by id.
    const reader = createSchemaCodec(config.schemaRegistry.url)
    expect(await reader.decode(encoded)).toEqual({ document_id: 'doc-1', mode: 'fast' })
  })

  it('accepts a backward-compatible version with a new id and still decodes messages written with the old one', async () => {
    const subject = `${uniqueName('mem.test-docs.v1')}-value`
    const codec = createSchemaCodec(config.schemaRegistry.url)
    const v1 = (await codec.register([{ subject, schema: documentSchema() }])).get(subject)
    const old = await codec.encode(subject, { document_id: 'doc-old', mode: 'fast' })
    const v2 = (await codec.register([{ subject, schema: documentSchema('source') }])).get(subject)
    expect(v2).not.toBe(v1)
    expect(await codec.decode(old)).toEqual({ document_id: 'doc-old', mode: 'fast' })
  })

  it('refuses a version that old events would not satisfy (a new required field)', async () => {
    const subject = `${uniqueName('mem.test-docs.v1')}-value`
    const codec = createSchemaCodec(config.schemaRegistry.url)
    await codec.register([{ subject, schema: documentSchema() }])
    await expect(codec.register([{ subject, schema: documentSchema('source', ['source']) }])).rejects.toThrow(
      /Incompatible/,
    )
  })

  it('rejects a payload that breaks the schema and lists every failing path', async () => {
    const subject = `${uniqueName('mem.test-docs.v1')}-value`
    const codec = createSchemaCodec(config.schemaRegistry.url)
    await codec.register([{ subject, schema: documentSchema() }])
    const error = await codec
      .encode(subject, { document_id: '', mode: 'slow' })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(SchemaValidationError)
    expect((error as SchemaValidationError).paths.sort()).toEqual([
      '/document_id must NOT have fewer than 1 characters',
      '/mode must be equal to one of the allowed values',
    ])
  })
})
