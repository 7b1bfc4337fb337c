import { describe, expect, it } from 'vitest'
import { splitTurns } from './turnSplitting.js'

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

  it('reads a bold label among plainly labelled speakers as a heading of the message, not a speaker', () => {
    const chat = [
      'Priya: Here is my Monday:',
      '**Activity**: Meeting with Laura',
      '**Time**: 10:30 AM',
      'Can you check it for conflicts?',
      'Assistant: No conflicts.',
    ].join('\n')
    expect(splitTurns(chat, 'ai-chat-conversation').map(({ speaker }) => speaker)).toEqual([
      'Priya',
      'Assistant',
    ])
    // The same words as a speaker's plain label elsewhere make it a speaker.
    expect(
      splitTurns('Ana: Hi.\n**Ben**: Hello.\nBen: How are you?', 'human-chat-conversation').map(
        ({ speaker }) => speaker,
      ),
    ).toEqual(['Ana', 'Ben', 'Ben'])
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

  it('reads "Word:" lines inside a role-labelled message and lines of code as that message, not new speakers', () => {
    const text = [
      'Assistant: Here is the plan.',
      'Action: book the venue',
      '```',
      'Traceback: line 25',
      '```',
      'User: Thanks!',
    ].join('\n')
    expect(splitTurns(text, 'ai-chat-conversation').map(({ speaker, text }) => ({ speaker, text }))).toEqual([
      {
        speaker: 'Assistant',
        text: 'Here is the plan.\nAction: book the venue\n```\nTraceback: line 25\n```',
      },
      { speaker: 'User', text: 'Thanks!' },
    ])
  })

  it('reads a named person talking to an assistant as that person, turn by turn', () => {
    const text = [
      'Priya: I have been in Leeds for two years.',
      'Assistant: That sounds good, tell me more.',
      'Priya: I made a lasagna on Sunday.',
      'Assistant: Got it.',
    ].join('\n')
    expect(splitTurns(text, 'ai-chat-conversation').map(({ speaker, text }) => ({ speaker, text }))).toEqual([
      { speaker: 'Priya', text: 'I have been in Leeds for two years.' },
      { speaker: 'Assistant', text: 'That sounds good, tell me more.' },
      { speaker: 'Priya', text: 'I made a lasagna on Sunday.' },
      { speaker: 'Assistant', text: 'Got it.' },
    ])
  })

  it('reads an assistant with a name of its own as the assistant when its label says so', () => {
    const text = 'Priya: I moved to Leeds.\nNova (assistant): Welcome!\nMax [AI]: Hi.'
    expect(splitTurns(text, 'ai-chat-conversation').map(({ speaker }) => speaker)).toEqual([
      'Priya',
      'Assistant',
      'Assistant',
    ])
  })

  it('keeps a name labelling one line inside an assistant message part of it', () => {
    const text =
      'Assistant: Here is the plan.\nBackend: Node with Fastify\nPriya: Thanks!\nPriya: Also, one more thing.'
    expect(splitTurns(text, 'ai-chat-conversation').map(({ speaker, text }) => ({ speaker, text }))).toEqual([
      { speaker: 'Assistant', text: 'Here is the plan.\nBackend: Node with Fastify' },
      { speaker: 'Priya', text: 'Thanks!' },
      { speaker: 'Priya', text: 'Also, one more thing.' },
    ])
  })
})
