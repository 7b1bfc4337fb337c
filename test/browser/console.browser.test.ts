/**
 * The console in a real browser (headless Chromium from the system, driven by playwright-core) against the real
 * stack: a gateway with the pipeline and projectors, usage seeded through Kafka, a document ingested through the API.
 * Every number the console shows is checked against the API's own answer; each page is screenshotted into
 * test-results/console/ and checked with axe-core (no serious or critical violation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { parquetReadObjects } from 'hyparquet'
import {
  allPermissions,
  USAGE_SUBJECT,
  USAGE_TOPIC,
  usageEvent,
  usageRecordedSchema,
  type OutgoingEvent,
} from '@memory-service/domain'
import { createEventProducer } from '@memory-service/log'
import type {
  UserProfile,
  AnalyticsLatencyResponse,
  AnalyticsSummaryResponse,
  ConversationContext,
  CreatedInstance,
  IngestionStatus,
} from '@memory-service/contracts'
import { findChromium } from '../support/browser.js'
import { request } from '../support/http.js'
import { eventually, startGatewayWithInstance } from '../support/testEngines.js'

const executablePath = findChromium()
if (!executablePath) {
  console.warn(
    '[browser] console suite skipped: no Chromium on this machine (apt-get install chromium, or set CHROMIUM_PATH)',
  )
}

const artifacts = 'test-results/console'
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const hour = 3_600_000
const conversationId = 'console-conversation-1'
const transcript: ['user' | 'assistant', string][] = [
  ['user', 'Can you remind me what time the pottery class starts on Thursday?'],
  ['assistant', 'It starts at 6 pm at the studio on Rua das Flores.'],
  ['user', 'Thanks, I will bring the glazes I bought in Porto.'],
]
const currentHour = Math.floor(Date.now() / hour) * hour

let harness: Awaited<ReturnType<typeof startGatewayWithInstance>> | undefined
let instance: CreatedInstance
let reviewerKey: string
let readOnlyKey: string
let baseUrl: string
let ingestionId: string
let browser: Browser | undefined
let context: BrowserContext
let page: Page

/** A call the test needs to succeed: the API's answer, or an error naming the status and body. */
async function api<T>(
  method: string,
  path: string,
  json?: unknown,
  apiKey = instance.api_key.key,
): Promise<T> {
  const response = await request<T>(baseUrl, method, path, { apiKey, json })
  if (response.status >= 300 || response.body === null) {
    throw new Error(`${method} ${path}: ${String(response.status)} ${response.text}`)
  }
  return response.body
}

async function signIn(key: string): Promise<void> {
  await page.goto(`${baseUrl}/console/`)
  await page.evaluate('sessionStorage.clear()')
  await page.reload()
  await page.getByLabel('API key').fill(key)
  await page.getByLabel('API key').press('Enter')
  await page.getByRole('navigation', { name: 'Console pages' }).waitFor()
}

/** Screenshot (a test artifact, not committed) and axe-core: no serious or critical accessibility violation. */
async function checkPage(name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true })
  await page.screenshot({ path: `${artifacts}/${name}.png`, fullPage: true })
  await page.evaluate(axeSource)
  const violations = await page.evaluate<{ id: string; impact: string | null; targets: string[] }[]>(`
    axe
      .run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] })
      .then((result) => result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        targets: violation.nodes.slice(0, 3).map((node) => JSON.stringify(node.target)),
      })))
  `)
  expect(
    violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'),
    name,
  ).toEqual([])
}

describe.skipIf(!executablePath)('the console in Chromium', () => {
  beforeAll(async () => {
    harness = await startGatewayWithInstance('console', { withWorkers: true })
    instance = harness.instance
    baseUrl = harness.gateway.addresses.http ?? ''
    const instanceId = instance.instance.instance_id
    reviewerKey = (await harness.tenancy.issueKey(instanceId, allPermissions, 'console-browser')).key
    readOnlyKey = (
      await harness.tenancy.issueKey(
        instanceId,
        ['instances:read', 'memories:read', 'analytics:read', 'configs:read', 'webhooks:read'],
        'console-browser',
      )
    ).key
    for (const key of [reviewerKey, readOnlyKey]) await harness.untilUsable(key)

    // Usage: 40 context fetches this hour (latencies 1..40 ms) and 20 the hour before (101..120 ms).
    await harness.codec.register([{ subject: USAGE_SUBJECT, schema: usageRecordedSchema }])
    const producer = await createEventProducer(harness.kafka, harness.codec)
    const events: OutgoingEvent[] = []
    for (let index = 1; index <= 60; index += 1) {
      const inThisHour = index <= 40
      events.push(
        usageEvent(
          {
            instanceId,
            metric: 'context_fetch',
            value: 1,
            measuredBy: `console-browser-${String(index)}`,
            occurredAt: new Date(currentHour - (inThisHour ? 0 : hour) + index * 1000).toISOString(),
            latencyMs: inThisHour ? index : 60 + index,
            dimensions: { user_id: 'seeded-user' },
          },
          'console-browser',
        ),
      )
    }
    await producer.append(USAGE_TOPIC, events)
    await producer.close()

    await api('POST', `/instances/${instanceId}/memory-architecture/init`)
    // A conversation, and ten context fetches through the API: usage the API itself records, beside the seeded.
    await api('POST', `/v1/conversations/${conversationId}/transcript`, {
      user_id: 'ana',
      messages: transcript.map(([role, content]) => ({ role, content })),
    })
    await eventually(async () => {
      const context = await api<ConversationContext>(
        'GET',
        `/v1/conversations/${conversationId}/context?user_id=ana`,
      )
      return context.recent_turns.length === transcript.length ? context : undefined
    }, 60_000)
    for (let index = 0; index < 9; index += 1)
      await api('GET', `/v1/conversations/${conversationId}/context?user_id=ana&max_tokens=500`)
    ingestionId = (
      await api<{ ingestion_id: string }>('POST', '/v1/memories', {
        document:
          'User: I moved to Lisbon last spring and I work as a nurse at Santa Maria hospital.\nAssistant: Lisbon suits you!',
        document_type: 'ai-chat-conversation',
        mode: 'fast',
        user_id: 'ana',
      })
    ).ingestion_id
    await eventually(async () => {
      const job = await api<IngestionStatus>('GET', `/v1/memories/${ingestionId}/status`)
      return job.status === 'completed' ? job : undefined
    }, 60_000)
    // The seeded fetches are projected into ClickHouse before any page reads them.
    await eventually(async () => {
      const summary = await api<AnalyticsSummaryResponse>(
        'GET',
        `/v1/analytics/summary?instance_id=${instanceId}&period=24h`,
      )
      return summary.context_fetches.total >= 70 ? summary : undefined
    }, 60_000)

    browser = await chromium.launch({ executablePath: executablePath ?? undefined, args: ['--no-sandbox'] })
    // axe-core is injected by the test; the console's own CSP allows no script but its own.
    context = await browser.newContext({
      viewport: { width: 1366, height: 900 },
      bypassCSP: true,
      acceptDownloads: true,
    })
    page = await context.newPage()
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await harness?.close()
  })

  it('signs in with a pasted key, by keyboard, and keeps the key out of the URL and localStorage', async () => {
    await page.goto(`${baseUrl}/console`)
    expect(page.url()).toBe(`${baseUrl}/console/`)
    await checkPage('sign-in')
    await page.getByLabel('API key').fill('msk_0000000000000000_not-a-real-key-at-all-00000000000000000')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('UNAUTHORIZED')

    await signIn(instance.api_key.key)
    expect(page.url()).not.toContain(instance.api_key.key)
    expect(await page.evaluate<string>('JSON.stringify(localStorage)')).not.toContain('msk_')
    expect(await page.evaluate<string | null>("sessionStorage.getItem('memory-service.console.key')")).toBe(
      instance.api_key.key,
    )
    // Keyboard only: tab to the Usage link and follow it.
    await page.getByRole('link', { name: 'Overview' }).focus()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.url()).toMatch(/#\/usage$/)
  })

  it('overview: the summary numbers are those the API answers, with readiness and consumer lag', async () => {
    await page.goto(`${baseUrl}/console/#/overview`)
    const figure = page.locator('[data-testid="context-fetches"] .figure')
    await figure.waitFor()
    const summary = await api<AnalyticsSummaryResponse>(
      'GET',
      `/v1/analytics/summary?instance_id=${instance.instance.instance_id}&period=24h`,
    )
    expect(Number(await figure.getAttribute('data-value'))).toBe(summary.context_fetches.total)
    expect(Number(await page.locator('[data-testid="memories"] .figure').getAttribute('data-value'))).toBe(
      summary.memories.total_stored,
    )
    await page.locator('[data-testid="readiness"]').waitFor()
    expect(await page.locator('[data-testid="readiness"] tbody tr').count()).toBe(5)
    await page.locator('[data-testid="consumer-lag"]').waitFor()
    expect(await page.locator('[data-testid="consumer-lag"]').textContent()).toContain(
      'memory-projector-vector',
    )
    await checkPage('overview')

    // A phone's width: one column, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.screenshot({ path: `${artifacts}/overview-phone.png`, fullPage: true })
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(
      true,
    )
    await page.setViewportSize({ width: 1366, height: 900 })
  })

  it('usage: draws the seeded latency and shows the same percentiles as a table', async () => {
    // The API's own context fetches land in the hour they were made: the seeded hour, or the next one when the run
    // crossed an hour boundary. The API's answer says which hours have calls; the console must show the same.
    const start = new Date(currentHour - 2 * hour).toISOString()
    const end = new Date(currentHour + 2 * hour).toISOString()
    const latency = await api<AnalyticsLatencyResponse>(
      'GET',
      `/v1/analytics/latency?instance_id=${instance.instance.instance_id}&operation=context_fetch&bucket=hour&start=${start}&end=${end}`,
    )
    const expected = latency.data_points
      .filter((point) => point.count > 0)
      .map((point) => [String(point.count), `${String(Math.round(point.p95 * 100) / 100)} ms`])
    await page.goto(`${baseUrl}/console/#/usage`)
    await page.getByRole('button', { name: '6h' }).click()
    await page.getByLabel('Bucket').selectOption('hour')
    await page.getByRole('button', { name: 'Show' }).click()
    const chart = page.locator('figure.chart', { hasText: 'context_fetch latency' }).locator('.chart-canvas')
    // p50, p95 and p99 in each hour with calls
    await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBe(3 * expected.length)
    expect(await chart.locator('canvas').count()).toBe(1)
    await checkPage('usage')

    await page.getByRole('radio', { name: 'Table' }).click()
    const rows = page.locator('[data-testid="latency-table"] tbody tr')
    await expect.poll(() => rows.count()).toBe(expected.length)
    const calls = await rows.locator('td:nth-child(2)').allTextContents()
    const p95s = await rows.locator('td:nth-child(4)').allTextContents()
    const shown = calls.map((count, index) => [count, p95s[index]])
    expect(shown).toEqual(expected)
    // The hour before: the 20 seeded; this hour: the 40 seeded and the API's own fetches (at least ten), which may
    // have landed in the hour after.
    expect(shown[0]?.[0]).toBe('20')
    expect(Number(shown[1]?.[0])).toBeGreaterThanOrEqual(40)
    expect(shown.slice(1).reduce((sum, [count]) => sum + Number(count), 0)).toBeGreaterThanOrEqual(50)
  })

  it('usage: exports CSV with the seeded rows, through the API with the key', async () => {
    await page.goto(`${baseUrl}/console/#/usage`)
    await page.getByRole('button', { name: '6h' }).click()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^usage-inst_[0-9a-f]{16}-.*\.csv$/)
    const text = readFileSync(await download.path(), 'utf8')
    const [header, ...rows] = text.trim().split('\n')
    expect(header?.split(',').slice(0, 4)).toEqual(['"occurred_at"', '"metric"', '"value"', '"latency_ms"'])
    // The seeded fetches, each once with its latency; the API's own (user ana) are in the file too. Rows name users
    // by their keyed pseudonym, never by id.
    expect(text).not.toContain('"seeded-user"')
    const pseudonymOf = async (user: string) =>
      (await harness?.keyring.pseudonymOf(instance.instance.instance_id, user)) ?? 'none'
    const fetches = async (user: string) => {
      const pseudonym = await pseudonymOf(user)
      return rows.filter((row) => row.includes('"context_fetch"') && row.includes(`"${pseudonym}"`))
    }
    const seeded = await fetches('seeded-user')
    expect((await fetches('ana')).length).toBeGreaterThanOrEqual(10)
    expect(seeded.map((row) => Number(row.split(',')[3])).sort((a, b) => a - b)).toEqual([
      ...Array.from({ length: 40 }, (_, index) => index + 1),
      ...Array.from({ length: 20 }, (_, index) => index + 101),
    ])
  })

  it('memories: searches, opens a memory with its entities, source and history', async () => {
    await page.goto(`${baseUrl}/console/#/memories`)
    await page.getByLabel('Query').fill('Where does Ana live?')
    await page.getByLabel('User id').fill('ana')
    await page.getByRole('button', { name: 'Search' }).click()
    const results = page.locator('[data-testid="search-results"] tbody tr')
    await expect.poll(() => results.count()).toBeGreaterThan(0)
    const first = results.first()
    expect(await first.textContent()).toContain(ingestionId)
    await checkPage('memories-search')
    // The filter box takes the filter language; a filter the API refuses shows the key at fault.
    await page.getByLabel('Filter (JSON)').fill(JSON.stringify({ ingestion_id: { ne: ingestionId } }))
    await page.getByRole('button', { name: 'Search' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/^0 results/)
    await page.getByLabel('Filter (JSON)').fill(JSON.stringify({ or: [{ colour: 'red' }] }))
    await page.getByRole('button', { name: 'Search' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('filters.or.0.colour')
    await page.getByLabel('Filter (JSON)').fill(JSON.stringify({ ingestion_id: ingestionId }))
    await page.getByRole('button', { name: 'Search' }).click()
    await expect.poll(() => results.count()).toBeGreaterThan(0)
    const content = (await first.locator('td').nth(2).textContent()) ?? ''
    await first.locator('td').nth(2).getByRole('link').click()
    const detail = page.locator('[data-testid="memory-detail"]')
    await detail.waitFor()
    expect(await detail.locator('.memory-content').textContent()).toBe(content)
    expect(await detail.textContent()).toContain(ingestionId)
    const history = page.locator('[data-testid="memory-history"] tbody tr')
    /** The history's rows as the page shows them when loaded again (a change shows once it is projected). */
    const historyRowsAfterReload = async () => {
      await page.reload()
      await page.locator('[data-testid="memory-history"]').waitFor()
      return history.count()
    }
    await expect.poll(() => history.count()).toBeGreaterThan(0)
    expect(await history.first().textContent()).toContain('created')
    await checkPage('memory-detail')

    // Delete asks first; cancelling keeps the memory.
    await page.getByRole('button', { name: 'Delete' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete this memory?' })
    await dialog.waitFor()
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    // Edit with a merge strategy: the change is an event, and the history shows it once projected.
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Content').fill(`${content} (confirmed)`)
    await page.getByLabel('Merge strategy').selectOption('replace')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Saved')
    await expect.poll(historyRowsAfterReload, { timeout: 30_000 }).toBe(2)
    expect(await detail.locator('.memory-content').textContent()).toBe(`${content} (confirmed)`)
    expect(await history.nth(1).textContent()).toContain('updated')

    // Feedback: recorded as a change, shown on the memory and in its history.
    await page.getByLabel('Reason').fill('Not what I asked')
    await page.getByRole('button', { name: 'Not useful' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Feedback recorded: negative')
    await expect.poll(historyRowsAfterReload, { timeout: 30_000 }).toBe(3)
    expect(await page.locator('[data-testid="memory-feedback"]').textContent()).toMatch(
      /^negative — Not what I asked/,
    )
    expect(await history.nth(2).textContent()).toContain('feedback')
    // Expiry: set in UTC, shown as the instant the memory leaves every reader.
    await page.getByRole('button', { name: 'Set expiry' }).click()
    await page.getByLabel('Expires at (UTC)').fill('2099-01-31T10:00')
    await page.getByRole('button', { name: 'Save expiry' }).click()
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toContain('Expires at 2099-01-31T10:00:00.000Z')
    await expect
      .poll(
        async () => {
          await page.reload()
          return page.locator('[data-testid="memory-expires"]').textContent()
        },
        { timeout: 30_000 },
      )
      .toBe('2099-01-31T10:00:00.000Z')
    await checkPage('memory-feedback')
  })

  it('memories: exports what the user and the filter take, as a JSON Lines download', async () => {
    const job = await api<IngestionStatus>('GET', `/v1/memories/${ingestionId}/status`)
    const expected = [...(job.memory_ids ?? [])].sort()
    await page.goto(`${baseUrl}/console/#/memories`)
    await page.getByLabel('User id').fill('ana')
    await page.getByLabel('Filter (JSON)').fill(JSON.stringify({ ingestion_id: ingestionId }))
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export matching' }).click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/^memories-exp_[0-9a-f]{24}\.jsonl$/)
    const text = readFileSync(await file.path(), 'utf8')
    const ids = text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { id: string }).id)
    expect(ids).toEqual(expected)
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toMatch(new RegExp(`^Exported ${String(expected.length)} memories: memories-exp_`))
    // The same as Parquet: a row per memory.
    const parquet = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export as Parquet' }).click()
    const parquetFile = await parquet
    expect(parquetFile.suggestedFilename()).toMatch(/^memories-exp_[0-9a-f]{24}\.parquet$/)
    const bytes = readFileSync(await parquetFile.path())
    const rows = await parquetReadObjects({ file: new Uint8Array(bytes).buffer })
    expect(rows.map((row) => String(row.id))).toEqual(expected)
  })

  it('memories: deletes what a filter matches, after showing the count to confirm', async () => {
    const scratch = await api<{ ingestion_id: string }>('POST', '/v1/memories', {
      document: 'User: I keep a sourdough starter named Bubbles in the fridge.',
      document_type: 'ai-chat-conversation',
      mode: 'fast',
      user_id: 'baker',
    })
    const job = await eventually(async () => {
      const status = await api<IngestionStatus>('GET', `/v1/memories/${scratch.ingestion_id}/status`)
      return status.status === 'completed' ? status : undefined
    }, 60_000)
    const made = job.memory_ids?.length ?? 0
    expect(made).toBeGreaterThan(0)
    const listed = () =>
      api<{ total: number }>(
        'GET',
        `/v1/memories?user_id=baker&filters=${encodeURIComponent(JSON.stringify({ ingestion_id: scratch.ingestion_id }))}`,
      )
    // A filter sees what the index shows, once it has refreshed (within a second).
    await eventually(async () => ((await listed()).total === made ? made : undefined), 10_000)
    await page.goto(`${baseUrl}/console/#/memories`)
    await page.getByLabel('User id').fill('baker')
    await page.getByLabel('Filter (JSON)').fill(JSON.stringify({ ingestion_id: scratch.ingestion_id }))
    await page.getByRole('button', { name: 'Delete matching…' }).click()
    const dialog = page.getByRole('dialog', { name: `Delete ${String(made)} memories?` })
    await dialog.waitFor()
    await checkPage('memories-bulk-delete')
    await dialog.getByRole('button', { name: `Delete ${String(made)}` }).click()
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe(`Deleted ${String(made)} of ${String(made)} (0 failed).`)
    await eventually(async () => ((await listed()).total === 0 ? true : undefined), 10_000)
  })

  it('conversations: the turns and the context an agent gets for a token budget', async () => {
    await page.goto(`${baseUrl}/console/#/conversations`)
    await page.getByLabel('Conversation id').fill(conversationId)
    await page.getByLabel('User id').fill('ana')
    await page.getByLabel('Token budget').fill('2000')
    await page.getByRole('button', { name: 'Preview context' }).click()
    const turns = page.locator('.turns li p')
    await expect.poll(() => turns.count()).toBe(transcript.length)
    expect(await turns.allTextContents()).toEqual(transcript.map(([, content]) => content))
    const context = await api<ConversationContext>(
      'GET',
      `/v1/conversations/${conversationId}/context?user_id=ana&max_tokens=2000`,
    )
    expect(await page.locator('[data-testid="context"] .sub').first().textContent()).toContain(
      `of 2,000 tokens · ${String(context.recent_turns.length)} recent turns`,
    )
    await checkPage('conversations')
  })

  it("users: a user's profile, each attribute's value, since when and what it replaced", async () => {
    const user = 'profile-ana'
    for (const [document, at] of [
      ['Ana: I live in Lisbon, near the river.', '2023-01-10T09:00:00.000Z'],
      ['Ana: We finally moved to Porto last month!', '2024-03-10T09:00:00.000Z'],
    ] as const) {
      const { ingestion_id } = await api<{ ingestion_id: string }>('POST', '/v1/memories', {
        document,
        document_type: 'ai-chat-conversation',
        document_created_at: at,
        mode: 'fast',
        user_id: user,
      })
      await eventually(async () => {
        const job = await api<{ status: string }>('GET', `/v1/memories/${ingestion_id}/status`)
        return job.status === 'completed' ? job : undefined
      })
    }
    const profile = await eventually(async () => {
      const read = await api<UserProfile>('GET', `/v1/users/${user}/profile`)
      return read.subjects[0]?.attributes.some((fact) => fact.replaced.length > 0) ? read : undefined
    })
    await page.goto(`${baseUrl}/console/#/users/${user}`)
    await page.getByRole('button', { name: 'Show profile' }).click()
    const rows = page.locator('[data-testid="profile"] tbody tr')
    await expect.poll(() => rows.count()).toBe(profile.subjects[0]?.attributes.length ?? 0)
    const residence = page.locator('[data-testid="profile"] tbody tr', { hasText: 'residence' })
    expect(await residence.textContent()).toContain('porto')
    expect(await residence.textContent()).toContain('lisbon')
    await checkPage('users')
  })

  it('ingestion: lists the job with its stages, opens it', async () => {
    await page.goto(`${baseUrl}/console/#/ingestion`)
    const job = page.locator('[data-testid="jobs"] tbody tr', { hasText: ingestionId })
    await job.waitFor()
    expect(await job.textContent()).toContain('completed')
    await checkPage('ingestion')
    await job.getByRole('link', { name: ingestionId }).click()
    await page.locator('[data-testid="job-detail"]').waitFor()
    expect(await page.locator('progress').count()).toBe(4)
  })

  it('ingestion: imports a mem0 file, says what it did, and lists the record it refused', async () => {
    await page.goto(`${baseUrl}/console/#/ingestion`)
    const form = page.locator('[data-testid="import-memories"]')
    const lines = [
      {
        id: 'console-mem0-1',
        memory: 'Bakes sourdough every Sunday',
        user_id: 'baker',
        categories: ['hobbies'],
      },
      { id: 'console-mem0-2', memory: '' },
    ]
    await form.getByLabel('File').setInputFiles({
      name: 'mem0.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(lines.map((line) => JSON.stringify(line)).join('\n')),
    })
    await form.getByLabel('Format').selectOption('mem0')
    await form.getByRole('button', { name: 'Import' }).click()
    await expect
      .poll(() => form.getByRole('status').textContent())
      .toBe('Imported 1, already imported 0, skipped 0, refused 1.')
    expect(await form.locator('[data-testid="import-errors"] tbody tr').textContent()).toContain(
      'records.1.memory',
    )
    await checkPage('ingestion-import')
    // The same file again: the record imported before is not imported twice.
    await form.getByRole('button', { name: 'Import' }).click()
    await expect
      .poll(() => form.getByRole('status').textContent())
      .toBe('Imported 0, already imported 1, skipped 0, refused 1.')
  })

  it('configuration: an invalid proposal shows its errors on their lines; a valid one is reviewed and applied with a second key', async () => {
    await page.goto(`${baseUrl}/console/#/configuration`)
    const editor = page.getByLabel('Configuration (YAML)')
    await editor.waitFor()
    await editor.fill('retrieval:\n  default_mode: fast\n  max_results: 0\n  colour: blue\n')
    await page.getByRole('button', { name: 'Propose' }).click()
    const problems = page.locator('[data-testid="config-problems"]')
    await problems.waitFor()
    expect(await problems.locator('[data-line="3"]').textContent()).toContain('retrieval.max_results')
    expect(await problems.locator('[data-line="4"]').textContent()).toContain('retrieval.colour')
    expect(await problems.locator('[data-line="2"]').count()).toBe(0)
    await checkPage('configuration-invalid')

    await editor.fill('retrieval:\n  default_mode: fast\n  max_results: 15\n')
    await page.getByRole('button', { name: 'Propose' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Version 2 proposed')
    // The proposing key may not approve its own version: review and apply with the second key.
    await signIn(reviewerKey)
    await page.goto(`${baseUrl}/console/#/configuration`)
    await page.getByRole('button', { name: 'Approve version 2' }).click()
    await page.getByRole('button', { name: 'Apply version 2' }).click()
    const versions = page.locator('[data-testid="config-versions"] tbody tr')
    await expect.poll(async () => (await versions.first().textContent()) ?? '').toContain('active')
    const diff = page.locator('[data-testid="config-diff"]')
    await diff.waitFor()
    expect(await diff.locator('td.ins').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('max_results: 15')]),
    )
    await page.locator('[data-testid="config-history"]').waitFor()
    await checkPage('configuration')
  })

  it('a read-only key sees read-only screens', async () => {
    await signIn(readOnlyKey)
    await page.goto(`${baseUrl}/console/#/configuration`)
    await page.locator('[data-testid="config-versions"]').waitFor()
    expect(await page.getByLabel('Configuration (YAML)').count()).toBe(0)
    expect(await page.getByRole('button', { name: /^(Approve|Apply)/ }).count()).toBe(0)
    await page.goto(`${baseUrl}/console/#/ingestion/${ingestionId}`)
    await page.locator('[data-testid="job-detail"]').waitFor()
    const memoryLink = page.locator('[data-testid="job-detail"] a').first()
    await memoryLink.click()
    await page.locator('[data-testid="memory-detail"]').waitFor()
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0)
    await page.goto(`${baseUrl}/console/#/memories`)
    await page.getByLabel('Query').waitFor()
    expect(await page.getByRole('button', { name: 'Delete matching…' }).count()).toBe(0)
    await page.goto(`${baseUrl}/console/#/ingestion`)
    await page.locator('[data-testid="jobs"]').waitFor()
    expect(await page.locator('[data-testid="import-memories"]').count()).toBe(0)
  })
})
