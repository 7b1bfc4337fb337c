import { parquetWriteBuffer, type ColumnSource } from 'hyparquet-writer'
import type { MemoryExportLine } from './memoryExports.js'

/** The most memories in one Parquet file of an export; a larger export comes as several files (`after`). */
export const parquetFileLimit = 10_000

const instant = (value: string | null | undefined): Date | null => (value ? new Date(value) : null)

/**
 * Export lines as one Parquet file: a row per memory, a column per scalar field (dates as timestamps, in UTC), and
 * the nested fields — entities, metadata, history — as JSON columns, which DuckDB, pandas and Spark read as JSON. The
 * column set is the same whatever the memories hold, so the files of one export read as one table.
 */
export function parquetFileOf(lines: readonly MemoryExportLine[], withHistory: boolean): Uint8Array {
  const column = (
    name: string,
    type: NonNullable<ColumnSource['type']>,
    value: (line: MemoryExportLine) => unknown,
    nullable = true,
  ): ColumnSource => ({ name, type, nullable, data: lines.map(value) })
  const columns: ColumnSource[] = [
    column('id', 'STRING', (line) => line.id, false),
    column('type', 'STRING', (line) => line.type, false),
    column('content', 'STRING', (line) => line.content, false),
    column('confidence', 'DOUBLE', (line) => line.confidence, false),
    column('user_id', 'STRING', (line) => line.scope.user_id),
    column('customer_id', 'STRING', (line) => line.scope.customer_id),
    column('client_id', 'STRING', (line) => line.scope.client_id, false),
    column('ingestion_id', 'STRING', (line) => line.source.ingestion_id, false),
    column('document_type', 'STRING', (line) => line.source.document_type, false),
    column('document_created_at', 'TIMESTAMP', (line) => instant(line.source.document_created_at)),
    column('created_at', 'TIMESTAMP', (line) => instant(line.created_at)),
    column('updated_at', 'TIMESTAMP', (line) => instant(line.updated_at)),
    column('valid_from', 'TIMESTAMP', (line) => instant(line.valid_from)),
    column('valid_to', 'TIMESTAMP', (line) => instant(line.valid_to)),
    column('superseded_by', 'STRING', (line) => line.superseded_by),
    column('expires_at', 'TIMESTAMP', (line) => instant(line.expires_at)),
    column('feedback_rating', 'STRING', (line) => line.feedback?.rating ?? null),
    column('feedback_reason', 'STRING', (line) => line.feedback?.reason ?? null),
    column('feedback_given_at', 'TIMESTAMP', (line) => instant(line.feedback?.given_at)),
    column('entities', 'JSON', (line) => line.entities, false),
    column('metadata', 'JSON', (line) => line.metadata, false),
    ...(withHistory ? [column('history', 'JSON', (line) => line.history ?? [], false)] : []),
  ]
  return new Uint8Array(parquetWriteBuffer({ columnData: columns, createdBy: 'memory-service' }))
}
