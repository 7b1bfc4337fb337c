/**
 * Every command of `memory-service`, in the order its help lists them.
 *
 * Why commander: the project prefers a small, well-kept library to hand-written code. commander (no dependencies,
 * maintained since 2011, one of the most used Node argument parsers) gives the subcommands, required options,
 * choices, conflicting options, value parsers and the generated --help that our own grammar on node:util parseArgs
 * had to implement and test itself. What it lacks ("--rpm only with --burst") is a small preAction hook
 * (commandLine.ts). exitOverride() and configureOutput() let tests run the program without exiting the process;
 * runCommandLine maps commander's errors to exit code 2.
 */
import { Command, type OutputConfiguration } from 'commander'
import { exitCodes, exitCodesFooter, programName } from './commandLine.js'
import { addServiceCommands } from './serviceCommands.js'
import { addTenancyCommands } from './tenancyCommandLine.js'
import { addReplayCommand } from './replayCommand.js'
import { addReembedCommand } from './reembedCommand.js'
import { addMcpCommand } from './mcpServer.js'
import { addDeadLetterCommands } from './deadLettersCommand.js'
import { addDataKeyCommands } from './dataKeysCommand.js'
import { addVerifyCommand } from './verifyCommand.js'

/** A new program each time: commander keeps parsed values on its commands. */
export function createProgram(output: OutputConfiguration = {}): Command {
  // Set first: subcommands copy these settings when they are created.
  const program = new Command(programName)
    .description('Memory Service: long-term memory for software agents.')
    .exitOverride()
    .configureOutput(output)
    .showHelpAfterError('(add --help for the usage)')
    .helpCommand(false)
    .addHelpText(
      'after',
      '\nInstance and key commands print JSON; a new API key appears in their output once and is stored only as a hash.',
    )
    .addHelpText('afterAll', `\n${exitCodesFooter}`)
  addServiceCommands(program)
  addTenancyCommands(program)
  addReplayCommand(program)
  addReembedCommand(program)
  addDeadLetterCommands(program)
  addDataKeyCommands(program)
  addVerifyCommand(program)
  addMcpCommand(program)
  // commander's own help command reads one word; this one also takes `help keys create`.
  program
    .command('help')
    .argument('[command...]', 'the words of a command')
    .description('print this text, or the usage of a command')
    .action((words: string[]) => {
      let command = program
      for (const word of words) {
        const next = command.commands.find((candidate) => candidate.name() === word)
        if (!next)
          return program.error(`error: unknown command '${words.join(' ')}'`, {
            exitCode: exitCodes.usage,
            code: 'commander.unknownCommand',
          })
        command = next
      }
      command.outputHelp()
    })
  return program
}
