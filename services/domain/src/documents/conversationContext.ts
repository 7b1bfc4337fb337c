import type { Document } from '@memory-service/contracts'

/**
 * A turn of a conversation rarely stands alone: "They're a real support." answers a question about family, "Thanks!
 * It felt crazy." is about the deal in the turn before. Clients that ingest a conversation turn by turn send the
 * turns in order, in one batch; the turns on either side of a document are its context, stored with its memories so
 * that search can find a turn by what it answers.
 */

/** Document types whose documents can be turns of one conversation. */
const conversational = new Set<Document['document_type']>([
  'ai-chat-conversation',
  'human-chat-conversation',
  'meeting-transcript',
  'support-ticket',
])

/** Turns further apart than this are separate conversations (a session a week later). */
export const CONTEXT_WINDOW_MS = 30 * 60 * 1000
/** Characters of a neighbouring turn kept: the end of the one before, the start of the one after. */
export const CONTEXT_MAX_CHARS = 500

export interface DocumentContext {
  before: string
  after: string
}

function createdWithinWindow(a: Document, b: Document, acceptedAt: number): boolean {
  const timeOf = (document: Document) =>
    document.document_created_at === undefined ? acceptedAt : Date.parse(document.document_created_at)
  return Math.abs(timeOf(a) - timeOf(b)) <= CONTEXT_WINDOW_MS
}

/**
 * The context of each document of a batch: the nearest document before and after it with the same scope and
 * conversational type, when created within CONTEXT_WINDOW_MS of it. Undefined for a document with neither, and for
 * non-conversational types. Deterministic: the batch's order is the conversation's order, and the context travels in
 * the accepted event, so a replay rebuilds the same memories.
 */
export function batchContextsOf(
  documents: readonly Document[],
  acceptedAt: string,
): (DocumentContext | undefined)[] {
  const accepted = Date.parse(acceptedAt)
  const neighbour = (index: number, step: -1 | 1): Document | undefined => {
    const document = documents[index]
    if (!document) return undefined
    for (let other = index + step; other >= 0 && other < documents.length; other += step) {
      const candidate = documents[other]
      if (!candidate || candidate.document_type !== document.document_type) continue
      if ((candidate.user_id ?? null) !== (document.user_id ?? null)) continue
      if ((candidate.customer_id ?? null) !== (document.customer_id ?? null)) continue
      // The nearest turn of the same scope decides: one from another session is not skipped over.
      return createdWithinWindow(document, candidate, accepted) ? candidate : undefined
    }
    return undefined
  }
  return documents.map((document, index) => {
    if (!conversational.has(document.document_type)) return undefined
    const before = neighbour(index, -1)?.document.slice(-CONTEXT_MAX_CHARS) ?? ''
    const after = neighbour(index, 1)?.document.slice(0, CONTEXT_MAX_CHARS) ?? ''
    return before || after ? { before, after } : undefined
  })
}

/** What the memory's context vector embeds: its statement read after the turn before it. */
export function contextualTextOf(content: string, context: DocumentContext): string {
  return context.before ? `${context.before}\n${content}` : content
}
