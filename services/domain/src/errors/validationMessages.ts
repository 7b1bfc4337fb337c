import { externalIdSchemaPattern } from '../externalIds.js'

/** The parts of an Ajv error that the messages use (Ajv's and fastify's error objects both have them). */
export interface ValidationIssue {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  message?: string | undefined
}

/** The field an issue is about, as a dotted path (`rate_limit.burst`); a missing or unknown field names itself. */
export function fieldOfIssue(issue: ValidationIssue, fallback = 'body'): string {
  const named = issue.params.missingProperty ?? issue.params.additionalProperty
  const path = [
    ...issue.instancePath.split('/').filter(Boolean),
    ...(typeof named === 'string' ? [named] : []),
  ]
  return path.join('.') || fallback
}

/** One wording for every validation message the API sends, whichever validator found the problem. */
export function messageOfIssue(issue: ValidationIssue): string {
  switch (issue.keyword) {
    case 'required':
      return 'is required'
    case 'additionalProperties':
      return 'is not a known field'
    case 'enum':
      return `must be one of: ${(issue.params.allowedValues as unknown[]).map(String).join(', ')}`
    case 'pattern':
      // The identifier rule's pattern is unreadable as text; say what it means.
      return issue.params.pattern === externalIdSchemaPattern
        ? 'must not contain control characters'
        : (issue.message ?? 'is invalid')
    default:
      return issue.message ?? 'is invalid'
  }
}

/** Field → message for every issue (the first message per field wins). */
export function fieldsOfIssues(
  issues: readonly ValidationIssue[],
  fallback = 'body',
): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const issue of issues) fields[fieldOfIssue(issue, fallback)] ??= messageOfIssue(issue)
  return fields
}
