import { expiryProblem } from '@memory-service/domain'

/** What the routes of one memory (`/v1/memories/{memory_id}…`) take as their path. */
export const memoryIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['memory_id'],
  properties: { memory_id: { type: 'string', maxLength: 64 } },
} as const

/** The expiries of a body that cannot be asked for now, as field problems; none for fields that name no expiry. */
export function expiryFields(
  fields: (readonly [field: string, expiresAt: string | null | undefined])[],
  now: Date,
): Record<string, string> {
  return Object.fromEntries(
    fields.flatMap(([field, expiresAt]) => {
      const problem = typeof expiresAt === 'string' ? expiryProblem(expiresAt, now) : null
      return problem ? [[field, problem]] : []
    }),
  )
}
