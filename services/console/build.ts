/**
 * Builds the console into public/: one ES module bundle (Preact, uPlot, the YAML and diff libraries inside it), its
 * stylesheet and the page. `npm run build` and `npm start` run it; the gateway serves the folder at /console.
 */
import { build } from 'esbuild'
import { copyFileSync, mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const out = join(here, 'public')

rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const result = await build({
  entryPoints: [join(here, 'src/main.tsx')],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: out,
  entryNames: 'console',
  metafile: true,
  logLevel: 'warning',
})
copyFileSync(join(here, 'src/index.html'), join(out, 'index.html'))
const bytes = Object.entries(result.metafile.outputs)
  .filter(([file]) => !file.endsWith('.map'))
  .reduce((sum, [, output]) => sum + output.bytes, 0)
console.log(`console built into ${out} (${(bytes / 1024).toFixed(0)} KiB)`)
