import { describe, expect, it } from 'vitest'
import { deployment } from '@memory-service/domain'
import { consumerGroupsToWatch, groupLag, type TopicEnds } from './consumerLag.js'

const documents: TopicEnds = {
  topic: 'mem.documents.v1',
  partitions: [
    { partition: 0, low: '0', high: '10' },
    { partition: 1, low: '0', high: '4' },
    { partition: 2, low: '0', high: '0' },
  ],
}
const jobs: TopicEnds = {
  topic: 'mem.ingestion-jobs.v1',
  partitions: [{ partition: 0, low: '0', high: '7' }],
}

describe('consumer lag arithmetic', () => {
  it('sums high watermark minus committed offset over partitions, per topic and in total', () => {
    const lag = groupLag(
      'memory-projector-jobs',
      [documents, jobs],
      [
        {
          topic: 'mem.documents.v1',
          partitions: [
            { partition: 0, offset: '6' },
            { partition: 1, offset: '4' },
            { partition: 2, offset: '0' },
          ],
        },
        { topic: 'mem.ingestion-jobs.v1', partitions: [{ partition: 0, offset: '2' }] },
      ],
    )
    expect(lag).toEqual({
      group: 'memory-projector-jobs',
      lag: 9,
      no_committed_offsets: false,
      topics: [
        {
          topic: 'mem.documents.v1',
          lag: 4,
          partitions: [
            { partition: 0, lag: 4 },
            { partition: 1, lag: 0 },
            { partition: 2, lag: 0 },
          ],
        },
        { topic: 'mem.ingestion-jobs.v1', lag: 5, partitions: [{ partition: 0, lag: 5 }] },
      ],
    })
  })

  it('counts the whole range of a partition without a committed offset ("-1" or absent)', () => {
    const lag = groupLag(
      'g',
      [{ topic: 't', partitions: [...documents.partitions, { partition: 3, low: '2', high: '5' }] }],
      [
        {
          topic: 't',
          partitions: [
            { partition: 0, offset: '10' },
            { partition: 1, offset: '-1' },
          ],
        },
      ],
    )
    // partition 0 caught up, 1 has no offset (4 − 0), 2 is empty, 3 is absent from the answer (5 − 2).
    expect(lag).toMatchObject({ lag: 7, no_committed_offsets: false, topics: [{ topic: 't', lag: 7 }] })
  })

  it('says when the group has committed nothing at all, its lag then being everything the topics hold', () => {
    const none = [
      {
        topic: documents.topic,
        partitions: documents.partitions.map(({ partition }) => ({ partition, offset: '-1' })),
      },
    ]
    expect(groupLag('memory-pipeline', [documents], none)).toEqual({
      group: 'memory-pipeline',
      lag: 14,
      no_committed_offsets: true,
      topics: [{ topic: 'mem.documents.v1', lag: 14, partitions: expect.any(Array) as unknown }],
    })
    expect(groupLag('memory-pipeline', [documents], [])).toMatchObject({
      lag: 14,
      no_committed_offsets: true,
    })
  })

  it('never counts records retention removed, nor goes below zero when the offset is past the high watermark read', () => {
    const lag = groupLag(
      'g',
      [
        {
          topic: 't',
          partitions: [
            { partition: 0, low: '100', high: '120' },
            { partition: 1, low: '0', high: '5' },
          ],
        },
      ],
      [
        {
          topic: 't',
          partitions: [
            { partition: 0, offset: '40' },
            { partition: 1, offset: '8' },
          ],
        },
      ],
    )
    expect(lag).toMatchObject({ lag: 20, no_committed_offsets: false })
  })

  it('handles offsets beyond 2^53 exactly', () => {
    const lag = groupLag(
      'g',
      [{ topic: 't', partitions: [{ partition: 0, low: '0', high: '9007199254741000' }] }],
      [{ topic: 't', partitions: [{ partition: 0, offset: '9007199254740993' }] }],
    )
    expect(lag.lag).toBe(7)
  })

  it('watches the pipeline and every projection group, each with its topics', () => {
    // This process's deployment (a test run has a namespace of its own) names them.
    const { group, topic } = deployment
    expect(consumerGroupsToWatch).toEqual([
      { group: group('memory-pipeline'), topics: [topic('mem.documents.v1')] },
      { group: group('memory-pipeline-bulk'), topics: [topic('mem.documents-bulk.v1')] },
      {
        group: group('memory-projector-jobs'),
        topics: [topic('mem.documents.v1'), topic('mem.documents-bulk.v1'), topic('mem.ingestion-jobs.v1')],
      },
      { group: group('memory-projector-vector'), topics: [topic('mem.memories.v1')] },
      { group: group('memory-projector-graph'), topics: [topic('mem.memories.v1')] },
      { group: group('memory-projector-analytics'), topics: [topic('mem.usage.v1')] },
      {
        group: group('memory-projector-conversations'),
        topics: [topic('mem.conversation-events.v1'), topic('mem.conversations.v1')],
      },
    ])
  })
})
