import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { lastErrors, lastWarnings } from './cluster.js'

const log = [
  '{"level":30,"msg":"started"}',
  '{"level":40,"component":"projectors","msg":"batch handling failed; fetched again after a pause"}',
  '{"level":50,"component":"kafkajs","msg":"Connection error: connect ECONNREFUSED"}',
  'not json',
  '{"level":50,"component":"projectors","msg":"consumer not started again; retried"}',
].join('\n')

function logFile(content = log): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cluster-log-')), 'member.log')
  writeFileSync(file, content)
  return file
}

describe("a member's log, read for a report", () => {
  it('gives the last errors, kafkajs included', () => {
    const errors = lastErrors(logFile())
    expect(errors).toContain('ECONNREFUSED')
    expect(errors).toContain('consumer not started again')
    expect(errors).not.toContain('batch handling failed')
  })

  it("gives our own last warnings and errors without kafkajs's connection noise", () => {
    const warnings = lastWarnings(logFile()).split('\n')
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toContain('batch handling failed')
    expect(warnings[1]).toContain('consumer not started again')
  })

  it('says so when there is nothing to report', () => {
    expect(lastWarnings(logFile('{"level":30,"msg":"started"}\n'))).toBe('  (none)')
  })
})
