/**
 * A labelled message as a memory words it: the writer named instead of "I" the first time, "they" after ("I moved
 * here and I love my flat" → "Nadia moved here and they love their flat"), as memories are stored. The examples are
 * written in the first person, so the readers are trained on both. The rewrite is deliberately plain — no verb
 * agreement, which neither the sentence vector nor the stemmed words depend on — and uses none of the extractor's
 * rules, so a change there cannot change a reader.
 */
const firstPerson = /\b(?:I['’]m|I['’]ve|I['’]ll|I['’]d|I|i|[Mm]y|[Mm]ine|[Mm]e|[Mm]yself)\b/g

const named: Record<string, (name: string) => string> = {
  "i'm": (name) => `${name} is`,
  "i've": (name) => `${name} has`,
  "i'll": (name) => `${name} will`,
  "i'd": (name) => `${name} would`,
  i: (name) => name,
  my: (name) => `${name}'s`,
  mine: (name) => `${name}'s`,
  me: (name) => name,
  myself: (name) => name,
}
const pronoun: Record<string, string> = {
  "i'm": "they're",
  "i've": "they've",
  "i'll": "they'll",
  "i'd": "they'd",
  i: 'they',
  my: 'their',
  mine: 'theirs',
  me: 'them',
  myself: 'themself',
}

/** Names the rewrite takes in turn, beside the user role (the person's side of a chat with an assistant). */
export const exampleSpeakers = [
  'Nadia',
  'Tomás',
  'Chen',
  'Ifeoma',
  'Lukas',
  'Aroha',
  'Sanjay',
  'Marisol',
] as const
export const userRole = 'the user'

export function saidBy(text: string, name: string): string {
  let mentioned = false
  const written = text.replace(firstPerson, (word) => {
    const key = word.toLowerCase().replace('’', "'")
    const replaced = mentioned ? (pronoun[key] ?? word) : (named[key]?.(name) ?? word)
    mentioned = true
    return replaced
  })
  return written.replace(/^the user\b/, 'The user')
}

/** The person's side of a chat with an assistant, as a memory names them when it keeps their own words. */
export const userLabel = 'User'

/**
 * A labelled message as a memory keeps it when it cannot reword it: in the writer's own words after their name
 * ("Nadia said: we moved here in May", "User asked: is Revolut any good?"), as the extractor stores a sentence whose
 * first person it does not rewrite.
 */
export function quotedBy(text: string, name: string): string {
  return `${name} ${text.trim().endsWith('?') ? 'asked' : 'said'}: ${text}`
}
