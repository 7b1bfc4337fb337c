import { describe, expect, it } from 'vitest'
import { claimDocumentId, judgeExistingClaim, type Claim } from './claims.js'

const claim = (state: Claim['state'], claimedAt: string): Claim => ({
  instance_id: 'inst_0123456789abcdef',
  kind: 'event',
  client_id: 'evt-1',
  state,
  owner: 'gateway-a',
  claimed_at: claimedAt,
  record_id: 'evt-1',
})
const now = Date.parse('2026-11-22T12:00:00Z')

describe('judgeExistingClaim', () => {
  it('calls an appended claim a duplicate, however old', () => {
    expect(judgeExistingClaim(claim('appended', '2020-01-01T00:00:00Z'), now, 30_000)).toBe('duplicate')
  })

  it('calls a fresh pending claim in flight and a pending claim past its lease abandoned', () => {
    expect(judgeExistingClaim(claim('pending', '2026-11-22T11:59:45Z'), now, 30_000)).toBe('in_flight')
    expect(judgeExistingClaim(claim('pending', '2026-11-22T11:59:29Z'), now, 30_000)).toBe('abandoned')
  })

  it('scopes a claim id by instance and kind', () => {
    expect(claimDocumentId(claim('pending', '2026-11-22T12:00:00Z'))).toBe(
      'inst_0123456789abcdef:event:evt-1',
    )
    expect(claimDocumentId({ instance_id: 'inst_1', kind: 'document', client_id: 'evt-1' })).not.toBe(
      claimDocumentId({ instance_id: 'inst_1', kind: 'event', client_id: 'evt-1' }),
    )
  })
})
