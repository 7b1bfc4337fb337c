import { describe, expect, it } from 'vitest'
import { speakInThirdPerson, thirdPersonOf } from './thirdPerson.js'

describe('speakInThirdPerson', () => {
  it.each([
    ['I went to a LGBTQ support group yesterday.', 'Caroline went to a LGBTQ support group yesterday.'],
    ["I'm swamped with the kids & work.", 'Caroline is swamped with the kids & work.'],
    ['I am happy.', 'Caroline is happy.'],
    ['I was so happy.', 'Caroline was so happy.'],
    ["I've had a lot happening to me.", 'Caroline has had a lot happening to them.'],
    ['I have two kids.', 'Caroline has two kids.'],
    ["I'll do my best.", 'Caroline will do their best.'],
    ["I'd love to support them.", 'Caroline would love to support them.'],
    ["I'd been wanting to try yoga.", 'Caroline had been wanting to try yoga.'],
    ['I do yoga.', 'Caroline does yoga.'],
    ["I don't know.", "Caroline doesn't know."],
    ['I go running.', 'Caroline goes running.'],
    ['I love it and I think so.', 'Caroline loves it and they think so.'],
    ['I really love painting.', 'Caroline really loves painting.'],
    ['I first watched it 3 years ago.', 'Caroline first watched it 3 years ago.'],
    ['I almost cried and I later laugh about it.', 'Caroline almost cried and they later laugh about it.'],
    ['I study and I watch films.', 'Caroline studies and they watch films.'],
    ['My husband and I love camping.', "Caroline's husband and Caroline love camping."],
    ['Do I look ok?', 'Does Caroline look ok?'],
    ['It made me embrace myself.', 'It made Caroline embrace themself.'],
    ['That book is mine.', "That book is Caroline's."],
    ["They keep reminding me I'm not alone.", 'They keep reminding Caroline that Caroline is not alone.'],
    ['I carve out some me-time.', 'Caroline carves out some me-time.'],
    ['I put it there.', 'Caroline put it there.'],
    ['i went there', 'Caroline went there'],
    // Past forms that are adjectives too stay past after a subject.
    ['so tom and i broke up in june', 'so tom and Caroline broke up in june'],
    ['I lit a candle and I fled.', 'Caroline lit a candle and they fled.'],
  ])('%j', (sentence, rewritten) => {
    expect(speakInThirdPerson(sentence, 'Caroline').text).toBe(rewritten)
  })

  it.each([
    [
      "I'm putting on a show and I'm gonna show my paintings.",
      "Caroline is putting on a show and they're gonna show their paintings.",
    ],
    [
      "I've tried it, but I've got more to do for myself.",
      "Caroline has tried it, but they've got more to do for themself.",
    ],
    ["I'll see if I'd like it.", "Caroline will see if they'd like it."],
    ['That book is mine and this one is mine too.', "That book is Caroline's and this one is theirs too."],
    ['It reminds me of when I was a kid.', 'It reminds Caroline of when they were a kid.'],
    ['My dad says I am stubborn.', "Caroline's dad says they are stubborn."],
    ['I wish I wasn’t so tired, I’m exhausted.', 'Caroline wishes they weren’t so tired, they’re exhausted.'],
  ])('names the speaker once, then says "they" with plural agreement: %j', (sentence, rewritten) => {
    expect(speakInThirdPerson(sentence, 'Caroline').text).toBe(rewritten)
  })

  it.each([
    // "they" would be the readers here.
    [
      'Their letters moved me; they said my book helped them.',
      "Their letters moved Caroline; they said Caroline's book helped them.",
    ],
    [
      'My husband and I love camping, and my kids and I hike.',
      "Caroline's husband and Caroline love camping, and their kids and Caroline hike.",
    ],
    ['It was fun for you and me.', 'It was fun for you and Caroline.'],
  ])(
    'names the speaker again where "they" would be ambiguous or part of a compound: %j',
    (sentence, rewritten) => {
      expect(speakInThirdPerson(sentence, 'Caroline').text).toBe(rewritten)
    },
  )

  it.each([
    [
      "I'm trying to fix my app, and I've found a bug.",
      "The user is trying to fix their app, and they've found a bug.",
    ],
    ['Here is my code.', "Here is the user's code."],
    ['My code fails when I run it.', "The user's code fails when they run it."],
    ['Can you help me with this?', 'Can you help the user with this?'],
    ['So, I want a cache.', 'So, the user wants a cache.'],
    ["// I'm using Bootstrap here.", '// The user is using Bootstrap here.'],
    ['Done. My tests pass now.', "Done. The user's tests pass now."],
  ])('writes a "User" speaker as "the user": %j', (sentence, rewritten) => {
    expect(speakInThirdPerson(sentence, 'User').text).toBe(rewritten)
  })

  it.each([
    ['Toronto is where I live and work.', 'Toronto is where Caroline lives and works.'],
    ['I write Rust and want to learn Go.', 'Caroline writes Rust and wants to learn Go.'],
    ["I'm using React and plan to add tests.", 'Caroline is using React and plans to add tests.'],
    ['I sing and play guitar.', 'Caroline sings and plays guitar.'],
  ])('conjugates the second verb of a compound predicate: %j', (sentence, rewritten) => {
    expect(speakInThirdPerson(sentence, 'Caroline').text).toBe(rewritten)
  })

  it.each([
    // A noun after a noun phrase, a verb governed by "to" or a modal, another clause after a comma, a past form.
    ['I like the music and dance scene.', 'Caroline likes the music and dance scene.'],
    ['I value your help and care.', 'Caroline values your help and care.'],
    ['I want to bake bread and sell it.', 'Caroline wants to bake bread and sell it.'],
    ['I can fix it and test it.', 'Caroline can fix it and test it.'],
    ["I'm so tired, and look at this mess.", 'Caroline is so tired, and look at this mess.'],
    ['I found the shop and saw it was closed.', 'Caroline found the shop and saw it was closed.'],
  ])('leaves a word after "and" that does not share the subject: %j', (sentence, rewritten) => {
    expect(speakInThirdPerson(sentence, 'Caroline').text).toBe(rewritten)
  })

  it.each([
    ['Do I need a visa?', 'Does Caroline need a visa?'],
    ['How can I speed this up?', 'How can Caroline speed this up?'],
    ['hmm, should I include my role?', 'hmm, should Caroline include their role?'],
    ['Am I late?', 'Is Caroline late?'],
    ["I'm late, am I?", 'Caroline is late, are they?'],
    ["I'm sure, but was I right?", 'Caroline is sure, but were they right?'],
    ['Is there anything I can do?', 'Is there anything Caroline can do?'],
  ])(
    'agrees an inverted auxiliary and leaves the verb after it in its base form: %j',
    (sentence, rewritten) => {
      expect(speakInThirdPerson(sentence, 'Caroline').text).toBe(rewritten)
    },
  )

  it.each([
    ['I spell-check my notes.', 'Caroline spell-checks their notes.'],
    ['I bet it was cold.', 'Caroline bets it was cold.'],
    ['I should try it for myself.', 'Caroline should try it for themself.'],
    // "I has": a typo of "It has", not the speaker.
    ['I has been ages since my last trip.', "I has been ages since Caroline's last trip."],
    [
      'We compared NPM, PNPM packages and I have two lockfiles.',
      'We compared NPM, PNPM packages and Caroline has two lockfiles.',
    ],
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
