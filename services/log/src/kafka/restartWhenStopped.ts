import type { Consumer } from 'kafkajs'
import type { Logger } from '@memory-service/engines'

export interface ConsumerRestarts {
  /** Starts the consumer again after the pause (say, when its first join failed). */
  startLater(): void
  /** No more restarts: the owner is closing the consumer. */
  stop(): void
}

const restartAfterMs = 5_000

/**
 * kafkajs starts a crashed consumer again only after an error it calls retriable; after any other (a protocol error
 * it does not expect while a broker or coordinator comes back, such as "Failed to find group coordinator") the
 * consumer stays stopped for good: its partitions go unread while the process looks healthy. This starts it again
 * after a pause (`start` connects, subscribes and runs it), until it runs or the owner stops it.
 */
export function restartWhenStoppedForGood(
  consumer: Consumer,
  options: { groupId: string; start: () => Promise<void>; logger: Logger; pauseMs?: number },
): ConsumerRestarts {
  const pauseMs = options.pauseMs ?? restartAfterMs
  let stopped = false
  let timer: NodeJS.Timeout | undefined

  const startAgain = async (): Promise<void> => {
    timer = undefined
    if (stopped) return
    try {
      await consumer.connect()
      await options.start()
      options.logger.info({ groupId: options.groupId }, 'consumer started again after it stopped for good')
    } catch (error) {
      options.logger.error(
        { err: error, groupId: options.groupId, retryInMs: pauseMs },
        'consumer not started again; retried',
      )
      startLater()
    }
  }
  const startLater = (): void => {
    if (stopped || timer) return
    timer = setTimeout(() => void startAgain(), pauseMs)
  }

  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (payload.restart || stopped) return
    options.logger.error(
      { err: payload.error, groupId: options.groupId, retryInMs: pauseMs },
      'consumer stopped by kafkajs for good; started again after a pause',
    )
    startLater()
  })

  return {
    startLater,
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = undefined
    },
  }
}
