/**
 * Runs in every int and e2e worker. The in-process ClickHouse allows one data directory per process, so each
 * worker process gets its own; test files in the same worker share it.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'

process.env.CLICKHOUSE_DATA_PATH ??= join(tmpdir(), `memory-service-test-chdb-${process.pid}`)
process.env.LOG_LEVEL ??= 'warn'
