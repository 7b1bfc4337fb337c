/**
 * Global setup of the browser project: builds the console (the gateway serves what `npm run build` leaves in
 * services/console/public), so the tests drive the code of this checkout, not an older build.
 */
import { execFileSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

export default function setup(): void {
  execFileSync(join(root, 'node_modules/.bin/tsx'), ['services/console/build.ts'], {
    cwd: root,
    stdio: 'inherit',
  })
}
