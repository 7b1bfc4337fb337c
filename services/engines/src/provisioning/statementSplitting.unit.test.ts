import { describe, expect, it } from 'vitest'
import { splitSqlStatements } from '../clickhouse/createClickhouseStore.js'
import { splitCypherStatements } from '../neo4j/createNeo4jStore.js'
import { topologyFor } from '@memory-service/domain'
import { loadEngineDeclarations } from './provisionEngines.js'

describe('statement splitting', () => {
  it('splits SQL on semicolons at line ends and drops comment lines', () => {
    const source = "-- a table\nCREATE TABLE a (x String DEFAULT ';');\n\nCREATE VIEW b AS\nSELECT 1;\n"
    expect(splitSqlStatements(source)).toEqual([
      "CREATE TABLE a (x String DEFAULT ';')",
      'CREATE VIEW b AS\nSELECT 1',
    ])
  })

  it('splits Cypher the same way and drops // comments', () => {
    expect(
      splitCypherStatements(
        '// why\nCREATE CONSTRAINT a IF NOT EXISTS FOR (n:A) REQUIRE n.id IS UNIQUE;\nRETURN 1',
      ),
    ).toEqual(['CREATE CONSTRAINT a IF NOT EXISTS FOR (n:A) REQUIRE n.id IS UNIQUE', 'RETURN 1'])
  })
})

describe('engine declarations in infra/', () => {
  // As declared, without this process's namespace.
  const declarations = loadEngineDeclarations(undefined, topologyFor(''))

  it('keep the whole history of every topic, so projections can be rebuilt by replay', () => {
    expect(declarations.topics.length).toBeGreaterThan(0)
    for (const topic of declarations.topics) {
      expect(topic.name, topic.name).toMatch(/^mem\.[a-z-]+\.v\d+$/)
      expect(topic.config['retention.ms'], topic.name).toBe('-1')
      expect(topic.partitions, topic.name).toBeGreaterThan(0)
    }
  })

  it('make every schema statement idempotent', () => {
    // Schema statements say IF [NOT] EXISTS; data statements are a MERGE or only touch what is still unset or empty.
    for (const statement of declarations.neo4jSchema)
      expect(statement).toMatch(/IF (NOT )?EXISTS|^MERGE |WHERE [\s\S]* IS NULL SET /)
    for (const { file, source } of declarations.clickhouseDdl) {
      // A one-time fill inserts only into a table that is still empty.
      for (const statement of splitSqlStatements(source))
        expect(statement, file).toMatch(
          /IF (NOT )?EXISTS|^INSERT INTO (?<table>\S+)\n[\s\S]*\nWHERE \(SELECT count\(\) FROM \k<table>\) = 0\n/,
        )
    }
  })
})
