import type { Readable } from 'node:stream'
import { mkdirSync, readFileSync } from 'node:fs'
import { createClient, type ClickHouseClient, type ClickHouseClientConfigOptions } from '@clickhouse/client'
import { splitStatements } from '../provisioning/splitStatements.js'

export interface ClickhouseConnectionOptions {
  /** A ClickHouse server over HTTP; when absent the engine runs in this process through chdb. */
  url?: string
  username?: string
  password?: string
  /** PEM file of the authorities to trust for an https URL. */
  caFile?: string
  /** Data directory of the in-process engine (or `:memory:`). */
  dataPath: string
}

/**
 * One client API for both engines. A real server and chdb return the same JSON because 64-bit integers are quoted
 * on both (chdb's default differs).
 */
export async function createClickhouseClient(
  options: ClickhouseConnectionOptions,
): Promise<ClickHouseClient> {
  const clickhouse_settings = {
    output_format_json_quote_64bit_integers: 1 as const,
    date_time_input_format: 'best_effort' as const,
  }
  if (options.url !== undefined) {
    return createClient({
      url: options.url,
      ...(options.username !== undefined ? { username: options.username } : {}),
      ...(options.password !== undefined ? { password: options.password } : {}),
      ...(options.caFile !== undefined ? { tls: { ca_cert: readFileSync(options.caFile) } } : {}),
      clickhouse_settings,
    })
  }
  if (options.dataPath !== ':memory:') mkdirSync(options.dataPath, { recursive: true })
  // Loaded on demand: the 500 MB engine is only mapped into processes that use it.
  const { createChdbConnection } = await import('chdb/connection')
  // chdb's types come from an older copy of @clickhouse/client-common; the runtime contract is the same.
  let connection: NonNullable<ClickHouseClientConfigOptions['connection']>
  try {
    connection = createChdbConnection({ path: options.dataPath }) as unknown as typeof connection
  } catch (error) {
    // The engine locks its data directory: the usual cause is another process of this service holding it.
    throw new Error(
      `ClickHouse could not open its data directory ${options.dataPath}: another process probably holds it (the ` +
        'in-process engine admits one process per directory). Run the gateway and the projectors in one process ' +
        '(npm start), or run a ClickHouse server and set CLICKHOUSE_URL for every process ' +
        '(docs/operations.md, "Several processes").',
      { cause: error },
    )
  }
  return createClient({ connection, clickhouse_settings })
}

export type QueryParams = Record<string, unknown>

export interface ClickhouseStore {
  readonly database: string
  /** Creates the database and applies DDL (statements separated by `;`); `{{database}}` names this store's database. */
  applyDdl(source: string): Promise<void>
  insert(table: string, rows: object[]): Promise<void>
  /** Runs a SELECT with typed, server-side bound parameters (`{name:Type}` placeholders). */
  query<T>(sql: string, params?: QueryParams): Promise<T[]>
  command(sql: string, params?: QueryParams): Promise<void>
  /**
   * Runs a SELECT and resolves, once ClickHouse has accepted it, with the response body as ClickHouse writes it in
   * `format` (CSVWithNames, Parquet…), to be streamed on unchanged: a query error is thrown here, before any byte.
   */
  streamAs(format: 'CSVWithNames' | 'Parquet', sql: string, params?: QueryParams): Promise<Readable>
  version(): Promise<string>
  close(): Promise<void>
}

/** Splits a .sql file into statements; `--` comment lines are dropped. */
export function splitSqlStatements(source: string): string[] {
  return splitStatements(source, '--')
}

export function createClickhouseStore(client: ClickHouseClient, database: string): ClickhouseStore {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database))
    throw new Error(`Invalid ClickHouse database name: ${database}`)
  return {
    database,
    async applyDdl(source) {
      await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` })
      for (const statement of splitSqlStatements(source.replaceAll('{{database}}', database))) {
        await client.command({ query: statement })
      }
    },
    async insert(table, rows) {
      if (rows.length === 0) return
      await client.insert({ table: `${database}.${table}`, values: rows, format: 'JSONEachRow' })
    },
    async query<T>(sql: string, params: QueryParams = {}) {
      const result = await client.query({ query: sql, query_params: params, format: 'JSONEachRow' })
      return result.json<T>()
    },
    async command(sql, params = {}) {
      await client.command({ query: sql, query_params: params })
    },
    async streamAs(format, sql, params = {}) {
      const result: { stream: Readable } = await client.exec({
        query: `${sql} FORMAT ${format}`,
        query_params: params,
      })
      return result.stream
    },
    async version() {
      const result = await client.query({ query: 'SELECT version() AS version', format: 'JSONEachRow' })
      const [row] = await result.json<{ version: string }>()
      return row?.version ?? 'unknown'
    },
    close: () => client.close(),
  }
}
