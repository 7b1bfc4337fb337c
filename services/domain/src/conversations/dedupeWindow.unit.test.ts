import { describe, expect, it } from 'vitest'
import { createDedupeWindow, eventIdentity } from './dedupeWindow.js'

describe('dedupe window', () => {
  it('names the first record of an id, a later record of it as a repeat, and a re-read as again', () => {
    const window = createDedupeWindow({ windowMs: 60_000, maxEntries: 100, now: () => 1000 })
    expect(window.observe('k', { partition: 1, offset: 5 }, 1000)).toBe('first')
    expect(window.observe('k', { partition: 1, offset: 9 }, 1000)).toBe('repeat')
    expect(window.observe('k', { partition: 1, offset: 5 }, 1000)).toBe('again')
    expect(window.firstOf('k')).toEqual({ partition: 1, offset: 5 })
  })

  it('forgets ids older than the window', () => {
    let clock = 0
    const window = createDedupeWindow({ windowMs: 1000, maxEntries: 100, now: () => clock })
    window.observe('old', { partition: 0, offset: 0 }, 0)
    clock = 2000
    expect(window.stats()).toMatchObject({ entries: 0 })
    expect(window.firstOf('old')).toBeUndefined()
    // A record already older than the window is not remembered at all.
    expect(window.observe('late', { partition: 0, offset: 1 }, 500)).toBe('first')
    expect(window.firstOf('late')).toBeUndefined()
  })

  it('keeps at most maxEntries, letting the oldest go first and counting them', () => {
    const window = createDedupeWindow({ windowMs: 60_000, maxEntries: 3, now: () => 0 })
    for (let offset = 0; offset < 5; offset += 1) window.observe(`k${offset}`, { partition: 0, offset }, 0)
    expect(window.stats()).toMatchObject({ entries: 3, evictedEarly: 2 })
    expect(window.firstOf('k0')).toBeUndefined()
    expect(window.firstOf('k4')).toEqual({ partition: 0, offset: 4 })
  })

  it('gives the same event id in two conversations or two instances different identities', () => {
    const id = eventIdentity('inst_a', 'conv-1', 'evt-1')
    expect(eventIdentity('inst_a', 'conv-1', 'evt-1')).toBe(id)
    expect(eventIdentity('inst_a', 'conv-2', 'evt-1')).not.toBe(id)
    expect(eventIdentity('inst_b', 'conv-1', 'evt-1')).not.toBe(id)
    // The separator keeps "a" + "b/c" apart from "a/b" + "c".
    expect(eventIdentity('inst_a', 'x\u0000y', 'z')).not.toBe(eventIdentity('inst_a', 'x', 'y\u0000z'))
  })
})
