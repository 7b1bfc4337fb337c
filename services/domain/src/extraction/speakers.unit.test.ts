import { describe, expect, it } from 'vitest'
import {
  addressedNames,
  restoreDroppedSubject,
  speakInThirdPerson,
  splitTurns,
  thirdPersonOf,
} from './speakers.js'

describe('splitTurns', () => {
  it('reads a single chat line as one turn of its speaker', () => {
    expect(splitTurns('Caroline: I went to a support group yesterday.', 'ai-chat-conversation')).toEqual([
      { speaker: 'Caroline', text: 'I went to a support group yesterday.', addressees: [] },
    ])
  })

  it('reads timestamps, bold names, roles and multi-line turns in a transcript', () => {
    const transcript = [
      '[10:02] **Alice Wong (PM)**: We ship on Friday.',
      '10:03 - Bob: I disagree.',
      'It needs another round of QA.',
      '(10:04) Carol: Thanks, Bob! Noted.',
    ].join('\n')
    expect(splitTurns(transcript, 'meeting-transcript')).toEqual([
      { speaker: 'Alice Wong', text: 'We ship on Friday.', addressees: [] },
      { speaker: 'Bob', text: 'I disagree.\nIt needs another round of QA.', addressees: [] },
      { speaker: 'Carol', text: 'Thanks, Bob! Noted.', addressees: ['Bob'] },
    ])
  })

  it('names chat roles and accepts them in lower case', () => {
    expect(splitTurns('user: I adopted a dog.\nassistant: Congratulations!', 'ai-chat-conversation')).toEqual(
      [
        { speaker: 'User', text: 'I adopted a dog.', addressees: [] },
        { speaker: 'Assistant', text: 'Congratulations!', addressees: [] },
      ],
    )
  })

  it('does not take field labels for speakers', () => {
    const note = 'Note: the venue changed.\nAction items: book rooms.'
    expect(splitTurns(note, 'meeting-transcript')).toEqual([{ speaker: null, text: note, addressees: [] }])
  })

  it('outside conversations, trusts labels only when two lines carry one', () => {
    const oneLabel = 'Budget: 5000 euros for the offsite.'
    expect(splitTurns(oneLabel, 'document')).toEqual([{ speaker: null, text: oneLabel, addressees: [] }])
    expect(splitTurns('Ann: I agree.\nBen: Me too.', 'document').map((turn) => turn.speaker)).toEqual([
      'Ann',
      'Ben',
    ])
  })

  it('makes an email one turn of its sender, without quoted reply, sign-off and signature', () => {
    const email = [
      'From: "Doe, Jane" <jane.doe@example.org>',
      'To: Bob Smith <bob@example.org>, carol.jones@example.org',
      'Subject: Re: Offsite in June',
      '',
      'Hi Bob,',
      '',
      'I booked the venue in Lisbon.',
      '',
      'Best,',
      'Jane',
      '',
      'On Mon, May 1, 2023 at 9:00 AM Bob Smith <bob@example.org> wrote:',
      '> Can you book the venue?',
    ].join('\n')
    expect(splitTurns(email, 'email')).toEqual([
      {
        speaker: 'Jane Doe',
        text: 'Jane Doe sent an email about Offsite in June.\n\nHi Bob,\n\nI booked the venue in Lisbon.',
        addressees: ['Bob Smith', 'Carol Jones', 'Bob'],
      },
    ])
  })
})

describe('addressedNames', () => {
  it('finds names used as vocatives and ignores clause openers', () => {
    expect(
      addressedNames(
        'Hey Mel! Wow, that is cool, Caroline! Thanks, Melanie. Maria, look. Well, honestly, no. Thanks, guys!',
      ),
    ).toEqual(['Mel', 'Caroline', 'Melanie', 'Maria'])
  })

  it('does not take the second part of a place for a vocative', () => {
    expect(addressedNames('We moved to Portland, Oregon. It rains a lot, Jon!')).toEqual(['Jon'])
  })
})

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

describe('restoreDroppedSubject', () => {
  it.each([
    ['Dyed my hair last week - come see!', 'I dyed my hair last week - come see!'],
    ['Glad to be part of it.', "I'm glad to be part of it."],
    ['So excited!', "I'm so excited!"],
    ["Can't wait for tomorrow's grand opening!", "I can't wait for tomorrow's grand opening!"],
    ['Still working on opening a dance studio.', "I'm still working on opening a dance studio."],
    ['Gonna continue my edu.', "I'm gonna continue my edu."],
    ['Love that purple color!', 'I love that purple color!'],
    ['Been running longer since our last chat.', "I've been running longer since our last chat."],
    [
      'Researching adoption agencies — it has been a dream.',
      "I'm researching adoption agencies — it has been a dream.",
    ],
    ['Just got back from Paris.', 'I just got back from Paris.'],
  ])('restores the subject of %j', (sentence, restored) => {
    expect(restoreDroppedSubject(sentence)).toBe(restored)
  })

  it.each([
    'Check out my painting!',
    'Taking care of ourselves is vital.',
    "Taking in kids in need - you're so kind.",
    'Seeing the impact fills me with joy.',
    'Made me think about it.',
    'Jared went home.',
    'Did you see it?',
    'The colors blend nicely.',
  ])('leaves %j alone', (sentence) => {
    expect(restoreDroppedSubject(sentence)).toBe(sentence)
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
