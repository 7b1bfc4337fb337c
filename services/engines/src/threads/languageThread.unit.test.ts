import { afterAll, describe, expect, it } from 'vitest'
import { createBuiltinExtractor, summarizeExtractively, type ExtractionInput } from '@memory-service/domain'
import { createLogger } from '../logging/createLogger.js'
import { createLanguageThread } from './languageThread.js'

const input: ExtractionInput = {
  text: 'Caroline: I moved to Lisbon last week and I started learning Portuguese.\nMelanie: That is great!',
  documentType: 'ai-chat-conversation',
  documentCreatedAt: '2024-05-08T10:00:00Z',
  mode: 'fast',
}

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

  it('extracts a waiting document before a waiting summary', async () => {
    const turns = Array.from({ length: 300 }, (_, index) => ({
      role: 'user',
      content: `On day ${index} I walked ${index + 2} km along the river in Porto with my dog Pipoca.`,
      occurred_at: '2024-05-08T10:00:00Z',
    }))
    const request = { previousSummary: null, turns, maxTokens: 4000 }
    const finished: string[] = []
    const first = thread.summarizeExtractively(request).then(() => finished.push('first summary'))
    const second = thread.summarizeExtractively(request).then(() => finished.push('second summary'))
    const document = thread.extractor.extract(input).then(() => finished.push('document'))
    await Promise.all([first, second, document])
    expect(finished).toEqual(['first summary', 'document', 'second summary'])
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
