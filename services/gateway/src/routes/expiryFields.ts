import { expiryProblem } from '@memory-service/domain'

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
