/**
 * The Python client (services/client-python) against the real stack, as part of `npm test`: a virtual environment
 * outside the repository (the cache folder, keyed by the package's pyproject.toml) gets the package and its
 * development tools from PyPI; pytest runs once against a gateway with workers started here, and each pytest test
 * is one test of this file, so the runner counts them. Without a Python 3.10+ with venv the file is skipped, saying
 * why.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allPermissions, CONVERSATION_EVENTS_TOPIC } from '@memory-service/domain'
import type { ConversationEventRecorded } from '@memory-service/contracts'
import { startServices, type RunningServices } from '@memory-service/cli'
import { defaultCacheDir } from '../../services/engines/src/config/loadConfig.js'
import { readTopicToEnd, startGatewayWithInstance, testConfig } from '../support/testEngines.js'

const packageDir = resolve('services/client-python')
const reportPath = join(packageDir, '.pytest-report.xml')

/** A Python 3.10+ with venv, and a virtual environment with the package installed; or why there is none. */
function pythonEnvironment(): { python: string } | { missing: string } {
  const probe = spawnSync(
    'python3',
    ['-c', 'import sys, venv, ensurepip; print(sys.version_info >= (3, 10))'],
    {
      encoding: 'utf8',
    },
  )
  if (probe.status !== 0 || probe.stdout.trim() !== 'True')
    return { missing: 'no python3 (3.10 or later, with venv and ensurepip: python3-venv on Debian) on PATH' }
  const pyproject = readFileSync(join(packageDir, 'pyproject.toml'))
  const key = createHash('sha256').update(pyproject).digest('hex').slice(0, 12)
  const home = join(defaultCacheDir(process.env), 'python', key)
  const python = join(home, 'bin/python')
  if (!existsSync(join(home, '.installed'))) {
    rmSync(home, { recursive: true, force: true })
    mkdirSync(home, { recursive: true })
    execFileSync('python3', ['-m', 'venv', home], { stdio: 'inherit' })
    execFileSync(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-e', '.[dev]'], {
      cwd: packageDir,
      stdio: 'inherit',
      timeout: 600_000,
    })
    writeFileSync(join(home, '.installed'), new Date().toISOString())
  } else {
    // The package's own files may have changed since: an editable install reads them where they are.
    execFileSync(
      python,
      ['-m', 'pip', 'install', '--quiet', '--no-deps', '--disable-pip-version-check', '-e', '.'],
      {
        cwd: packageDir,
        stdio: 'inherit',
      },
    )
  }
  return { python }
}

const environment = pythonEnvironment()
const testIds =
  'python' in environment
    ? execFileSync(environment.python, ['-m', 'pytest', '--collect-only', '-q', '-p', 'no:cacheprovider'], {
        cwd: packageDir,
        encoding: 'utf8',
        env: { ...process.env, MEMORY_SERVICE_URL: '', MEMORY_SERVICE_API_KEY: '' },
      })
        .split('\n')
        .filter((line) => line.includes('::'))
    : []

interface Outcome {
  failure?: string
  skipped?: string
}

/** The JUnit report's test cases by pytest node id (tests/test_x.py::test_name[param]). */
function readReport(xml: string): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>()
  const unescape = (text: string) =>
    text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#10;/g, '\n')
      .replace(/&amp;/g, '&')
  for (const match of xml.matchAll(
    /<testcase classname="([^"]*)" name="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g,
  )) {
    const [, classname = '', name = '', body = ''] = match
    const file = `${classname.replace(/\./g, '/')}.py`
    const failure = /<(?:failure|error) message="([^"]*)"[^>]*>([\s\S]*?)<\/(?:failure|error)>/.exec(body)
    const skipped = /<skipped[^>]*message="([^"]*)"/.exec(body)
    outcomes.set(`${file}::${unescape(name)}`, {
      ...(failure ? { failure: unescape(`${failure[1] ?? ''}\n${failure[2] ?? ''}`) } : {}),
      ...(skipped ? { skipped: unescape(skipped[1] ?? '') } : {}),
    })
  }
  return outcomes
}

if ('missing' in environment) {
  describe.skip(`the Python client (skipped: ${environment.missing})`, () => {
    it('runs its pytest suite against the stack', () => undefined)
  })
} else {
  describe('the Python client against the real stack (pytest)', () => {
    let harness: Awaited<ReturnType<typeof startGatewayWithInstance>> | undefined
    /** The services pytest calls; the stream tests stop and start them through the control server. */
    let services: RunningServices | undefined
    let control: Server | undefined
    let workers: RunningServices | undefined
    let outcomes = new Map<string, Outcome>()
    let pytestOutput = ''

    beforeAll(async () => {
      // The gateway alone, the workers beside it: the stream tests stop and start only the gateway, as a client
      // sees a gateway restart.
      const started = await startGatewayWithInstance('python-client')
      harness = started
      workers = await startServices(started.config, ['pipeline', 'projectors'], started.logger)
      services = started.gateway
      const port = (address: string | undefined) => address?.split(':').at(-1) ?? '0'
      const ports = { http: port(services.addresses.http), grpc: port(services.addresses.grpc) }
      // What pytest cannot do from its own process: stop and start the gateway (on the same ports, as a restarted
      // gateway comes back) and read the log from outside, to count what was recorded.
      const actions: Record<string, (url: URL) => Promise<unknown>> = {
        'POST /gateway/stop': async () => {
          await services?.close()
          services = undefined
        },
        'POST /gateway/start': async () => {
          services ??= await startServices(
            testConfig({
              HTTP_PORT: ports.http,
              GRPC_PORT: ports.grpc,
              RATE_LIMIT_GROUP: started.rateLimitGroup,
            }),
            ['gateway'],
            started.logger,
          )
        },
        'GET /recorded': async (url) => {
          const records = await readTopicToEnd<ConversationEventRecorded>(
            started.kafka,
            started.codec,
            CONVERSATION_EVENTS_TOPIC,
          )
          const conversationId = url.searchParams.get('conversation_id')
          return records
            .map((record) => record.value)
            .filter((event) => event.instance_id === instanceId && event.conversation_id === conversationId)
            .map((event) => event.event_id)
        },
      }
      control = createServer((request, response) => {
        const url = new URL(request.url ?? '/', 'http://control')
        const action = actions[`${request.method ?? 'GET'} ${url.pathname}`]
        if (!action) return void response.writeHead(404).end()
        action(url).then(
          (answer) =>
            response
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify(answer ?? null)),
          (error: unknown) => response.writeHead(500).end(String(error)),
        )
      })
      await new Promise<void>((resolveListen) => control?.listen(0, '127.0.0.1', resolveListen))
      const controlUrl = `http://127.0.0.1:${String((control.address() as AddressInfo).port)}`
      const instanceId = started.instance.instance.instance_id
      const reviewer = await started.tenancy.issueKey(instanceId, allPermissions, 'python-client-reviewer')
      await started.untilUsable(reviewer.key)
      rmSync(reportPath, { force: true })
      // Asynchronously: the gateway pytest calls runs in this process and must go on answering.
      const run = await new Promise<{ stdout: string; stderr: string }>((resolveRun) => {
        execFile(
          environment.python,
          ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--durations=8', `--junitxml=${reportPath}`],
          {
            cwd: packageDir,
            encoding: 'utf8',
            timeout: 600_000,
            maxBuffer: 64 * 1024 * 1024,
            env: {
              ...process.env,
              MEMORY_SERVICE_URL: started.gateway.addresses.http ?? '',
              MEMORY_SERVICE_GRPC_ADDRESS: started.gateway.addresses.grpc ?? '',
              MEMORY_SERVICE_TEST_CONTROL_URL: controlUrl,
              MEMORY_SERVICE_API_KEY: started.instance.api_key.key,
              MEMORY_SERVICE_REVIEWER_KEY: reviewer.key,
            },
          },
          // pytest exits 1 when a test failed: each test reports its own outcome below.
          (_error, stdout, stderr) => resolveRun({ stdout, stderr }),
        )
      })
      pytestOutput = `${run.stdout}\n${run.stderr}`
      // pytest's own summary (its slowest tests, its counts) in the run's log.
      console.log(run.stdout.split('\n').slice(-16).join('\n'))
      outcomes = existsSync(reportPath) ? readReport(readFileSync(reportPath, 'utf8')) : new Map()
      rmSync(reportPath, { force: true })
    }, 900_000)

    afterAll(async () => {
      control?.close()
      await harness?.control.close()
      await services?.close()
      await workers?.close()
    })

    it('collects the suite', () => {
      expect(testIds.length).toBeGreaterThan(10)
    })

    for (const id of testIds) {
      it(id, (context) => {
        const outcome = outcomes.get(id)
        if (!outcome) throw new Error(`pytest did not report ${id}:\n${pytestOutput.slice(-4000)}`)
        if (outcome.failure) throw new Error(outcome.failure)
        if (outcome.skipped !== undefined) context.skip(outcome.skipped)
      })
    }
  })
}
