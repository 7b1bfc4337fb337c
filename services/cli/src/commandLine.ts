/**
 * What the commands share on top of commander (program.ts says why commander): exit codes, help texts, the
 * checks commander has no option method for, and running a command line without exiting the process.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander'

export const programName = 'memory-service'

export const exitCodes = { success: 0, failure: 1, usage: 2, drift: 3 } as const
export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes]

export const exitCodesFooter =
  'Exit codes: 0 success, 1 failure at run time (an engine unreachable, a command refused), 2 usage error, 3 drift found (verify).'

/** For `.addHelpText('after', …)`: every command's --help ends with an example. */
export function example(commandLine: string): string {
  return `\nExample:\n  ${commandLine}`
}

/** An argParser for counts: `--page 0` or `--rpm 1.5` is a usage error, never NaN. */
export function positiveInteger(text: string): number {
  const value = Number(text)
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1)
    throw new InvalidArgumentError('Expected a whole number of at least 1.')
  return value
}

/**
 * commander has conflicts() and implies() but nothing for "only together with": `--rpm` without `--burst` is a
 * usage error, checked before the command's action. Both names are those of one-word long options.
 */
export function requiresOption(command: Command, option: string, required: string): Command {
  return command.hook('preAction', (self) => {
    if (self.getOptionValue(option) === undefined || self.getOptionValue(required) !== undefined) return
    self.error(`error: option '--${option}' requires option '--${required}'`, {
      exitCode: exitCodes.usage,
      code: 'memory-service.missingRequiredOption',
    })
  })
}

/**
 * Parses `args` for a command that has no action (runReplay and runMcpServer take raw arguments) and returns it
 * for its opts(); a usage error is thrown as a CommanderError, nothing is printed.
 */
export function parseAlone(command: Command, args: readonly string[]): Command {
  const silent = () => undefined
  command.exitOverride().configureOutput({ writeOut: silent, writeErr: silent, outputError: silent })
  return command.parse([...args], { from: 'user' })
}

/**
 * Parses argv and runs the command it names. Help and usage errors are printed by commander through the program's
 * output; the program must have been built with exitOverride() so that they come back here as exit codes (0 for
 * help, 2 for any usage error). A failure while the command runs is thrown for the caller (exit code 1).
 */
export async function runCommandLine(program: Command, argv: readonly string[]): Promise<ExitCode> {
  try {
    await program.parseAsync(argv.length > 0 ? [...argv] : ['help'], { from: 'user' })
    return exitCodes.success
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error
    return error.exitCode === 0 ? exitCodes.success : exitCodes.usage
  }
}
