/**
 * A failure of a model service (extractor, embedder) with the stable code recorded in a job's `errors` and whether
 * retrying can help: the pipeline retries transient failures and records the others at once.
 */
export class ModelServiceError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly transient: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = new.target.name
  }
}
