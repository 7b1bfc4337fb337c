import { describe, expect, it } from 'vitest'
import { AS_OF_MARGIN_DAYS, generateKnowledgeUpdateSet, judgeAnswer } from './knowledgeUpdateSet.js'

const set = generateKnowledgeUpdateSet()
const dayOf = (iso: string) => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / 86_400_000

describe('the knowledge-update set', () => {
  it('is the same set every time, with at least 200 questions of each kind the issue names', () => {
    expect(generateKnowledgeUpdateSet()).toEqual(set)
    expect(set.questions.length).toBeGreaterThanOrEqual(200)
    for (const kind of ['now', 'as_of', 'when'] as const)
      expect(set.questions.filter((question) => question.kind === kind).length).toBeGreaterThan(50)
  })

  it('asks "as of" only at moments clear of every change of that attribute', () => {
    for (const question of set.questions.filter(({ kind }) => kind === 'as_of')) {
      const person = set.persons.find(({ id }) => id === question.personId)
      const changes = (person?.facts ?? []).filter(({ attribute }) => attribute === question.attribute)
      for (const change of changes) {
        const distance = Math.min(
          Math.abs(dayOf(question.asOf ?? '') - dayOf(change.validFromWindow.earliest)),
          Math.abs(dayOf(question.asOf ?? '') - dayOf(change.validFromWindow.latest)),
        )
        expect(distance).toBeGreaterThanOrEqual(AS_OF_MARGIN_DAYS)
      }
    }
  })

  it('counts an answer only when the top memory states the value (and, for "when", dates it)', () => {
    const when = set.questions.find(({ kind }) => kind === 'when')
    if (!when?.expected.validFrom) throw new Error('the set has no "when" question')
    const stating = { content: `It is ${when.expected.terms.join(' ')} now.` }
    const inWindow = `${when.expected.validFrom.earliest}T12:00:00.000Z`
    expect(judgeAnswer(when, [{ ...stating, valid_from: inWindow }]).correct).toBe(true)
    expect(judgeAnswer(when, [{ ...stating, valid_from: '1999-01-01T00:00:00.000Z' }]).correct).toBe(false)
    expect(judgeAnswer(when, [{ content: 'Something else.', valid_from: inWindow }]).correct).toBe(false)
    expect(
      judgeAnswer(when, [{ content: 'Something else.', valid_from: inWindow }, stating], 1).correct,
    ).toBe(false)
  })
})
