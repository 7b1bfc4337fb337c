/** `npm run stack:up | stack:down | stack:status`: the local servers, without Docker when there is none. */
import { writeFileSync } from 'node:fs'
import { ConfigError } from '@memory-service/engines'
import { consumerGroupStatus, stackDown, stackStatus, stackUp } from './stack.js'

const started = Date.now()
const progress = (message: string): void => {
  const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(6)
  console.log(`[stack ${seconds}s] ${message}`)
}

function printTable(rows: Record<string, string>[]): void {
  const first = rows[0]
  if (!first) return
  const columns = Object.keys(first)
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd()
  console.log(line(columns.map((column) => column.toUpperCase())))
  for (const row of rows) console.log(line(columns.map((column) => row[column] ?? '')))
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name)
  return index >= 0 ? args[index + 1] : undefined
}

async function main(command: string | undefined, args: string[]): Promise<number> {
  switch (command) {
    case 'up': {
      const result = await stackUp(progress, process.env, { secured: args.includes('--secured') })
      // The test runner records what it started, so that it stops only that at the end.
      const record = option(args, '--record')
      if (record) writeFileSync(record, JSON.stringify(result))
      progress(
        result.started.length
          ? `stack is up (started: ${result.started.join(', ')})`
          : 'stack is up (nothing to start)',
      )
      return 0
    }
    case 'down': {
      const only = option(args, '--only')
      await stackDown(progress, only?.split(','))
      return 0
    }
    case 'status': {
      const rows = await stackStatus(process.env, { secured: args.includes('--secured') })
      printTable(rows.map((row) => ({ ...row })))
      // Consumer lag is informational: it does not change the exit code.
      if (rows.find((row) => row.name === 'kafka')?.state === 'up') {
        console.log()
        printTable((await consumerGroupStatus()).map((row) => ({ ...row })))
      }
      return rows.every((row) => row.state === 'up') ? 0 : 1
    }
    case undefined:
    default:
      console.error('usage: stack up [--secured] [--record FILE] | down [--only a,b] | status [--secured]')
      return 2
  }
}

main(process.argv[2], process.argv.slice(3)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof Error ? error.message : error)
    process.exit(1)
  },
)
