import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { createBuiltinExtractor, summarizeExtractively, type ExtractionInput } from '@memory-service/domain'
import { createLogger } from '../logging/createLogger.js'
import { createLanguageThread, LANGUAGE_THREAD_NICENESS } from './languageThread.js'

const input: ExtractionInput = {
  text: 'Caroline: I moved to Lisbon last week and I started learning Portuguese.\nMelanie: That is great!',
  documentType: 'ai-chat-conversation',
  documentCreatedAt: '2024-05-08T10:00:00Z',
  mode: 'fast',
}

/** Niceness of each thread of this process (field 19 of /proc/self/task/<tid>/stat). */
const threadNiceness = () =>
  readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
  })

describe('the built-in language work on a thread of its own', () => {
  const thread = createLanguageThread(createLogger({ level: 'silent', name: 'test' }))
  afterAll(() => thread.close())

  it('extracts what the extractor extracts on the caller thread', async () => {
    expect(await thread.extractor.extract(input)).toEqual(await createBuiltinExtractor().extract(input))
  })

  it('writes the extractive summary the domain writes on the caller thread', async () => {
    const request = {
      previousSummary: 'Caroline lives in Lisbon.',
      turns: [
        {
          role: 'user',
          content: 'I adopted a cat named Pipoca yesterday.',
          occurred_at: '2024-05-08T10:00:00Z',
        },
        { role: 'assistant', content: 'Congratulations!', occurred_at: '2024-05-08T10:00:05Z' },
      ],
      maxTokens: 200,
    }
    expect(await thread.summarizeExtractively(request)).toEqual(summarizeExtractively(request))
  })

  it.runIf(process.platform === 'linux')('runs below the priority of the threads beside it', async () => {
    await thread.extractor.extract(input)
    expect(threadNiceness()).toContain(LANGUAGE_THREAD_NICENESS)
    expect(Math.min(...threadNiceness())).toBe(0)
  })

  it('starts again after it was closed, and answers an aborted call with its reason', async () => {
    await thread.close()
    expect((await thread.extractor.extract(input)).statements.length).toBeGreaterThan(0)
    const controller = new AbortController()
    const pending = thread.extractor.extract(input, controller.signal)
    controller.abort(new Error('the document was cancelled'))
    await expect(pending).rejects.toThrow('the document was cancelled')
  })
})
