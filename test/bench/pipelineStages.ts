/**
 * Where a document's time goes in the pipeline of this process, from its own metrics (the series `/metrics` serves):
 * per stage, calls and milliseconds per document and the share of the documents' own time, then how busy the
 * embedding model was. Reset the registry where the measured part starts.
 */
import {
  consumedBatchDuration,
  consumedRecordAge,
  embeddingBatchSize,
  embeddingDuration,
  pipelineDocumentDuration,
  pipelineStageDuration,
} from '@memory-service/engines'

/** A histogram's calls, seconds and cumulative buckets per value of its label (the bucket bound `le` apart). */
async function totalsOf(histogram: {
  get(): Promise<{ values: { metricName?: string; labels: Record<string, unknown>; value: number }[] }>
}): Promise<Map<string, { count: number; sum: number; buckets: [number, number][] }>> {
  const totals = new Map<string, { count: number; sum: number; buckets: [number, number][] }>()
  for (const { metricName, labels, value } of (await histogram.get()).values) {
    const { le, ...rest } = labels
    const key = Object.values(rest).join(',')
    const entry = totals.get(key) ?? { count: 0, sum: 0, buckets: [] }
    if (metricName?.endsWith('_bucket')) entry.buckets.push([le === '+Inf' ? Infinity : Number(le), value])
    else if (metricName?.endsWith('_count')) entry.count += value
    else if (metricName?.endsWith('_sum')) entry.sum += value
    totals.set(key, entry)
  }
  return totals
}

/** The bucket bound under which a share of the calls fell: an upper bound of that percentile, in milliseconds. */
function percentileBound(buckets: [number, number][], count: number, share: number): string {
  const bound = [...buckets].sort((a, b) => a[0] - b[0]).find(([, below]) => below >= share * count)?.[0]
  return bound === undefined || bound === Infinity ? '> largest bucket' : `≤ ${String(bound * 1000)}`
}

const p99Bound = (buckets: [number, number][], count: number) => percentileBound(buckets, count, 0.99)

/** Prints the tables; returns the texts this process embedded per second (undefined when it handled no document). */
export async function printPipelineStages(seconds: number): Promise<number | undefined> {
  // Every outcome's documents together: their buckets add up bound by bound.
  const documents = { count: 0, sum: 0, buckets: [] as [number, number][] }
  for (const { count, sum, buckets } of (await totalsOf(pipelineDocumentDuration)).values()) {
    documents.count += count
    documents.sum += sum
    for (const [bound, below] of buckets) {
      const same = documents.buckets.find(([known]) => known === bound)
      if (same) same[1] += below
      else documents.buckets.push([bound, below])
    }
  }
  if (documents.count === 0) return undefined
  const table: Record<string, Record<string, number | string>> = {}
  const row = ({ count, sum, buckets }: { count: number; sum: number; buckets: [number, number][] }) => ({
    'calls/document': Number((count / documents.count).toFixed(2)),
    'ms/document': Math.round((sum / documents.count) * 1000),
    'ms/call': Number(((sum / Math.max(count, 1)) * 1000).toFixed(1)),
    'share of document time': `${((sum / documents.sum) * 100).toFixed(0)} %`,
    'p99 ms': p99Bound(buckets, count),
  })
  for (const [stage, totals] of await totalsOf(pipelineStageDuration)) table[stage] = row(totals)
  table['document (read → job written)'] = row(documents)
  console.log(
    `\nwhere a document's time goes (${String(documents.count)} documents handled by this process; stages of concurrent documents overlap)`,
  )
  console.table(table)
  const model = (await totalsOf(embeddingDuration)).get('documents') ?? { count: 0, sum: 0 }
  const texts = (await totalsOf(embeddingBatchSize)).get('documents') ?? { count: 0, sum: 0 }
  console.table({
    'embedding model (documents)': {
      calls: model.count,
      texts: texts.sum,
      'texts/call': Number((texts.sum / Math.max(texts.count, 1)).toFixed(1)),
      'busy s': Number(model.sum.toFixed(1)),
      'busy share of the run': `${((model.sum / seconds) * 100).toFixed(0)} %`,
      'texts/s': Math.round(texts.sum / seconds),
    },
  })
  return texts.sum / seconds
}

/**
 * How far behind the log each consumer group of this process applied its records (the oldest record of each batch,
 * from its log timestamp), and how long its batches took: a read side's delay before any index refresh.
 */
export async function printConsumerDelays(): Promise<void> {
  const ages = await totalsOf(consumedRecordAge)
  const batches = await totalsOf(consumedBatchDuration)
  const table: Record<string, Record<string, number | string>> = {}
  for (const [group, age] of [...ages].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (age.count === 0) continue
    const batch = batches.get(group) ?? { count: 0, sum: 0, buckets: [] }
    table[group] = {
      batches: batch.count,
      'batch ms': Number(((batch.sum / Math.max(batch.count, 1)) * 1000).toFixed(1)),
      'batch p99 ms': p99Bound(batch.buckets, batch.count),
      'age ms (mean)': Math.round((age.sum / age.count) * 1000),
      'age p50 ms': percentileBound(age.buckets, age.count, 0.5),
      'age p99 ms': p99Bound(age.buckets, age.count),
    }
  }
  console.log("\nhow far behind the log this process's consumers applied records (before the index refresh)")
  console.table(table)
}
