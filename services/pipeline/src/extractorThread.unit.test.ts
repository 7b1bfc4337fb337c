import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { createBuiltinExtractor, type ExtractionInput } from '@memory-service/domain'
import { createLogger } from '@memory-service/engines'
import { createExtractorThread, EXTRACTION_NICENESS } from './extractorThread.js'

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

describe('the built-in extractor on a thread of its own', () => {
  const thread = createExtractorThread(createLogger({ level: 'silent', name: 'test' }))
  afterAll(() => thread.close())

  it('extracts what the extractor extracts on the caller thread', async () => {
    expect(await thread.extract(input)).toEqual(await createBuiltinExtractor().extract(input))
  })

  it.runIf(process.platform === 'linux')('runs below the priority of the threads beside it', async () => {
    await thread.extract(input)
    expect(threadNiceness()).toContain(EXTRACTION_NICENESS)
    expect(Math.min(...threadNiceness())).toBe(0)
  })

  it('starts again after it was closed, and answers an aborted call with its reason', async () => {
    await thread.close()
    expect((await thread.extract(input)).statements.length).toBeGreaterThan(0)
    const controller = new AbortController()
    const pending = thread.extract(input, controller.signal)
    controller.abort(new Error('the document was cancelled'))
    await expect(pending).rejects.toThrow('the document was cancelled')
  })
})
