import neo4j, { type Driver, type RecordShape } from 'neo4j-driver'
import { splitStatements } from '../provisioning/splitStatements.js'

export interface Neo4jConnectionOptions {
  uri: string
  username?: string
  password?: string
  /** PEM file of the authorities to trust: TLS on a bolt:// or neo4j:// URI, trusting those only. */
  caFile?: string
}

export function createNeo4jDriver(options: Neo4jConnectionOptions): Driver {
  const auth =
    options.username !== undefined && options.password !== undefined
      ? neo4j.auth.basic(options.username, options.password)
      : undefined
  return neo4j.driver(options.uri, auth, {
    disableLosslessIntegers: true,
    connectionAcquisitionTimeout: 10_000,
    // A +s / +ssc URI carries its own TLS settings and the driver refuses them twice.
    ...(options.caFile !== undefined
      ? {
          encrypted: 'ENCRYPTION_ON' as const,
          trust: 'TRUST_CUSTOM_CA_SIGNED_CERTIFICATES' as const,
          trustedCertificates: [options.caFile],
        }
      : {}),
  })
}

export interface Neo4jStore {
  /** Runs a write in a managed transaction (retried by the driver on transient errors). */
  write<R extends RecordShape = RecordShape>(cypher: string, params?: Record<string, unknown>): Promise<R[]>
  read<R extends RecordShape = RecordShape>(cypher: string, params?: Record<string, unknown>): Promise<R[]>
  /** Runs statements in order in one managed write transaction: all apply or none. */
  writeTransaction(statements: { cypher: string; params?: Record<string, unknown> }[]): Promise<void>
  /** Applies schema statements (constraints, indexes); each must be idempotent (`IF NOT EXISTS`). */
  /** Runs DDL statements in order; `params` go to the statements that name a parameter. */
  applySchema(statements: string[], params?: Record<string, unknown>): Promise<void>
  version(): Promise<string>
  close(): Promise<void>
}

export function createNeo4jStore(driver: Driver, database: string): Neo4jStore {
  async function run<R extends RecordShape>(
    mode: 'READ' | 'WRITE',
    cypher: string,
    params: Record<string, unknown>,
  ) {
    const result = await driver.executeQuery<{ records: { toObject(): R }[] }>(cypher, params, {
      database,
      routing: mode,
    })
    return result.records.map((record) => record.toObject())
  }
  return {
    write: (cypher, params = {}) => run('WRITE', cypher, params),
    read: (cypher, params = {}) => run('READ', cypher, params),
    async writeTransaction(statements) {
      const session = driver.session({ database, defaultAccessMode: neo4j.session.WRITE })
      try {
        await session.executeWrite(async (transaction) => {
          for (const { cypher, params } of statements) await transaction.run(cypher, params ?? {})
        })
      } finally {
        await session.close()
      }
    },
    async applySchema(statements, params = {}) {
      for (const statement of statements) await run('WRITE', statement, statement.includes('$') ? params : {})
    },
    async version() {
      const [row] = await run<{ version: string; edition: string }>(
        'READ',
        'CALL dbms.components() YIELD versions, edition RETURN versions[0] AS version, edition',
        {},
      )
      return row ? `${row.version} ${row.edition}` : 'unknown'
    },
    close: () => driver.close(),
  }
}

/** Splits a .cypher file into statements; `//` comment lines are dropped. */
export function splitCypherStatements(source: string): string[] {
  return splitStatements(source, '//')
}
