/**
 * An assistant's answer is not the user's memory. Of a long explanation a user later asks back only a few things:
 * what it was about (its opening restates the task), what it recommended or decided, what it said about the user's
 * own work, and its conclusion. The rest is the assistant's prose, and kept whole it would fill every search with
 * one answer (BEAM dev: 47 memories per assistant message, 69 % of the results). The rules pick the statements
 * worth keeping by those cues and keep at most a few per answer.
 */

/** Speaker labels of a model rather than a person. */
const assistantNames = new Set(
  'assistant ai bot agent system chatgpt gpt claude gemini copilot model llm chatbot'.split(' '),
)

export function isAssistantSpeaker(speaker: string | null): boolean {
  return speaker !== null && assistantNames.has(speaker.toLowerCase())
}

/** The person's side of a conversation with an assistant, labelled by role ("User:", "Human:"). */
export function isUserRole(speaker: string | null): boolean {
  return speaker !== null && /^(?:user|human|customer)$/i.test(speaker)
}

/** Statements an answer keeps: three, one more per 2 000 characters, five at most. */
export function assistantStatementBudget(answerLength: number): number {
  return Math.min(5, 3 + Math.floor(answerLength / 2000))
}

const aboutTheUser = /\b(?:you|your|you're|you've|yours)\b/i
const recommends =
  /\b(?:recommend(?:ed|s)?|suggest(?:ed|s)?|should|consider|make sure|best (?:way|approach|option|practice|choice)|instead of|avoid|prefer(?:red)?|the key|important(?:ly)?|ensure|decid(?:e|ed)|chose|choose|go with|opt for)\b/i
const concludes =
  /\b(?:in summary|to summari[sz]e|summary|overall|in conclusion|by following|this (?:approach|way|setup|plan|schedule|solution|implementation) (?:should|will|ensures|helps))\b/i
const courtesy =
  /\b(?:feel free|let me know|hope (?:this|that) helps|happy to help|if you (?:have|need) (?:any )?(?:more|further|other)|don't hesitate|good luck)\b/i
const introducesSomethingBelow =
  /(?:\bhere(?:'s| is| are)\b|\bbelow\b|\bas follows\b|\blet's\b).{0,120}:\s*$/i
const specific = /\d|\b\p{Lu}[\p{L}\d]*[A-Z\d][\p{L}\d]*\b|\b\p{Lu}\p{Ll}+(?:\s\p{Lu}\p{Ll}+)+\b/u

function salience(content: string, position: number): number {
  let score = 0
  if (position === 0) score += 3
  if (position === 1) score += 1
  if (aboutTheUser.test(content)) score += 1
  if (recommends.test(content)) score += 1
  if (concludes.test(content)) score += 1.5
  if (specific.test(content)) score += 0.5
  if (content.includes('; ')) score += 0.5
  if (introducesSomethingBelow.test(content)) score -= 1
  return score
}

/**
 * The statements of one assistant turn worth keeping, in their order: the `budget` most salient, none that is only
 * courtesy.
 */
export function selectAssistantStatements<T extends { content: string }>(
  statements: readonly T[],
  budget: number,
): T[] {
  const scored = statements.map((statement, position) => ({
    statement,
    position,
    score: salience(statement.content, position),
  }))
  const kept = new Set(
    [...scored]
      .filter(({ statement }) => !courtesy.test(statement.content))
      .sort((a, b) => b.score - a.score || a.position - b.position)
      .slice(0, budget)
      .map(({ position }) => position),
  )
  return scored.filter(({ position }) => kept.has(position)).map(({ statement }) => statement)
}
