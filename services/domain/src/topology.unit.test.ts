import { describe, expect, it } from 'vitest'
import { parseNamespace, topologyFor } from './topology.js'

describe('deployment namespaces', () => {
  it('leave every name bare in the default namespace, so existing data stays where it is', () => {
    const topology = topologyFor(parseNamespace(undefined))
    expect(parseNamespace('')).toBe('')
    expect(topology.topic('mem.documents.v1')).toBe('mem.documents.v1')
    expect(topology.group('memory-pipeline')).toBe('memory-pipeline')
    expect(topology.index('mem-memories')).toBe('mem-memories')
    expect(topology.graph).toEqual({ generationPrefix: '', stateKey: 'graph' })
  })

  it('put the namespace in every topic, group, index and graph generation', () => {
    const topology = topologyFor(parseNamespace('staging'))
    expect(topology.topic('mem.documents.v1')).toBe('staging.mem.documents.v1')
    expect(topology.group('memory-pipeline')).toBe('staging.memory-pipeline')
    expect(topology.index('mem-memories')).toBe('staging-mem-memories')
    expect(topology.graph).toEqual({ generationPrefix: 'staging/', stateKey: 'graph/staging' })
  })

  it.each(['Staging', '1abc', 'a_b', 'a.b', 'a/b', 'x'.repeat(25), '-a'])(
    'refuse %j: it could not name an index, a topic and a graph generation alike',
    (value) => {
      expect(() => parseNamespace(value)).toThrow(/MEMORY_SERVICE_NAMESPACE/)
    },
  )
})
