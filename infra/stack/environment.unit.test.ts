import { describe, expect, it } from 'vitest'
import { pickJdk, type Jdk } from './environment.js'

const jdks: Jdk[] = [
  { home: '/jvm/17', major: 17 },
  { home: '/jvm/21', major: 21 },
  { home: '/jvm/25', major: 25 },
]

describe('pickJdk', () => {
  it('takes the oldest JDK that satisfies the server', () => {
    expect(pickJdk(jdks, { min: 17 })?.major).toBe(17)
    expect(pickJdk(jdks, { min: 21 })?.major).toBe(21)
  })

  it('respects an upper bound (Neo4j 5.26 runs on 17 and 21 only)', () => {
    expect(pickJdk([{ home: '/jvm/25', major: 25 }], { min: 17, max: 21 })).toBeUndefined()
  })

  it('finds nothing when every JDK is too old', () => {
    expect(pickJdk([{ home: '/jvm/17', major: 17 }], { min: 21 })).toBeUndefined()
  })
})
