/**
 * How long a fetch of a consumer with nothing to read waits on the broker (kafkajs's default is 5 s). A fetch
 * returns as soon as records arrive, so this bounds only the idle wait, and what a closing consumer waits for:
 * kafkajs lets its last fetch run out before it leaves the group, and a process closes its consumers one after
 * another. One idle fetch a second per consumer is nothing to the broker.
 */
export const idleFetchWaitMs = 1_000
