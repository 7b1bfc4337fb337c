import { describe, expect, it } from 'vitest'
import * as topology from '@memory-service/domain'
import { loadEngineDeclarations } from './provisionEngines.js'

const declarations = loadEngineDeclarations()
const namesEndingWith = (suffix: string) =>
  Object.entries(topology)
    .filter(([name, value]) => name.endsWith(suffix) && typeof value === 'string')
    .map(([, value]) => value as string)

describe('the topology and the declarations in infra/', () => {
  it('name the same Kafka topics', () => {
    expect(namesEndingWith('_TOPIC').sort()).toEqual(declarations.topics.map((topic) => topic.name).sort())
  })

  it('name the same Elasticsearch indices (the memories by their alias)', () => {
    const declared = declarations.indices.map((index) => index.alias ?? index.name).sort()
    expect([...namesEndingWith('_INDEX'), ...namesEndingWith('_ALIAS')].sort()).toEqual(declared)
  })

  it('name ClickHouse tables the DDL creates', () => {
    const ddl = declarations.clickhouseDdl.map((file) => file.source).join('\n')
    for (const table of Object.values(topology.usageTables)) {
      expect(ddl).toMatch(
        new RegExp(`CREATE (TABLE|MATERIALIZED VIEW) IF NOT EXISTS [\\w{}.]*\\b${table}\\b`),
      )
    }
  })
})
