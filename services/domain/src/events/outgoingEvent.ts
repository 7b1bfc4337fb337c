export interface OutgoingEvent {
  /** Partitioning key: records with the same key keep their order (a conversation, a document). */
  key: string
  /** The schema-registry subject the payload is encoded with. */
  subject: string
  payload: unknown
  correlationId: string
  headers?: Record<string, string>
}
