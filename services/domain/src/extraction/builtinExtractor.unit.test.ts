import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  createBuiltinExtractor,
  extractStatements,
  extractStatementsInSlices,
  MAX_STATEMENT_CONTENT,
} from './builtinExtractor.js'
import type { ExtractedStatement, IngestionMode } from './extraction.js'
import { validateExtractionResult } from './validateExtraction.js'

interface FixtureTurn {
  sample_id: string
  session: number
  session_date_time: string
  document_created_at: string
  dia_id: string
  speaker: string
  text: string
  blip_caption?: string
  is_evidence: boolean
}

const fixture = JSON.parse(
  readFileSync(new URL('./test/fixtures/locomo-turns.json', import.meta.url), 'utf8'),
) as { source: string; turns: FixtureTurn[] }

/** One turn as the LoCoMo evaluation ingests it: "<speaker>: <text>", a shared photo as a stage direction. */
const documentOf = (turn: { speaker: string; text: string; blip_caption?: string }) =>
  `${turn.speaker}: ${turn.text}${turn.blip_caption ? ` [shares a photo: ${turn.blip_caption}]` : ''}`

const extractTurn = (turn: FixtureTurn, mode: IngestionMode = 'fast') =>
  extractStatements({
    text: documentOf(turn),
    documentType: 'ai-chat-conversation',
    documentCreatedAt: turn.document_created_at,
    mode,
  })

function fixtureTurn(sampleId: string, diaId: string): FixtureTurn {
  const turn = fixture.turns.find(
    (candidate) => candidate.sample_id === sampleId && candidate.dia_id === diaId,
  )
  if (!turn) throw new Error(`fixture has no turn ${sampleId} ${diaId}`)
  return turn
}

const contents = (statements: readonly ExtractedStatement[]) =>
  statements.map((statement) => statement.content)

describe('the built-in extractor on LoCoMo turns', () => {
  it('makes a self-contained, dated memory of an event told in first person', () => {
    // "I went to a LGBTQ support group yesterday and it was so powerful." — Caroline, 8 May 2023
    const [statement, ...rest] = extractTurn(fixtureTurn('conv-26', 'D1:3'))
    expect(rest).toEqual([])
    expect(statement).toMatchObject({
      content: 'Caroline went to a LGBTQ support group yesterday (7 May 2023) and it was so powerful.',
      speaker: 'Caroline',
      occurredOn: '2023-05-07',
      relations: [],
    })
    expect(statement?.entities).toEqual([
      { name: 'Caroline', type: 'person' },
      { name: 'LGBTQ', type: 'other' },
      { name: '7 May 2023', type: 'date' },
    ])
    // A dated happening is a temporal_event: "when did Caroline go…" is the question it answers. The feeling it
    // caused ("so powerful") competes, so the confidence is below a single clear cue's 0.9.
    expect(statement?.category?.type).toBe('temporal_event')
    expect(statement?.category?.confidence).toBeLessThan(0.9)
  })

  it('yields nothing for greetings, thanks and questions that only ask', () => {
    const silent = fixture.turns.filter((turn) => extractTurn(turn).length === 0).map((turn) => turn.dia_id)
    expect(silent).toEqual(['D1:1', 'D1:4', 'D1:8', 'D1:10', 'D1:13', 'D7:21', 'D17:1'])
  })

  it('yields a statement for every other evidence turn of the fixture', () => {
    const pureQuestionsOrGreetings = new Set(['D7:21', 'D17:1'])
    for (const turn of fixture.turns.filter((candidate) => candidate.is_evidence)) {
      if (pureQuestionsOrGreetings.has(turn.dia_id)) continue
      expect(extractTurn(turn).length, `${turn.sample_id} ${turn.dia_id}: ${turn.text}`).toBeGreaterThan(0)
    }
  })

  it('names the speaker in every statement and keeps each within the size limit', () => {
    for (const turn of fixture.turns) {
      for (const statement of extractTurn(turn)) {
        expect(statement.speaker).toBe(turn.speaker)
        expect(statement.content).toContain(turn.speaker)
        expect(statement.content.length).toBeLessThanOrEqual(MAX_STATEMENT_CONTENT)
      }
    }
  })

  it('restores dropped subjects and resolves dates', () => {
    expect(contents(extractTurn(fixtureTurn('conv-42', 'D7:1')))).toEqual([
      'Nate dyed their hair last week (the week of 4 April 2022) - come see!',
    ])
    expect(contents(extractTurn(fixtureTurn('conv-30', 'D15:3')))).toEqual([
      'Jon is still working on opening a dance studio.',
    ])
    expect(extractTurn(fixtureTurn('conv-26', 'D1:14'))[0]).toMatchObject({
      content: "Melanie painted that lake sunrise last year (2022)! It's special to Melanie.",
      occurredOn: '2022-01-01',
    })
  })

  it('keeps what a turn says about the speaker and drops the small talk around it', () => {
    expect(contents(extractTurn(fixtureTurn('conv-26', 'D1:2')))).toEqual([
      'Melanie is swamped with the kids & work.',
    ])
    expect(contents(extractTurn(fixtureTurn('conv-26', 'D2:7')))).toEqual([
      "It's still a work in progress, but Melanie is doing their best.",
      "Melanie's kids are so excited about summer break!",
      "Melanie said: We're thinking about going camping next month (June 2023).",
    ])
  })

  it('turns a shared photo into a statement of its own', () => {
    expect(contents(extractTurn(fixtureTurn('conv-26', 'D1:12')))).toContain(
      'Melanie shares a photo: a photo of a painting of a sunset over a lake',
    )
  })

  it('returns output that passes the pipeline validation, in both modes', () => {
    for (const mode of ['fast', 'long-range'] as const) {
      for (const turn of fixture.turns) {
        const result = { statements: extractTurn(turn, mode) }
        expect(validateExtractionResult(result), `${turn.dia_id} ${mode}`).toEqual({ result })
      }
    }
  })

  it('finds relations in long-range mode only', () => {
    const turn = fixtureTurn('conv-26', 'D9:2')
    expect(extractTurn(turn, 'fast').flatMap((statement) => statement.relations)).toEqual([])
    expect(extractTurn(turn, 'long-range').flatMap((statement) => statement.relations)).toEqual([
      { from: 'Caroline', to: 'LGBTQ', type: 'joined' },
    ])
  })
})

const chat = (text: string, mode: IngestionMode = 'fast', documentCreatedAt = '2024-03-14T09:30:00+01:00') =>
  extractStatements({ text, documentType: 'ai-chat-conversation', documentCreatedAt, mode })

describe('the built-in extractor', () => {
  it('joins a follow-up sentence to the one it continues', () => {
    expect(contents(chat('Ana: I went to a pottery class yesterday. It was so relaxing. Wow!'))).toEqual([
      'Ana went to a pottery class yesterday (13 March 2024). It was so relaxing.',
    ])
  })

  it('resolves he/she/they to the one person just mentioned in long-range mode, and leaves them in fast mode', () => {
    const text = 'Caroline: My friend Anna came over yesterday. She brought cookies.'
    expect(contents(chat(text, 'fast'))).toEqual([
      "Caroline's friend Anna came over yesterday (13 March 2024). She brought cookies.",
    ])
    expect(contents(chat(text, 'long-range'))).toEqual([
      "Caroline's friend Anna came over yesterday (13 March 2024). Anna brought cookies.",
    ])
    expect(contents(chat('Caroline: Anna and Tom visited. They brought cookies.', 'long-range'))).toEqual([
      'Caroline said: Anna and Tom visited. Anna and Tom brought cookies.',
    ])
    // Two candidates: no guess.
    expect(contents(chat('Caroline: I met Anna and Maria downtown. She was late.', 'long-range'))).toEqual([
      'Caroline met Anna and Maria downtown. She was late.',
    ])
  })

  it('labels relations by their verb and links the speaker to what they did', () => {
    const [statement] = chat('Caroline: I moved to Sweden last year.', 'long-range')
    expect(statement).toMatchObject({
      content: 'Caroline moved to Sweden last year (2023).',
      occurredOn: '2023-01-01',
      relations: [{ from: 'Caroline', to: 'Sweden', type: 'moved_to' }],
    })
  })

  it('keeps a question that carries news of the asker and drops one that only asks', () => {
    const statements = chat(
      'Caroline: Have you seen the painting I made last week? How was your weekend? What got you into running?',
      'fast',
      '2023-05-08T13:56:00Z',
    )
    expect(contents(statements)).toEqual([
      'Have you seen the painting Caroline made last week (the week of 1 May 2023)?',
    ])
    expect(statements[0]?.occurredOn).toBe('2023-05-01')
  })

  it('keeps one of two statements that say the same thing', () => {
    expect(
      contents(chat('Nate: I love coconut milk ice cream. Honestly, I love coconut milk ice cream!')),
    ).toEqual(['Nate loves coconut milk ice cream.'])
  })

  it('records the speaker as an entity of what "we" did, and only then', () => {
    const [we, about] = chat("Ana: We're going camping next month. The forecast looks fantastic for hiking.")
    expect(we?.content).toBe("Ana said: We're going camping next month (April 2024).")
    expect(we?.entities).toEqual([
      { name: 'Ana', type: 'person' },
      { name: 'April 2024', type: 'date' },
    ])
    expect(about?.entities).toEqual([])
  })

  it('reads an email as its sender speaking, without quoted reply or signature', () => {
    const email = [
      'From: Priya Raman <priya.raman@example.com>',
      'To: Tom Becker <tom@example.com>',
      'Subject: Re: Lisbon offsite',
      '',
      'Hi Tom,',
      '',
      "Thanks for the notes. I booked the venue in Lisbon for June 12 and I'll send the agenda next week.",
      'My manager, Dr. Alvarez, approved the budget yesterday.',
      '',
      'Best,',
      'Priya',
      '',
      'On Tue, Mar 12, 2024 at 5:01 PM Tom Becker <tom@example.com> wrote:',
      '> I think Porto works too.',
    ].join('\n')
    const statements = extractStatements({
      text: email,
      documentType: 'email',
      documentCreatedAt: '2024-03-14T09:30:00+01:00',
      mode: 'long-range',
    })
    expect(statements.map(({ content, occurredOn }) => ({ content, occurredOn }))).toEqual([
      { content: 'Priya Raman sent an email about Lisbon offsite.', occurredOn: null },
      {
        content:
          "Priya Raman booked the venue in Lisbon for June 12 (12 June 2024) and they'll send the agenda next week (the week of 18 March 2024).",
        occurredOn: '2024-06-12',
      },
      {
        content: "Priya Raman's manager, Dr. Alvarez, approved the budget yesterday (13 March 2024).",
        occurredOn: '2024-03-13',
      },
    ])
    expect(statements.every((statement) => statement.speaker === 'Priya Raman')).toBe(true)
    expect(statements[1]?.entities).toContainEqual({ name: 'Lisbon', type: 'location' })
    expect(statements[1]?.relations).toContainEqual({ from: 'Priya Raman', to: 'Lisbon', type: 'booked' })
    expect(statements[2]?.entities).toContainEqual({ name: 'Dr. Alvarez', type: 'person' })
    expect(contents(statements).join(' ')).not.toContain('Porto')
  })

  it('reads a meeting transcript turn by turn', () => {
    const transcript = [
      '[09:00] **Dana (PM)**: Morning all. Quick sync on the launch.',
      '[09:01] Luis: I finished the migration to the new database last night. It took four hours.',
      "[09:02] Dana (PM): Great. I'm meeting the Acme Corp team on Thursday to walk them through the demo.",
      'We also need a decision on pricing.',
      '[09:03] Mei: I will draft the pricing page tomorrow.',
      '[09:04] Luis: Sounds good!',
    ].join('\n')
    const statements = extractStatements({
      text: transcript,
      documentType: 'meeting-transcript',
      documentCreatedAt: '2024-03-14T09:00:00+01:00',
      mode: 'fast',
    })
    expect(statements.map(({ speaker, content, occurredOn }) => ({ speaker, content, occurredOn }))).toEqual([
      { speaker: 'Dana', content: 'Dana said: Quick sync on the launch.', occurredOn: null },
      {
        speaker: 'Luis',
        content:
          'Luis finished the migration to the new database last night (13 March 2024). It took four hours.',
        occurredOn: '2024-03-13',
      },
      {
        speaker: 'Dana',
        content:
          'Dana is meeting the Acme Corp team on Thursday (21 March 2024) to walk them through the demo.',
        occurredOn: '2024-03-21',
      },
      { speaker: 'Dana', content: 'Dana said: We also need a decision on pricing.', occurredOn: null },
      {
        speaker: 'Mei',
        content: 'Mei will draft the pricing page tomorrow (15 March 2024).',
        occurredOn: '2024-03-15',
      },
    ])
    expect(statements[2]?.entities).toContainEqual({ name: 'Acme Corp', type: 'organization' })
    expect(statements[2]?.category?.type).toBe('temporal_event')
  })

  it('keeps the first person of a note that has no speaker', () => {
    const statements = extractStatements({
      text: 'I need to call the dentist on Monday about my crown.\n\nThe plumber fixed the sink in 2019.',
      documentType: 'note',
      documentCreatedAt: '2024-03-14T09:00:00Z',
      mode: 'fast',
    })
    expect(statements.map(({ content, speaker, occurredOn }) => ({ content, speaker, occurredOn }))).toEqual([
      {
        content: 'I need to call the dentist on Monday (11 March 2024) about my crown.',
        speaker: null,
        occurredOn: '2024-03-11',
      },
      { content: 'The plumber fixed the sink in 2019.', speaker: null, occurredOn: '2019-01-01' },
    ])
  })

  it('cuts a run-on monologue into statements within the size limit', () => {
    const runOn = `Sam: ${Array.from({ length: 60 }, (_, index) => `I planted tomato bed ${index} in the garden`).join(' and ')}`
    const statements = chat(runOn)
    expect(statements.length).toBeGreaterThan(3)
    for (const statement of statements)
      expect(statement.content.length).toBeLessThanOrEqual(MAX_STATEMENT_CONTENT)
  })

  it('yields nothing for an empty or filler-only document', () => {
    expect(chat('')).toEqual([])
    expect(chat('Gina: ;)')).toEqual([])
    expect(chat('Tim: Thanks! Talk to you soon!')).toEqual([])
  })

  it('is an Extractor named builtin that honours an aborted signal', async () => {
    const extractor = createBuiltinExtractor()
    expect(extractor.name).toBe('builtin')
    const input = {
      text: 'Caroline: I moved to Sweden.',
      documentType: 'ai-chat-conversation',
      documentCreatedAt: '2023-05-08T13:56:00Z',
      mode: 'fast' as const,
    }
    const result = await extractor.extract(input)
    expect(result.usage).toBeUndefined()
    expect(contents(result.statements)).toEqual(['Caroline moved to Sweden.'])
    const controller = new AbortController()
    controller.abort()
    await expect(extractor.extract(input, controller.signal)).rejects.toThrow()
  })
})

const extractChat = (text: string) =>
  contents(
    extractStatements({
      text,
      documentType: 'ai-chat-conversation',
      documentCreatedAt: '2024-03-15T00:00:00Z',
      mode: 'fast',
    }),
  )

describe('the built-in extractor on conversations with an assistant', () => {
  it('keeps what a user asks an assistant, which between friends would be small talk', () => {
    expect(extractChat('User: hmm, what happens if the user makes rapid consecutive calls?')).toEqual([
      'User asked: What happens if the user makes rapid consecutive calls?',
    ])
    expect(extractChat('Melanie: What made you try it?')).toEqual([])
  })

  it('reads a named person talking to an assistant as that person, and no courtesy of the assistant', () => {
    const chat = [
      "Priya: I've been in Leeds for two years now.",
      'Assistant: That sounds good, tell me more.',
      'Priya: I made a lasagna on Sunday and it was great.',
      'Assistant: Got it, thanks for sharing.',
    ].join('\n')
    expect(extractChat(chat)).toEqual([
      'Priya has been in Leeds for two years now.',
      'Priya made a lasagna on Sunday (10 March 2024) and it was great.',
    ])
  })

  it("keeps an assistant's short reply that is about something, though it names nothing", () => {
    const chat = [
      'User: For the garden I now plan a small wildlife pond by the hedge.',
      'Assistant: A pond needs a sunny spot and a shallow edge for frogs.',
    ].join('\n')
    expect(extractChat(chat).some((statement) => statement.includes('sunny spot'))).toBe(true)
  })

  it("keeps a preference told inside a user's request as a statement of its own", () => {
    const request =
      "User: I'm sketching a garden planner, and I'd rather keep it to plain HTML and CSS, so could you outline the first page?"
    expect(extractChat(request)).toContain('The user would rather keep it to plain HTML and CSS.')
  })

  it('makes a list one statement led by its heading, and skips code', () => {
    const message = [
      "User: Sure, let's break it down for my budget tracker project.",
      '',
      '### Components:',
      '1. **User Authentication**',
      '   - Registration',
      '   - Login',
      '2. **Transaction Management**',
      '',
      '```python',
      'def login(): pass',
      '```',
    ].join('\n')
    expect(extractChat(message)).toEqual([
      "User said: Let's break it down for the user's budget tracker project.",
      'Components: User Authentication (Registration, Login); Transaction Management.',
    ])
  })

  it("keeps a few statements of an assistant's long answer: its opening, advice and conclusion", () => {
    const steps = Array.from(
      { length: 12 },
      (_, index) => `### Step ${String(index + 1)}\nA loop is a construct number ${String(index + 1)}.`,
    )
    const answer = [
      'Assistant: Certainly! Handling API rate limits needs a counter per minute and per day.',
      ...steps,
      'I recommend exponential backoff with at most 3 retries for your weather app.',
      'Feel free to ask if you have more questions!',
    ].join('\n\n')
    const kept = extractChat(answer)
    expect(kept).toHaveLength(3)
    expect(kept[0]).toBe('Assistant said: Handling API rate limits needs a counter per minute and per day.')
    expect(kept).toContain(
      'Assistant recommends exponential backoff with at most 3 retries for your weather app.',
    )
  })
})

const datasetUrl = new URL('../../../../../shared/eval/locomo/locomo-dev.json', import.meta.url)
const hasDataset = existsSync(datasetUrl)
if (!hasDataset) {
  console.info(
    `LoCoMo coverage test skipped: ${fileURLToPath(datasetUrl)} is absent (only the fixture is in the repository).`,
  )
}

const monthIndex: Record<string, number> = Object.fromEntries(
  [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ].map((month, index) => [month, index]),
)

/** "1:56 pm on 8 May, 2023" → ISO, as the evaluation script sends it. */
function sessionTime(dateTime: string): string {
  const match = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(dateTime)
  if (!match) throw new Error(`unreadable session time ${dateTime}`)
  const hour = (Number(match[1]) % 12) + (match[3]?.toLowerCase() === 'pm' ? 12 : 0)
  const month = monthIndex[match[5]?.toLowerCase() ?? ''] ?? 0
  return new Date(Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2]))).toISOString()
}

interface LocomoSample {
  sample_id: string
  conversation: Record<string, unknown>
  qa: { evidence?: unknown[] }[]
}

describe.skipIf(!hasDataset)('coverage over all LoCoMo dev conversations', () => {
  it('yields a statement for at least 97% of the turns that QA evidence points to', () => {
    const samples = JSON.parse(readFileSync(datasetUrl, 'utf8')) as LocomoSample[]
    let turns = 0
    let yielding = 0
    let evidenceTurns = 0
    let evidenceYielding = 0
    let elapsed = 0
    for (const sample of samples) {
      const evidence = new Set(
        sample.qa.flatMap((qa) => (qa.evidence ?? []).flatMap((item) => String(item).split(/[;,\s]+/))),
      )
      for (const [key, session] of Object.entries(sample.conversation)) {
        if (!/^session_\d+$/.test(key) || !Array.isArray(session)) continue
        const documentCreatedAt = sessionTime(String(sample.conversation[`${key}_date_time`]))
        for (const turn of session as {
          speaker: string
          dia_id: string
          text: string
          blip_caption?: string
        }[]) {
          const started = performance.now()
          const statements = extractStatements({
            text: documentOf(turn),
            documentType: 'ai-chat-conversation',
            documentCreatedAt,
            mode: 'fast',
          })
          elapsed += performance.now() - started
          turns++
          if (statements.length > 0) yielding++
          if (evidence.has(turn.dia_id)) {
            evidenceTurns++
            if (statements.length > 0) evidenceYielding++
          }
        }
      }
    }
    const evidenceShare = evidenceYielding / evidenceTurns
    console.info(
      `LoCoMo dev: ${turns} turns, ${((100 * yielding) / turns).toFixed(1)}% yield a statement; ` +
        `${evidenceTurns} evidence turns, ${(100 * evidenceShare).toFixed(1)}% yield one; ` +
        `${Math.round(turns / (elapsed / 1000))} turns/s`,
    )
    expect(evidenceShare).toBeGreaterThanOrEqual(0.97)
  })
})

describe('reading a long document in time slices', () => {
  // Two hundred LoCoMo turns as one conversation: the size of a compacted span.
  const conversation = {
    text: fixture.turns
      .slice(0, 200)
      .map((turn) => documentOf(turn))
      .join('\n'),
    documentType: 'ai-chat-conversation' as const,
    documentCreatedAt: '2023-05-08T13:56:00.000Z',
    mode: 'fast' as const,
  }
  const tickingClock = () => {
    let at = 0
    return () => (at += 1)
  }

  it('finds what reading it at once finds, pausing in between', async () => {
    let pauses = 0
    const sliced = await extractStatementsInSlices(conversation, {
      sliceMs: 5,
      now: tickingClock(),
      pause: async () => void (pauses += 1),
    })
    expect(sliced).toEqual(extractStatements(conversation))
    expect(sliced.length).toBeGreaterThan(50)
    expect(pauses).toBeGreaterThan(10)
  })

  it('stops reading when the extraction is aborted between slices', async () => {
    const abort = new AbortController()
    let pauses = 0
    const reading = extractStatementsInSlices(conversation, {
      sliceMs: 5,
      now: tickingClock(),
      pause: async () => {
        pauses += 1
        if (pauses === 2) abort.abort(new Error('visibility timeout'))
      },
      signal: abort.signal,
    })
    await expect(reading).rejects.toThrow('visibility timeout')
    expect(pauses).toBe(2)
  })
})
