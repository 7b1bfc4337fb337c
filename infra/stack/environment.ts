import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
// The same folder the services use; imported from the module itself: the test stack setup loads this file outside the
// workspace's source condition.
import { defaultCacheDir } from '../../services/engines/src/config/loadConfig.js'

/** Downloads (Maven repository, archives) live here, outside the repository, so a warm machine re-downloads nothing. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return defaultCacheDir(env)
}

export interface Jdk {
  home: string
  major: number
}

function jdkAt(home: string): Jdk | undefined {
  const release = join(home, 'release')
  if (!existsSync(join(home, 'bin/java')) || !existsSync(release)) return undefined
  const match = /JAVA_VERSION="(\d+)/.exec(readFileSync(release, 'utf8'))
  return match?.[1] ? { home, major: Number(match[1]) } : undefined
}

/** Every JDK this machine has: JAVA_HOME, the system JVM directory, and the `java` on PATH. */
export function findJdks(env: NodeJS.ProcessEnv = process.env): Jdk[] {
  const homes = new Set<string>()
  if (env.JAVA_HOME) homes.add(env.JAVA_HOME)
  for (const root of ['/usr/lib/jvm', '/usr/java', '/opt/java']) {
    if (!existsSync(root)) continue
    for (const entry of readdirSync(root)) homes.add(join(root, entry))
  }
  try {
    const javaOnPath = execFileSync('sh', ['-c', 'readlink -f "$(command -v java)"'], {
      encoding: 'utf8',
    }).trim()
    if (javaOnPath) homes.add(dirname(dirname(javaOnPath)))
  } catch {
    // no java on PATH
  }
  const jdks = [...homes].map(jdkAt).filter((jdk): jdk is Jdk => jdk !== undefined)
  const unique = new Map(jdks.map((jdk) => [readlinkSafe(jdk.home), jdk]))
  return [...unique.values()].sort((a, b) => a.major - b.major)
}

function readlinkSafe(path: string): string {
  try {
    return execFileSync('readlink', ['-f', path], { encoding: 'utf8' }).trim()
  } catch {
    return path
  }
}

/** The oldest JDK within the range: the most widely tested one for servers that support a range of Java versions. */
export function pickJdk(jdks: Jdk[], range: { min: number; max?: number }): Jdk | undefined {
  return jdks.find((jdk) => jdk.major >= range.min && (range.max === undefined || jdk.major <= range.max))
}

export function commandExists(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

export function dockerEngineReachable(): boolean {
  if (!commandExists('docker')) return false
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'ignore', timeout: 5000 })
    return true
  } catch {
    return false
  }
}
