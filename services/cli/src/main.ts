/**
 * `memory-service`: the command line entry point. program.ts lists the commands; this file owns the process: its
 * output and its exit code (0 success, 1 failure at run time, 2 usage error).
 */
import { AppError, toErrorBody } from '@memory-service/domain'
import { exitCodes, runCommandLine } from './commandLine.js'
import { createProgram } from './program.js'

function describeFailure(error: unknown): string {
  // A refused command (not found, invalid input, …) prints the same error body the HTTP API would answer.
  if (error instanceof AppError) return JSON.stringify(toErrorBody(error, 'cli'), null, 2)
  return error instanceof Error ? error.message : String(error)
}

runCommandLine(createProgram(), process.argv.slice(2)).then(
  // Not process.exit: `start` and `mcp` keep running after their command returns.
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(describeFailure(error))
    // Engines connected before the failure would keep the process alive.
    process.exit(exitCodes.failure)
  },
)
