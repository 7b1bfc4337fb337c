import { describe, expect, it } from 'vitest'
import { Command, CommanderError } from 'commander'
import { exitCodes, parseAlone, positiveInteger, requiresOption, runCommandLine } from './commandLine.js'

describe('positiveInteger', () => {
  it.each([
    ['1', 1],
    ['1200', 1200],
  ])('%s is %d', (text, value) => {
    expect(positiveInteger(text)).toBe(value)
  })

  it.each(['0', '-3', '1.5', 'abc', '', '1e3', ' 7', '99999999999999999999'])('refuses %j', (text) => {
    expect(() => positiveInteger(text)).toThrow('Expected a whole number of at least 1.')
  })
})

/** A toy program: `sail --knots <n> [--heading <n>]`, heading only with knots. */
function harbour(ran: unknown[]) {
  let err = ''
  const program = new Command('harbour')
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: (text) => (err += text) })
  const sail = program
    .command('sail')
    .option('--knots <n>', 'speed', positiveInteger)
    .option('--heading <n>', 'course', positiveInteger)
    .action((options: unknown) => {
      ran.push(options)
    })
  requiresOption(sail, 'heading', 'knots')
  program.command('sink').action(() => {
    throw new Error('the sea is closed')
  })
  return { program, err: () => err }
}

describe('runCommandLine', () => {
  it('answers 0 after the command ran or the help was printed', async () => {
    const ran: unknown[] = []
    expect(await runCommandLine(harbour(ran).program, ['sail', '--knots', '4', '--heading', '90'])).toBe(
      exitCodes.success,
    )
    expect(await runCommandLine(harbour(ran).program, ['sail', '--help'])).toBe(exitCodes.success)
    expect(ran).toEqual([{ knots: 4, heading: 90 }])
  })

  it.each([
    [['moor'], "unknown command 'moor'"],
    [['sail', '--anchor'], "unknown option '--anchor'"],
    [['sail', '--knots'], "option '--knots <n>' argument missing"],
    [['sail', '--knots', 'fast'], "argument 'fast' is invalid"],
    [['sail', '--heading', '90'], "option '--heading' requires option '--knots'"],
  ])('answers 2 for the usage error %j', async (argv, message) => {
    const ran: unknown[] = []
    const { program, err } = harbour(ran)
    expect(await runCommandLine(program, argv)).toBe(exitCodes.usage)
    expect(err()).toContain(message)
    expect(ran).toEqual([])
  })

  it('throws a failure of the command itself', async () => {
    await expect(runCommandLine(harbour([]).program, ['sink'])).rejects.toThrow('the sea is closed')
  })
})

describe('parseAlone', () => {
  it('returns the options, or throws the usage error without printing it', () => {
    const command = () => new Command('sail').requiredOption('--knots <n>', 'speed', positiveInteger)
    expect(parseAlone(command(), ['--knots', '3']).opts()).toEqual({ knots: 3 })
    expect(() => parseAlone(command(), [])).toThrow(CommanderError)
    expect(() => parseAlone(command(), ['--knots', '0'])).toThrow("argument '0' is invalid")
  })
})
