import { spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

export interface LaunchSpec {
  executable: string
  args: string[]
  env?: Record<string, string>
  cwd?: string
  /** Run as this system user (Elasticsearch refuses to run as root). */
  user?: string
}

/** Starts a server detached in its own process group, output appended to its log file; writes the pid file. */
export function launch(spec: LaunchSpec, logFile: string, pidFile: string): number {
  mkdirSync(dirname(logFile), { recursive: true })
  mkdirSync(dirname(pidFile), { recursive: true })
  const out = openSync(logFile, 'a')
  const [executable, args] = spec.user
    ? [
        'setpriv',
        ['--reuid', spec.user, '--regid', spec.user, '--init-groups', '--', spec.executable, ...spec.args],
      ]
    : [spec.executable, spec.args]
  const child = spawn(executable, args, {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    detached: true,
    stdio: ['ignore', out, out],
  })
  closeSync(out)
  if (child.pid === undefined) throw new Error(`Could not start ${spec.executable}`)
  child.unref()
  writeFileSync(pidFile, String(child.pid))
  return child.pid
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function readPid(pidFile: string): number | undefined {
  if (!existsSync(pidFile)) return undefined
  const pid = Number(readFileSync(pidFile, 'utf8').trim())
  return Number.isInteger(pid) && pid > 0 ? pid : undefined
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    try {
      process.kill(pid, signal)
    } catch {
      // already gone
    }
  }
}

/** Stops the whole process group (launcher scripts fork the real JVM), gracefully first. */
export async function stopProcess(pidFile: string, graceMs = 30_000): Promise<'stopped' | 'not running'> {
  const pid = readPid(pidFile)
  if (pid === undefined || !isAlive(pid)) {
    rmSync(pidFile, { force: true })
    return 'not running'
  }
  signalGroup(pid, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250))
  if (isAlive(pid)) signalGroup(pid, 'SIGKILL')
  rmSync(pidFile, { force: true })
  return 'stopped'
}
