/**
 * Which changing fact a statement states: a subject's attribute with one value at a time (where someone lives, whom
 * they work for, their job, their relationship status, their favourite of something). Two memories of the same
 * subject and attribute in one scope are versions of one fact: the later one supersedes the earlier (supersession.ts).
 *
 * The rules read the statement as the extractors write it (third person, the speaker named: "Caroline moved to
 * Porto."), so they serve the built-in extractor and the LLM extractor alike. They are deliberately narrow: a
 * statement that only mentions a city ("Caroline visited Porto") states no residence, and a plan, a question, a
 * negation or a past that is over ("used to live") states no current fact. A missed fact costs a superseded memory
 * that still looks current; a wrong one hides a true memory from default search, which is worse.
 */

export const factAttributes = ['residence', 'employer', 'occupation', 'relationship', 'favorite'] as const
export type FactAttribute = (typeof factAttributes)[number]

export interface FactSlot {
  /** Whom the fact is about: the speaker's or named person's name in lower case, `self` for an unnamed "I". */
  subject: string
  /** The attribute, with its object for favourites: `residence`, `favorite:band`. */
  attribute: string
  /** The normalized value, compared to tell a change from a restatement. */
  value: string
  /** subject + attribute: memories with the same key (in one scope) are versions of one fact. */
  key: string
}

const name = "[A-Z][\\p{L}'’-]+(?: [A-Z][\\p{L}'’-]+)?"
// A possessor: the name without the possessive ending ("Caroline's home").
const owner = '[A-Z][\\p{L}-]+(?: [A-Z][\\p{L}-]+)?'
const subjectPattern = `(?<subject>(?:${name} and )?(?:${name}|I|We|we)|${name} and (?:I|me))`
const adverbs = '(?:(?:just|finally|recently|now|officially|also|actually|currently|already|since|then) )*'
const auxiliaries = "(?:(?:has|have|had|is|am|are|was|'s|'m|'re|'ve|been) )*"
// "These days Lena works as…", "Since May, Lena lives in…": a time phrase before the subject.
// The date the extractor resolved follows a relative one in parentheses: "Last month (May 2024) Priya moved to…".
const timePhrase =
  '(?:[Yy]esterday|[Tt]oday|[Tt]his (?:week|month|year|morning)|[Ll]ast (?:week|month|year|summer|winter|spring|fall|autumn|weekend|[A-Z]\\p{L}+)|(?:[Aa]|[Oo]ne|[Tt]wo|[Tt]hree|[Ff]our|[Ff]ive|[Ss]ix|\\d+|[Aa] few|[Aa] couple of) (?:days?|weeks?|months?|years?) ago|[Ii]n [A-Z]\\p{L}+(?: \\d{4})?|[Oo]n [A-Z]\\p{L}+ \\d{1,2}(?:st|nd|rd|th)?)(?: \\([^)]*\\))?'
const opening = `(?:(?:${timePhrase}|[Tt]hese days|[Nn]owadays|[Nn]ow|[Cc]urrently|[Ss]ince [\\p{L}0-9 ]{1,20}?|[Aa]s of [\\p{L}0-9 ]{1,20}?|[Aa]fter [\\p{L}0-9 ]{1,20}?|[Ss]o|[Ww]ell|[Gg]uess what),? )?`
const lead = `^${opening}${subjectPattern} ${adverbs}${auxiliaries}${adverbs}`
const properNoun =
  "[A-Z0-9][\\p{L}0-9&'’.-]*(?: (?:[A-Z0-9&][\\p{L}0-9&'’.-]*|of|and|de|da|do|del|la|le|upon|am|on))*"
const until = '(?=$|[\\s.,!;:)(])'

interface Rule {
  attribute: FactAttribute
  pattern: RegExp
  /** The value, from the match and the text before it (what "it" refers to). */
  value?: (match: RegExpMatchArray, before: string, speaker: string | null) => string | null
}

/** A favourite's possessor: a name, or "my" / "their" for the speaker (the third-person rewrite writes "their"). */
const possessor = `(?<subject>${owner}|My|my|[Tt]heir)(?:'s|’s)?`
const favoriteWord = '(?:new |current |all-time |all time |absolute |number one )?(?:favorite|favourite)'

/** Words that open a sentence without starting a name ("The bear…", "Ok Ghost…"). */
const openingWord = /^(?:the|a|an|ok|okay|so|honestly|and|but|just)$/i
/** A verb opening a sentence, before a name or not: "Reading The Hobbit…", "Watched Twin Peaks…", "Reading to…". */
const openingVerb = /^\p{L}+(?:ing|ed)$/iu
/** Names written in a text: capitalized words and what joins them ("Season 14 of Grey's Anatomy", "Jane Eyre"). */
const writtenName = new RegExp(
  `\\p{Lu}[\\p{L}0-9&'’.-]*(?: (?:[\\p{Lu}0-9&][\\p{L}0-9&'’.-]*|of|and|de|la|le|the))*`,
  'gu',
)

/** The names of things a sentence writes: not people's possessives ("Finn's nephew"), nor the speaker. */
function thingsNamedIn(sentence: string, speaker: string | null): string[] {
  const names: string[] = []
  for (const match of sentence.matchAll(writtenName)) {
    let words = match[0].replace(/(?: (?:of|and|de|la|le|the))+$/, '').split(' ')
    if (match.index === 0) {
      while (words.length > 0 && openingWord.test(words[0] ?? '')) words = words.slice(1)
      if (openingVerb.test(words[0] ?? '')) words = words.slice(1)
    }
    const name = words.join(' ').replace(/[.'’-]+$/, '')
    if (name === '' || /['’]s$/.test(name) || name.toLowerCase() === speaker?.toLowerCase()) continue
    names.push(name)
  }
  return names
}

/**
 * What a favourite told by reference is: the last thing named before it in its sentence ("Season 14 of Grey's
 * Anatomy and it's still my favourite show", "rereading Jane Eyre, my favourite book"), or, for a sentence that
 * opens with "it", the thing the sentence before names or opens with ("The bear season 2 destroyed me. It's my
 * favourite show now").
 */
function referencedThing(before: string, speaker: string | null): string | null {
  const sentences = before.split(/(?<=[.!?])\s+/)
  const current = sentences.at(-1)?.trim() ?? ''
  if (current !== '') return thingsNamedIn(current, speaker).at(-1) ?? null
  const previous = sentences.at(-2) ?? ''
  const opening = /^((?:\S+ ){1,5}?)(?:\w+ed|is|was|has|had|got|made|took|broke|blew)\b/u
    .exec(previous)?.[1]
    ?.trim()
  return thingsNamedIn(previous, speaker).at(-1) ?? opening ?? null
}

const rules: Rule[] = [
  {
    attribute: 'residence',
    pattern: new RegExp(
      `${lead}(?:lives?|living|resides?|residing|moved|relocated|settled|settled down)(?: back| over| out)? (?:in|to|into) (?:the city of )?(?<value>${properNoun})${until}`,
      'u',
    ),
    // "moved in 3 weeks ago" says when, not where.
    value: (match) => (/^\d/.test(match.groups?.value ?? '') ? null : (match.groups?.value ?? null)),
  },
  {
    attribute: 'residence',
    pattern: new RegExp(
      `^(?<subject>${owner}|My|Our)(?:'s|’s)? (?:new )?(?:home|house|apartment|flat|place) is (?:now )?in (?<value>${properNoun})${until}`,
      'u',
    ),
  },
  {
    attribute: 'employer',
    pattern: new RegExp(
      `${lead}(?:(?:works?|working)(?: full[- ]time| part[- ]time| remotely)?(?: as (?:a |an )?[\\p{L} -]+?)? (?:at|for)|(?:started|starting|began|got|took|accepted|landed)(?: (?:a|an|my|her|his|their|the|${owner}(?:'s|’s)))?(?: new)? (?:job|position|role|gig|internship|contract)(?: as (?:a |an )?[\\p{L} -]+?)? (?:at|with|for)|(?:started|began) (?:working )?(?:at|for)|joined|is employed (?:at|by)|employed (?:at|by)) (?:the )?(?<value>${properNoun})${until}`,
      'u',
    ),
  },
  {
    attribute: 'occupation',
    pattern: new RegExp(
      `${lead}(?:(?:(?:works?|working|started working|began working|(?:got|took|started|landed)(?: (?:a|an|my|her|his|their|${owner}(?:'s|’s)))?(?: new)? (?:job|position|role))(?: now)? as|got promoted to|was promoted to|been promoted to) (?:a |an |the )?|(?:became|is now|'s now) (?:a |an ))(?<value>[a-z][a-z -]{2,40}?)(?= at | for | in | with | since | last | this | recently | now | \\(|[.,!;]|$)`,
      'u',
    ),
  },
  {
    attribute: 'relationship',
    pattern: new RegExp(
      `${lead}(?:got |are |is |'re |now )?(?<value>married|engaged|divorced|single|separated|broke up|split up|started dating|is dating|dating|got back together|in a relationship)${until}`,
      'u',
    ),
    value: (match) => {
      const stated = match.groups?.value ?? ''
      if (stated === 'broke up' || stated === 'split up' || stated === 'separated') return 'single'
      if (stated.includes('dating') || stated === 'in a relationship' || stated === 'got back together')
        return 'in a relationship'
      return stated
    },
  },
  {
    attribute: 'favorite',
    pattern: new RegExp(
      `^(?<subject>${owner}|My)(?:'s|’s)? (?:new |current |all-time |absolute )?(?:favorite|favourite) (?<thing>[a-z][a-z -]{1,30}?) (?:is|are) (?:now |currently |still |definitely |officially )?(?<value>[^.,!;?]+?)(?: now| these days| nowadays| at the moment)?(?=[.,!;]|$)`,
      'u',
    ),
  },
  {
    // "Severance is Zeynep's favorite show now", "sushi is Luca's new favourite food": the value first.
    attribute: 'favorite',
    pattern: new RegExp(
      `(?:^|[,:;–—-] |\\b(?:but|and|so|honestly|ok|okay) )(?<value>[\\p{L}0-9](?:(?!\\b(?:but|and|so)\\b)[^.,!;?:]){0,60}?) (?:is|are) (?:now |still |officially |definitely |easily )?(?<subject>${owner})(?:'s|’s) (?:new |current |all-time |all time |absolute |number one )?(?:favorite|favourite) (?<thing>[a-z][a-z -]{1,30}?)(?: now| these days| nowadays| at the moment| of all time| ever| on earth| in the world)?(?=[.,!;]| and | but |$)`,
      'u',
    ),
  },
  {
    // "Season 14 of Grey's Anatomy and it's still my favorite show", "rereading Jane Eyre, my favourite book".
    attribute: 'favorite',
    pattern: new RegExp(
      `(?:\\b(?:[Ii]t|[Tt]his|[Tt]hat)(?:'s|’s| is) (?:now |still |officially |definitely |easily |honestly )?|, )${possessor} ${favoriteWord} (?<thing>[a-z]+)(?= now| these days| nowadays| at the moment| of all time| ever| since|[.,!;]| and | but |$)`,
      'u',
    ),
    value: (_match, before, speaker) => referencedThing(before, speaker),
  },
  {
    // "Ghost has overtaken Metallica as my number one", "boygenius has taken the top spot": a favourite whose kind is
    // the one of the favourite it replaced (factSupersession.ts), hence the attribute without its kind.
    attribute: 'favorite',
    pattern: new RegExp(
      `(?:^|[,:;–—-] |\\b(?:but|and|so|honestly|ok|okay) )(?<value>[\\p{L}0-9](?:(?!\\b(?:but|and|so)\\b)[^.,!;?:]){0,60}?) (?:has|have) (?:officially |finally |now |just )?(?:(?:overtaken|dethroned|replaced|beaten) [^.,!;?]{1,60}? as ${possessor} (?:new |all-time |all time |absolute )*(?:favou?rite|number one|#1|no\\.? ?1)(?: (?<thing>[a-z]+))?|taken (?:over )?the top spot)`,
      'u',
    ),
  },
]

// Words that make a statement about something other than a current fact.
const notAFact =
  /\b(?:not|never|no longer|anymore|used to|would|could|might|maybe|perhaps|if|plan(?:s|ning)? to|want(?:s|ed)? to|hop(?:e|es|ing) to|thinking (?:about|of)|going to|will|wish|dream|someday|one day)\b|n['’]t\b|\?/i

const notAPerson = new Set(['the', 'this', 'that', 'it', 'he', 'she', 'they', 'there', 'here', 'everyone'])

/** The statement as the rules read it: "Sam said: We broke up." is Sam's. */
function withoutReportingClause(
  content: string,
  speaker: string | null,
): { text: string; speaker: string | null } {
  const reported = /^(?<who>[A-Z][\p{L}'’-]+(?: [A-Z][\p{L}'’-]+)?) said: (?<text>.+)$/u.exec(content.trim())
  if (reported?.groups) return { text: reported.groups.text ?? '', speaker: reported.groups.who ?? speaker }
  return { text: content.trim(), speaker }
}

function subjectOf(stated: string, speaker: string | null): string | null {
  // "We've been married…": the contraction is the verb's, not part of the subject.
  // An interjection before it ("Ok Maëlle's favourite…") is no part of the subject either.
  const people = stated.split(/ and /).map((person) =>
    person
      .trim()
      .replace(/['’](?:ve|re|d|ll|m)$/i, '')
      .replace(/^(?:ok|okay|so|well|honestly|yeah|lol|ugh|anyway) /i, ''),
  )
  const speakerKey = speaker?.toLowerCase()
  // The rewrite writes the speaker's own possessions "their"; someone else's "their" has no speaker to stand for.
  if (people.some((person) => /^their$/i.test(person))) return speaker?.toLowerCase() ?? null
  const firstPerson = people.some((person) => /^(?:i|we|me|my|our)$/i.test(person))
  if (speakerKey && (firstPerson || people.some((person) => person.toLowerCase() === speakerKey)))
    return speakerKey
  if (firstPerson) return 'self'
  const first = people[0]?.toLowerCase()
  return first && !notAPerson.has(first) ? first : null
}

/** A fact's value as compared between versions: lower case, no article, no trailing punctuation. */
export function normalizedFactValue(value: string): string {
  return value
    .toLowerCase()
    .replace(/^(?:a|an|the) /, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.'’-]+$/, '')
}

/** The changing fact the statement states, or null. */
export function factSlotOf(content: string, speaker: string | null): FactSlot | null {
  const { text, speaker: subjectSpeaker } = withoutReportingClause(content, speaker)
  for (const rule of rules) {
    const match = rule.pattern.exec(text)
    if (!match?.groups) continue
    // A negation, a plan or a question up to the end of the fact's words unsays it; one after them is another clause.
    if (notAFact.test(text.slice(match.index, match.index + match[0].length + 1))) continue
    // A rule whose words name no possessor ("has taken the top spot") tells the speaker's own.
    const subject = subjectOf(match.groups.subject ?? 'I', subjectSpeaker)
    const value = rule.value
      ? rule.value(match, text.slice(0, match.index), subjectSpeaker)
      : (match.groups.value?.replace(/^(?:honestly|ok|okay|so|well|yeah|ugh|lol),? /i, '') ?? null)
    if (!subject || !value) continue
    const thing = normalizedFactValue(match.groups.thing ?? '')
    const attribute = rule.attribute === 'favorite' && thing !== '' ? `favorite:${thing}` : rule.attribute
    const normalizedValue = normalizedFactValue(value)
    if (normalizedValue.length === 0) continue
    return { subject, attribute, value: normalizedValue, key: `${subject}|${attribute}` }
  }
  return null
}

/** The fact a question asks about: an attribute, and whose when it names someone. */
export interface AskedFact {
  /** As in FactSlot: `residence`, `favorite:band`. */
  attribute: string
  /** Lower-case names the question mentions (one may be the fact's subject); empty when it names nobody. */
  subjects: string[]
  /** The question's words, to prefer the version whose value it names ("when did she move to Porto?"). */
  words: string[]
  /** It asks what holds now ("Where does Ana live?"), not what was ("Where did Ana live before?"). */
  current: boolean
}

const questionWords = new Set(
  'what where who whom whose when which why how is are was were does do did has have had can could will would should i the a an'.split(
    ' ',
  ),
)

const askedAttributes: { attribute: string; pattern: RegExp }[] = [
  {
    attribute: 'partner',
    pattern:
      /\b(?:who (?:is|'s) \S+(?: \S+)? (?:dating|seeing|with|married to|engaged to)|(?:partner|boyfriend|girlfriend|husband|wife|spouse|fianc[ée]e?)(?:'s name)?\b(?! status))/i,
  },
  { attribute: 'pet', pattern: /\b(?:pets?|dogs?|cats?|puppy|kitten|animals?)\b/i },
  { attribute: 'car', pattern: /\b(?:cars?|drives?|driving|vehicle)\b/i },
  { attribute: 'phone', pattern: /\b(?:phones?|smartphone|mobile)\b/i },
  { attribute: 'diet', pattern: /\b(?:diet|eat|eats|eating|vegan|vegetarian|meat)\b/i },
  {
    attribute: 'school',
    pattern:
      /\b(?:stud(?:y|ies|ying)|school|university|uni|college|enrolled|student|degree|programme|program)\b/i,
  },
  { attribute: 'sport', pattern: /\b(?:sports?|plays?|playing|trains?|training|exercise|work(?:s)? out)\b/i },
  {
    attribute: 'relationship',
    pattern:
      /\b(?:relationship|marital|married|marry|single|dating|engaged|partner|boyfriend|girlfriend|husband|wife|spouse|divorced|broke up|split up|seeing anyone)\b/i,
  },
  {
    attribute: 'employer',
    pattern:
      /\b(?:work(?:s|ing)? (?:for|at)|employer|employed|which company|what company|start(?:ed)? working at|join(?:ed)?|where (?:does|did|do) \S+(?: \S+)? work|where (?:is|are|was) \S+(?: \S+)? (?:working|employed)|who (?:does|do|did) \S+(?: \S+)? work for)\b/i,
  },
  {
    attribute: 'occupation',
    pattern:
      /\b(?:job|occupation|profession|career|trade|role|job title|for a living|work(?:s|ing)? as|become an?|became an?|what (?:does|did|do) \S+(?: \S+)? do\b)/i,
  },
  {
    attribute: 'residence',
    pattern:
      /\b(?:live|lives|living|lived|reside|resides|residence|home town|hometown|based|move|moved|moving|relocate|relocated|city|country|address)\b/i,
  },
]

/** Which changing fact a question asks about, if any (the attributes factSlotOf reads). */
export function askedFactOf(question: string): AskedFact | null {
  const favorite =
    /\b(?:favorite|favourite) (?!these days|now\b|nowadays|at the moment|right now)(?<thing>[a-z][a-z -]{1,30}?)(?=\?|$| now| these days| nowadays| at the moment| right now| (?:is|was|are))/i.exec(
      question,
    )
  // "Which band is Gustavo's favourite?": the thing named before the person.
  const favoriteAfter =
    /\b(?:which|what) (?<thing>[a-z][a-z -]{1,30}?) (?:is|are) \S+(?:'s|’s) (?:all[- ]time )?(?:favorite|favourite)\b/i.exec(
      question,
    )
  const thing = favorite?.groups?.thing ?? favoriteAfter?.groups?.thing
  const attribute = thing
    ? `favorite:${normalizedFactValue(thing)}`
    : askedAttributes.find(({ pattern }) => pattern.test(question))?.attribute
  if (!attribute) return null
  const tokens = question.split(/[^\p{L}'’-]+/u).filter(Boolean)
  const names = tokens
    .map((token) => token.replace(/(?:'s|’s|')$/, ''))
    .filter((token) => /^\p{Lu}/u.test(token) && !questionWords.has(token.toLowerCase()))
    .map((token) => token.toLowerCase())
  const words = tokens.map((token) => token.toLowerCase()).filter((token) => !questionWords.has(token))
  const current =
    !/\b(?:did|was|were|used to|before|previously|formerly|originally|first|when|ago|last year|back then|in \d{4})\b/i.test(
      question,
    )
  return { attribute, subjects: [...new Set(names)], words: [...new Set(words)], current }
}
