import { describe, expect, it } from 'vitest'
import { speakInThirdPerson, thirdPersonOf } from './thirdPerson.js'

describe('speakInThirdPerson', () => {
  it.each([
    ['I went to a LGBTQ support group yesterday.', 'Caroline went to a LGBTQ support group yesterday.'],
    ["I'm swamped with the kids & work.", 'Caroline is swamped with the kids & work.'],
    ['I am happy.', 'Caroline is happy.'],
    ['I was so happy.', 'Caroline was so happy.'],
    ["I've had a lot happening to me.", 'Caroline has had a lot happening to Caroline.'],
    ['I have two kids.', 'Caroline has two kids.'],
    ["I'll do my best.", "Caroline will do Caroline's best."],
    ["I'd love to support them.", 'Caroline would love to support them.'],
    ["I'd been wanting to try yoga.", 'Caroline had been wanting to try yoga.'],
    ['I do yoga.', 'Caroline does yoga.'],
    ["I don't know.", "Caroline doesn't know."],
    ['I go running.', 'Caroline goes running.'],
    ['I love it and I think so.', 'Caroline loves it and Caroline thinks so.'],
    ['I really love painting.', 'Caroline really loves painting.'],
    ['I study and I watch films.', 'Caroline studies and Caroline watches films.'],
    ['My husband and I love camping.', "Caroline's husband and Caroline love camping."],
    ['Do I look ok?', 'Does Caroline look ok?'],
    ['It made me embrace myself.', 'It made Caroline embrace Caroline.'],
    ['That book is mine.', "That book is Caroline's."],
    ["They keep reminding me I'm not alone.", 'They keep reminding Caroline that Caroline is not alone.'],
    ['I carve out some me-time.', 'Caroline carves out some me-time.'],
    ['I put it there.', 'Caroline put it there.'],
    ['i went there', 'Caroline went there'],
  ])('%j', (sentence, rewritten) => {
    expect(speakInThirdPerson(sentence, 'Caroline').text).toBe(rewritten)
  })

  it('reports whether the speaker takes part, including through "we"', () => {
    expect(speakInThirdPerson('I went home.', 'Nate').aboutSpeaker).toBe(true)
    expect(speakInThirdPerson("We're going camping.", 'Nate')).toEqual({
      text: "We're going camping.",
      aboutSpeaker: true,
    })
    expect(speakInThirdPerson('The weather is nice.', 'Nate').aboutSpeaker).toBe(false)
  })
})

describe('thirdPersonOf', () => {
  it.each([
    ['love', 'loves'],
    ['watch', 'watches'],
    ['fix', 'fixes'],
    ['miss', 'misses'],
    ['study', 'studies'],
    ['play', 'plays'],
    ['go', 'goes'],
    ['do', 'does'],
    ['have', 'has'],
    ['am', 'is'],
    ['wanna', 'wants to'],
  ])('%s → %s', (verb, conjugated) => {
    expect(thirdPersonOf(verb)).toBe(conjugated)
  })
})
