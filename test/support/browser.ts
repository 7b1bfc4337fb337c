/**
 * Headless Chromium for the console's tests: the system's (Debian's `chromium` package, which `.ci/run` installs),
 * driven by playwright-core. Nothing here downloads a browser; without one the browser suite is skipped and says why.
 */
import { existsSync } from 'node:fs'

const candidates = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
].filter((path): path is string => path !== undefined && path !== '')

/** The Chromium executable to drive, or null when this machine has none. */
export function findChromium(): string | null {
  return candidates.find((path) => existsSync(path)) ?? null
}
