import { invalidInput, parseMemoryFilter, type MemoryFilter } from '@memory-service/domain'

/** A request's filters parsed, or 400 INVALID_INPUT naming the key at fault. */
export function filterOf(raw: unknown): MemoryFilter | null {
  const parsed = parseMemoryFilter(raw)
  if ('fields' in parsed) throw invalidInput(parsed.fields)
  return parsed.filter
}

/** The list's filters come as JSON text in the query string. */
export function filterJsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw invalidInput({ filters: 'must be a filter object as JSON text' })
  }
}
