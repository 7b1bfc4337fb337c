import { describe, expect, it } from 'vitest'
import { readContractSchema } from '@memory-service/contracts/files'
import {
  dataSubjectOf,
  personalContentPlanOf,
  restorePersonalContent,
  sealedSchemaOf,
  takePersonalContent,
} from './personalContent.js'

const memoryChanged = readContractSchema('events/MemoryChanged.v1.schema.json')

describe('personal content of an event, from its schema', () => {
  it('reads the data subject and every marked property of MemoryChanged', () => {
    const plan = personalContentPlanOf(memoryChanged)
    expect(plan?.subject).toEqual({ instance: ['instance_id'], user: ['memory', 'scope', 'user_id'] })
    expect(plan?.sealed).toEqual(
      expect.arrayContaining([
        ['memory', 'content'],
        ['memory', 'entities'],
        ['memory', 'metadata'],
        ['memory', 'embedding', 'vector'],
      ]),
    )
    expect(plan?.pseudonyms).toEqual([])
  })

  it('marks the personal fields of every event that carries a person’s content, and none of the others', () => {
    const planned = (name: string) =>
      personalContentPlanOf(readContractSchema(`events/${name}.v1.schema.json`))
    expect(planned('DocumentAccepted')?.sealed).toEqual([
      ['document'],
      ['metadata'],
      ['context'],
      ['imported', 'embedding', 'vector'],
      ['imported', 'feedback', 'reason'],
    ])
    expect(planned('MemoryChanged')?.sealed).toEqual([
      ['memory', 'content'],
      ['memory', 'entities'],
      ['memory', 'metadata'],
      ['memory', 'speaker'],
      ['memory', 'embedding', 'vector'],
      ['memory', 'context'],
      ['memory', 'feedback', 'reason'],
      ['memory', 'fact'],
    ])
    expect(planned('ConversationEventRecorded')?.sealed).toEqual([['content'], ['metadata']])
    expect(planned('ConversationCompacted')?.sealed).toEqual([['summary']])
    expect(planned('UsageRecorded')?.pseudonyms).toEqual([['dimensions', 'user_id']])
    expect(planned('IngestionJobChanged')).toBeUndefined()
    expect(planned('UserDataErased')).toBeUndefined()
  })

  it('derives the wire schema of a sealed record: marked properties gone, a sealed part required', () => {
    const plan = personalContentPlanOf(memoryChanged)
    if (!plan) throw new Error('no plan')
    const sealed = sealedSchemaOf(memoryChanged, plan) as {
      required: string[]
      properties: Record<string, { required?: string[]; properties?: Record<string, unknown> }>
    }
    expect(sealed.required).toContain('sealed')
    const memory = sealed.properties.memory
    expect(Object.keys(memory?.properties ?? {})).not.toContain('content')
    expect(memory?.required).not.toContain('content')
    expect(memory?.required).toContain('scope')
    // The plaintext schema is left as it was.
    expect((memoryChanged.properties as { memory: { required: string[] } }).memory.required).toContain(
      'content',
    )
  })

  it('takes personal content out without touching the payload, and puts it back exactly', () => {
    const plan = personalContentPlanOf(memoryChanged)
    if (!plan) throw new Error('no plan')
    const payload = {
      instance_id: 'inst_0123456789abcdef',
      memory: {
        content: 'Ana lives in Porto',
        entities: [{ entity_id: 'ent_1', canonical_name: 'Porto', type: 'place' }],
        metadata: { source: 'chat' },
        scope: { user_id: 'ana', customer_id: null, client_id: 'c' },
        embedding: { model: 'm', vector: [0.1, 0.2] },
        speaker: null,
      },
    }
    const before = structuredClone(payload)
    const { readable, taken } = takePersonalContent(payload, plan, 'psn_x')
    expect(payload).toEqual(before)
    expect(JSON.stringify(readable)).not.toMatch(/Porto|chat|0\.1/)
    expect(readable).toMatchObject({ memory: { scope: { user_id: 'ana' }, embedding: { model: 'm' } } })
    expect(Object.keys(taken)).toEqual(
      expect.arrayContaining([
        '/memory/content',
        '/memory/entities',
        '/memory/speaker',
        '/memory/embedding/vector',
      ]),
    )
    const restored = structuredClone(readable)
    restorePersonalContent(restored, JSON.parse(JSON.stringify(taken)) as Record<string, unknown>)
    expect(restored).toEqual(payload)
  })

  it('replaces pseudonym properties and finds no subject where there is no user', () => {
    const usage = personalContentPlanOf(readContractSchema('events/UsageRecorded.v1.schema.json'))
    if (!usage) throw new Error('no plan')
    const event = { instance_id: 'inst_0123456789abcdef', dimensions: { user_id: 'ana', mode: 'fast' } }
    expect(dataSubjectOf(event, usage)).toEqual({ instanceId: 'inst_0123456789abcdef', userId: 'ana' })
    expect(takePersonalContent(event, usage, 'psn_1').readable).toEqual({
      instance_id: 'inst_0123456789abcdef',
      dimensions: { user_id: 'psn_1', mode: 'fast' },
    })
    expect(dataSubjectOf({ instance_id: 'inst_0123456789abcdef', dimensions: { mode: 'fast' } }, usage)).toBe(
      undefined,
    )
  })
})
