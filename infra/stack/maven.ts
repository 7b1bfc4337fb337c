import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// eslint-disable-next-line no-control-regex -- Maven colours its output even in batch mode on some terminals.
const ansiEscape = /\u001b\[[0-9;]*m/g
const stripAnsi = (line: string): string => line.replace(ansiEscape, '')

const dependencyPlugin = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1'

export interface MavenContext {
  /** Local repository inside the cache directory: every artifact is downloaded once per machine. */
  repository: string
  progress(message: string): void
}

function runMaven(context: MavenContext, args: string[], label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('mvn', ['-B', `-Dmaven.repo.local=${context.repository}`, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let downloaded = 0
    let lastReport = Date.now()
    const tail: string[] = []
    const onLine = (line: string): void => {
      tail.push(line)
      if (tail.length > 40) tail.shift()
      const match = /^Downloaded from \S+: \S+\/([^/\s]+) \(([^)]+)\)/.exec(line)
      if (!match) return
      downloaded += 1
      const [, file, transfer] = match
      const size = transfer?.split(' at ')[0] ?? ''
      // Large archives are reported one by one; jar sets as a running count, so the terminal stays readable.
      if (/^[\d.]+ MB$/.test(size) && Number.parseFloat(size) >= 10)
        context.progress(`${label}: downloaded ${file} (${size})`)
      else if (Date.now() - lastReport > 3000) {
        context.progress(`${label}: ${downloaded} files downloaded so far…`)
        lastReport = Date.now()
      }
    }
    let buffered = ''
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString()
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      for (const line of lines) onLine(stripAnsi(line).replace(/^\[INFO\] /, ''))
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) {
        if (downloaded > 0) context.progress(`${label}: ${downloaded} files downloaded`)
        resolve()
      } else reject(new Error(`Maven failed for ${label} (exit ${code}):\n${tail.join('\n')}`))
    })
  })
}

/** Copies one artifact (e.g. `group:artifact:version:zip`) into a directory. */
export async function copyArtifact(
  context: MavenContext,
  artifact: string,
  outputDir: string,
  label: string,
) {
  mkdirSync(outputDir, { recursive: true })
  await runMaven(
    context,
    [`${dependencyPlugin}:copy`, `-Dartifact=${artifact}`, `-DoutputDirectory=${outputDir}`],
    label,
  )
}

/** Resolves the runtime classpath of the given dependencies into a flat directory of jars. */
export async function copyDependencies(
  context: MavenContext,
  dependencies: string[],
  workDir: string,
  outputDir: string,
  label: string,
) {
  mkdirSync(workDir, { recursive: true })
  const xml = dependencies
    .map((coordinates) => {
      const [groupId, artifactId, version] = coordinates.split(':')
      return `<dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version></dependency>`
    })
    .join('\n    ')
  const pom = join(workDir, 'pom.xml')
  writeFileSync(
    pom,
    `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.memory-service</groupId><artifactId>${label}-runtime</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    ${xml}
  </dependencies>
</project>
`,
  )
  await runMaven(
    context,
    [
      '-f',
      pom,
      `${dependencyPlugin}:copy-dependencies`,
      '-DincludeScope=runtime',
      `-DoutputDirectory=${outputDir}`,
    ],
    label,
  )
}
