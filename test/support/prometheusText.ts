/** One sample of Prometheus' text exposition: `name{label="value",…} value`. */
export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

/** Parses the text format (comments and HELP/TYPE lines skipped); throws on a line that is no sample. */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue
    const match = sampleLine.exec(line)
    if (!match) throw new Error(`not a Prometheus sample: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, name, value] of (match[2] ?? '').matchAll(labelPair))
      if (name !== undefined && value !== undefined)
        labels[name] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
    const raw = match[3] ?? ''
    samples.push({
      name: match[1] ?? '',
      labels,
      value: raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw),
    })
  }
  return samples
}

/** The value of the series with exactly these labels among those given (0 when absent: a counter not yet touched). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels)
  const found = samples.find(
    (sample) =>
      sample.name === name &&
      wanted.every(([key, value]) => sample.labels[key] === value) &&
      Object.keys(sample.labels).length === wanted.length,
  )
  return found?.value ?? 0
}

/** The metric families a query names: every identifier followed by `{`, `[`, `(`… that the exposition could hold. */
export function metricNamesIn(expression: string): string[] {
  const names = new Set<string>()
  for (const [name] of expression.matchAll(/\b(?:memory_service|process|nodejs)_[a-zA-Z0-9_]+/g))
    names.add(name)
  return [...names]
}
