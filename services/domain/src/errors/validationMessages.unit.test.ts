import { describe, expect, it } from 'vitest'
import { externalIdSchemaPattern } from '../externalIds.js'
import { fieldsOfIssues } from './validationMessages.js'

describe('validation messages', () => {
  it('say what the identifier rule means instead of quoting its pattern, and keep other patterns', () => {
    expect(
      fieldsOfIssues([
        {
          keyword: 'pattern',
          instancePath: '/conversation_id',
          params: { pattern: externalIdSchemaPattern },
          message: `must match pattern "${externalIdSchemaPattern}"`,
        },
        {
          keyword: 'pattern',
          instancePath: '/event_id',
          params: { pattern: '^x$' },
          message: 'must match pattern "^x$"',
        },
        { keyword: 'required', instancePath: '', params: { missingProperty: 'user_id' } },
      ]),
    ).toEqual({
      conversation_id: 'must not contain control characters',
      event_id: 'must match pattern "^x$"',
      user_id: 'is required',
    })
  })
})
