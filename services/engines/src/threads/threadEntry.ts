import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * What a `Worker` starts for a thread whose entry module sits beside the calling module (`entry` without its
 * extension). From sources (tsx, vitest) the thread registers tsx before loading the TypeScript entry; a build runs
 * the compiled entry as it is.
 */
export function threadEntry(callerUrl: string, entry: string): URL {
  const fromSources = callerUrl.endsWith('.ts')
  const entryUrl = new URL(`./${entry}${fromSources ? '.ts' : '.js'}`, callerUrl)
  if (!fromSources) return entryUrl
  const tsxApi = pathToFileURL(
    join(dirname(createRequire(callerUrl).resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
  ).href
  return new URL(
    `data:text/javascript,${encodeURIComponent(
      `import { register } from ${JSON.stringify(tsxApi)}; register(); await import(${JSON.stringify(entryUrl.href)})`,
    )}`,
  )
}
