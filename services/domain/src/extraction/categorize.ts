import type { Categorization, MemoryType } from './extraction.js'

export interface CategorizableStatement {
  content: string
  /** A resolved or stated date makes the statement a dated event. */
  occurredOn?: string | null
}

interface Cue {
  type: MemoryType
  pattern: RegExp
  /**
   * 2 for a cue that names its category on its own ("loves", "felt"), 1 for one that only leans ("amazing"), 3 for
   * one that outweighs any other (an instruction).
   */
  weight: 1 | 2 | 3
}

const STRONG = 2
const WEAK = 1
/** Outweighs any single other cue. */
const INSTRUCTION = 3

const emotionWords =
  'happy|sad|excited|anxious|nervous|proud|grateful|thankful|stressed|overwhelmed|scared|afraid|frightened|worried|upset|angry|mad|furious|frustrated|lonely|depressed|heartbroken|thrilled|overjoyed|relieved|hopeful|optimistic|emotional|moved|touched|blessed|joyful|ecstatic|devastated|disappointed|annoyed|calm|peaceful|content|motivated|inspired|stoked|pumped|bummed|glad|jealous|embarrassed|ashamed|guilty|amazed|confident|insecure|miserable|exhausted|burned out|burnt out|swamped|homesick|nostalgic|elated|delighted|cheerful|gloomy|terrified|panicked|uneasy|at peace|accepted|appreciated|supported|humbled|awestruck'

const pastActionVerbs =
  'went|visited|attended|took|met|ran|joined|started|finished|bought|moved|traveled|travelled|won|lost|graduated|painted|made|built|wrote|watched|saw|played|signed|adopted|got|celebrated|hosted|organized|organised|participated|volunteered|hiked|camped|cooked|baked|tried|learned|learnt|received|gave|found|left|came|flew|drove|swam|climbed|performed|completed|launched|opened|quit|married|dyed|picked|spent|had an?|had the|held|threw|walked|danced|sang|raised|donated|created|designed|published|released|competed|scored|trained|studied|practiced|practised|fixed|planted|taught|sold|explored|toured|chatted|talked|told'

const weekdays = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday'

/**
 * The cue table. Emotion and preference are about the speaker's inner state; episode is a past happening;
 * temporal_event is anything pinned to a date or planned ahead; fact is what stays true (jobs, places, family).
 */
const cues: Cue[] = [
  // An instruction for how to be answered ("Always include examples when I ask about probability") is a standing
  // preference of the speaker's, whatever else the sentence names.
  {
    type: 'preference',
    pattern:
      /(?:^|: )(?:please )?(?:always|never|from now on|make sure to|remember to)\b|\bwhen(?:ever)? (?:i|the user|\w+) asks? (?:about|for)\b/,
    weight: INSTRUCTION,
  },
  { type: 'preference', pattern: /\b(?:loves|loved|loving|love)\b(?!\s+to\b)/, weight: STRONG },
  {
    type: 'preference',
    pattern: /\b(?:likes|liked|prefers?|preferred|enjoys?|enjoyed|enjoying)\b/,
    weight: STRONG,
  },
  {
    type: 'preference',
    pattern: /\b(?:favou?rites?|faves?|hates?|hated|dislikes?|disliked|adores?)\b/,
    weight: STRONG,
  },
  {
    type: 'preference',
    pattern:
      /\b(?:can't stand|cannot stand|(?:is|are|am|'m)(?: not)?(?: really| totally| so| super| mostly| big)? into|fan of|fond of|passionate about|keen on|crazy about|obsessed with|would rather|a big fan)\b/,
    weight: STRONG,
  },
  { type: 'preference', pattern: /\b(?:would|'d) (?:love|like) to\b/, weight: WEAK },
  { type: 'emotion', pattern: /\b(?:feel|feels|felt|feeling|feelings)\b/, weight: STRONG },
  { type: 'emotion', pattern: new RegExp(`\\b(?:${emotionWords})\\b`), weight: STRONG },
  {
    type: 'emotion',
    pattern:
      /\b(?:so powerful|cried|crying|in tears|means a lot|meant a lot|joy|sadness|anger|fear|grief|pride|gratitude|anxiety|stress|heartwarming|heartbreaking)\b/,
    weight: STRONG,
  },
  {
    type: 'emotion',
    pattern:
      /\b(?:amazing|awesome|incredible|wonderful|rewarding|inspiring|powerful|special|tough|hard|scary|fun)\b/,
    weight: WEAK,
  },
  { type: 'episode', pattern: new RegExp(`\\b(?:${pastActionVerbs})\\b`), weight: STRONG },
  { type: 'episode', pattern: /\b(?:last night|ago|the other day|once|back then|used to)\b/, weight: WEAK },
  {
    type: 'temporal_event',
    pattern:
      /\b(?:is|are|am|'m|was) (?:going to|gonna|planning to|about to|scheduled to)\b|\b(?:will|'ll) (?!be\b)\w+|\bplans? to\b|\bscheduled\b|\bupcoming\b/,
    weight: STRONG,
  },
  {
    type: 'temporal_event',
    pattern: new RegExp(
      `\\b(?:on (?:${weekdays})|at \\d{1,2}(?::\\d{2})? ?(?:am|pm|a\\.m\\.|p\\.m\\.)|tomorrow|tonight)\\b`,
    ),
    weight: STRONG,
  },
  {
    type: 'fact',
    pattern:
      /\b(?:works? (?:as|at|for|in)|worked (?:as|at|for)|lives? in|lived in|is from|are from|was born|born in|is married|married to|is an? (?!\w+ing\b)|are an? |has (?:an? |two|three|four|five|\d+ )|have (?:two|three|four|five|\d+ )|studies|is studying|majored|owns|name is|years old|is allergic|vegetarian|vegan|profession|works? on)\b/,
    weight: STRONG,
  },
]

/** The fixed order that settles equal scores: the more specific reading first. */
const tieOrder: MemoryType[] = ['temporal_event', 'episode', 'emotion', 'preference', 'fact']

/**
 * Confidence scale (deterministic, 0..1):
 * - 0.5 — no cue at all: the default `fact`.
 * - 0.9 — the winner has a strong cue and no other category has any.
 * - 0.7 — the winner has only weak cues and no competitor.
 * - in between — lowered by up to 0.2 in proportion to the runner-up's score over the winner's, so equally
 *   strong mixed cues ("went … and it was so powerful") land around 0.7, and a weak-only winner facing an equal
 *   competitor at 0.5.
 */
export function categorize(statement: string | CategorizableStatement): Categorization {
  const { content, occurredOn } =
    typeof statement === 'string' ? { content: statement, occurredOn: null } : statement
  const text = content.toLowerCase().replace(/[’`]/g, "'")
  const scores = new Map<MemoryType, { total: number; strongest: number }>()
  const add = (type: MemoryType, weight: number) => {
    const current = scores.get(type) ?? { total: 0, strongest: 0 }
    scores.set(type, { total: current.total + weight, strongest: Math.max(current.strongest, weight) })
  }
  for (const cue of cues) if (cue.pattern.test(text)) add(cue.type, cue.weight)
  // A stated or resolved date outweighs any single cue: it is what "when…?" questions look for.
  if (occurredOn) add('temporal_event', STRONG + 1)

  // A dated happening is one temporal event: its past verbs confirm the date rather than compete with it.
  const temporal = scores.get('temporal_event')
  const episode = scores.get('episode')
  if (temporal && episode) {
    scores.set('temporal_event', { total: temporal.total + episode.total, strongest: temporal.strongest })
    scores.delete('episode')
  }

  const ranked = [...scores.entries()].sort(
    ([typeA, a], [typeB, b]) => b.total - a.total || tieOrder.indexOf(typeA) - tieOrder.indexOf(typeB),
  )
  const [winner, runnerUp] = ranked
  if (!winner) return { type: 'fact', confidence: 0.5 }
  const [type, score] = winner
  const base = score.strongest >= STRONG ? 0.9 : 0.7
  const competition = runnerUp ? Math.min(1, runnerUp[1].total / score.total) : 0
  return { type, confidence: Math.round((base - 0.2 * competition) * 100) / 100 }
}
