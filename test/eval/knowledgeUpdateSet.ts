/**
 * The knowledge-update dataset (issue 19): synthetic people whose residence, employer, occupation, relationship
 * status or favourite thing changes over about two years of chat sessions, and questions about what is true now,
 * what was true at a given date, and when a change happened.
 *
 * Deterministic (a seeded generator, never Math.random), so two runs ask the same questions of the same documents
 * and their scores compare. Pure (no I/O, no engine), so the generator and the scoring can be tested on their own.
 *
 * Ground truth of a change's date: the day the statement names when it names one ("yesterday", "three days ago",
 * "on March 3"), the start of the period it names otherwise ("last week" → that Monday, "last month" → the 1st),
 * and the session's day when it names none. What the service may answer is the window of days `validFromWindow`:
 * ±1 day around a named or session day (time zones), the named week and the day before it, or the whole named
 * month. `as_of` questions ask about a day at least `AS_OF_MARGIN_DAYS` clear of both neighbouring windows.
 */

// ---------------------------------------------------------------------------------------------------------------
// Seeded randomness

export interface Random {
  /** In [0, 1). */
  next: () => number
  /** An integer in [min, max]. */
  int: (min: number, max: number) => number
  chance: (probability: number) => boolean
  pick: <T>(items: readonly T[]) => T
  /** A shuffled copy. */
  shuffle: <T>(items: readonly T[]) => T[]
  /** `count` distinct items in random order. */
  sample: <T>(items: readonly T[], count: number) => T[]
}

/** mulberry32: tiny and well spread, enough to vary a dataset reproducibly. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = state
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const shuffle = <T>(items: readonly T[]): T[] => {
    const copy = [...items]
    for (let index = copy.length - 1; index > 0; index -= 1) {
      const other = int(0, index)
      ;[copy[index], copy[other]] = [copy[other] as T, copy[index] as T]
    }
    return copy
  }
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list')
      return items[int(0, items.length - 1)] as T
    },
    shuffle,
    sample: <T>(items: readonly T[], count: number): T[] => {
      if (count > items.length) throw new Error(`cannot sample ${count} of ${items.length} items`)
      return shuffle(items).slice(0, count)
    },
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Calendar days (UTC day numbers: plain arithmetic, no clock and no time zone)

type Day = number

const MS_PER_DAY = 86_400_000
const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const

const dayOf = (year: number, month: number, day: number): Day => Date.UTC(year, month - 1, day) / MS_PER_DAY
const dateOf = (day: Day) => new Date(day * MS_PER_DAY)
/** YYYY-MM-DD. */
export const isoDay = (day: Day): string => dateOf(day).toISOString().slice(0, 10)
const mondayOf = (day: Day): Day => day - ((dateOf(day).getUTCDay() + 6) % 7)
const firstOfMonth = (day: Day): Day => dayOf(dateOf(day).getUTCFullYear(), dateOf(day).getUTCMonth() + 1, 1)
const lastOfMonth = (day: Day): Day =>
  dayOf(dateOf(day).getUTCFullYear(), dateOf(day).getUTCMonth() + 2, 1) - 1

/** The calendar day an ISO timestamp is written on (its own offset, as the service reads it), else its UTC day. */
export function calendarDayOf(iso: string): Day | null {
  const written = /^\s*(\d{4})-(\d{2})-(\d{2})/.exec(iso)
  if (written) return dayOf(Number(written[1]), Number(written[2]), Number(written[3]))
  const parsed = Date.parse(iso)
  return Number.isNaN(parsed) ? null : Math.floor(parsed / MS_PER_DAY)
}

const parseIsoDay = (text: string): Day => {
  const day = calendarDayOf(text)
  if (day === null) throw new Error(`not a date: ${text}`)
  return day
}

// ---------------------------------------------------------------------------------------------------------------
// The dataset's shape

export type AttributeKind = 'residence' | 'employer' | 'occupation' | 'relationship' | 'favorite'
export const attributeKinds: readonly AttributeKind[] = [
  'residence',
  'employer',
  'occupation',
  'relationship',
  'favorite',
]

export type QuestionKind = 'now' | 'as_of' | 'when'
export const questionKinds: readonly QuestionKind[] = ['now', 'as_of', 'when']

/** How precisely a statement dates its change, which decides how far the service's valid_from may be from ours. */
export type Granularity = 'day' | 'week' | 'month'

/** Inclusive range of calendar days, YYYY-MM-DD. */
export interface DayWindow {
  earliest: string
  latest: string
}

/** One value of one attribute of one person, as a statement in one session introduced it. */
export interface Fact {
  personId: string
  attribute: AttributeKind
  /** The value in words: "Porto", "dating Tom", "broke up". */
  value: string
  /** For a favourite, what kind of favourite it is ("band"); null for other attributes. */
  favoriteThing: string | null
  /** Words a memory must all contain (whole words, any case) to state this value. */
  terms: string[]
  /** The turn's text without the speaker, as said. */
  statement: string
  sessionId: string
  /** The time expression the statement carries ("last month"), or null when the session dates it. */
  dateExpression: string | null
  granularity: Granularity
  /** Ground truth of when the value became true, YYYY-MM-DD (see the module comment). */
  validFrom: string
  /** The days a correct valid_from may fall on. */
  validFromWindow: DayWindow
}

/** One turn, one document: "Speaker: text", dated by its session. */
export interface TurnDocument {
  /** Unique within the dataset; the runner prefixes it per ingestion order. */
  id: string
  personId: string
  sessionId: string
  turn: number
  speaker: string
  text: string
  /** ISO timestamp: the session's start plus one minute per turn, so turns keep their order and context. */
  createdAt: string
}

export interface Session {
  id: string
  personId: string
  index: number
  /** "Assistant" or the friend the person talks to. */
  partner: string
  startsAt: string
  documents: TurnDocument[]
}

export interface Person {
  id: string
  name: string
  attributes: AttributeKind[]
  sessions: Session[]
  /** Every value of every attribute, oldest first within an attribute. */
  facts: Fact[]
}

export interface Question {
  id: string
  personId: string
  kind: QuestionKind
  attribute: AttributeKind
  text: string
  /** For `as_of`: the moment asked about (ISO timestamp, noon UTC); null otherwise. */
  asOf: string | null
  expected: {
    value: string
    terms: string[]
    /** For `when`: the days the answer's valid_from may fall on; null otherwise. */
    validFrom: DayWindow | null
    /** Whether a later value replaced this one, so that its memory should end superseded. */
    replaced: boolean
  }
}

export interface KnowledgeUpdateSet {
  seed: number
  persons: Person[]
  /** Every session's documents, sessions in date order. */
  documents: TurnDocument[]
  questions: Question[]
}

export interface GeneratorOptions {
  seed?: number
  persons?: number
}

export const DEFAULT_SEED = 19
export const DEFAULT_PERSONS = 40
/** How far an `as_of` day stays from the windows of the changes before and after it. */
export const AS_OF_MARGIN_DAYS = 3

// ---------------------------------------------------------------------------------------------------------------
// Vocabulary. Names are ordinary first names; companies and bands are invented.

const personNames = [
  'Lena',
  'Tomasz',
  'Amara',
  'Jonas',
  'Priya',
  'Mateo',
  'Ingrid',
  'Kwame',
  'Sofia',
  'Ravi',
  'Elif',
  'Noah',
  'Yuki',
  'Camille',
  'Diego',
  'Hannah',
  'Oluwaseun',
  'Marta',
  'Felix',
  'Aisha',
  'Bruno',
  'Leila',
  'Henrik',
  'Mei',
  'Santiago',
  'Freya',
  'Idris',
  'Clara',
  'Emeka',
  'Nadia',
  'Oskar',
  'Zara',
  'Lucas',
  'Ines',
  'Anders',
  'Farah',
  'Hugo',
  'Rosa',
  'Tariq',
  'Greta',
  'Malik',
  'Vera',
  'Kenji',
  'Astrid',
]

// Partners and friends never share a name with a person, so a name in a memory says whom it is about.
const partnerNames = [
  'Daniel',
  'Sara',
  'Miguel',
  'Julia',
  'Benedikt',
  'Chloe',
  'Ahmed',
  'Eva',
  'Liam',
  'Nora',
  'Pablo',
  'Lucy',
  'Karim',
  'Maya',
  'Victor',
  'Helena',
  'Samuel',
  'Isabel',
  'Theo',
  'Amelie',
]

const friendNames = ['Jakob', 'Paula', 'Omar', 'Birgit', 'Rafael', 'Selma', 'Dev', 'Wiebke', 'Carlos', 'Yara']

const cities = [
  'Lisbon',
  'Porto',
  'Berlin',
  'Hamburg',
  'Vienna',
  'Madrid',
  'Valencia',
  'Lyon',
  'Rotterdam',
  'Copenhagen',
  'Dublin',
  'Edinburgh',
  'Krakow',
  'Milan',
  'Prague',
  'Gothenburg',
]

const companies = [
  'Nordwind Logistics',
  'Brightwave Analytics',
  'Kestrel Foods',
  'Bluepine Software',
  'Harborline Shipping',
  'Maplestone Bank',
  'Quillworks Studio',
  'Redfern Health',
  'Silverbirch Insurance',
  'Tidewater Energy',
  'Ironbridge Engineering',
  'Cobalt Street Media',
  'Larkspur Robotics',
  'Greenhollow Farms',
]

const occupations = [
  'nurse',
  'architect',
  'teacher',
  'pharmacist',
  'carpenter',
  'translator',
  'physiotherapist',
  'chef',
  'photographer',
  'electrician',
  'librarian',
  'accountant',
  'paramedic',
  'data analyst',
  'software developer',
  'veterinarian',
]

/** Jobs of people whose occupation is not asked about: only said in "I joined X as a …". */
const fixedRoles = ['project manager', 'sales lead', 'designer', 'operations coordinator', 'engineer']

type FavoriteThing = 'band' | 'dish' | 'sport'

const favoriteValues: Record<FavoriteThing, readonly string[]> = {
  band: [
    'The Velvet Harbors',
    'Copper Moth',
    'Northern Static',
    'Glass Orchard',
    'The Midnight Ferns',
    'Saltwater Choir',
    'Paper Satellites',
    'Lumen Drive',
  ],
  dish: ['ramen', 'paella', 'shakshuka', 'pho', 'lasagna', 'pierogi', 'bibimbap', 'moussaka'],
  sport: ['climbing', 'tennis', 'rowing', 'badminton', 'handball', 'volleyball', 'fencing', 'surfing'],
}

type RelationshipStatus = 'single' | 'dating' | 'engaged' | 'married' | 'broke up' | 'divorced'

/** Plausible life courses; a person lives a prefix of one (at least two statuses). */
const relationshipCourses: readonly (readonly RelationshipStatus[])[] = [
  ['single', 'dating', 'engaged', 'married'],
  ['dating', 'broke up', 'dating'],
  ['married', 'divorced', 'dating'],
  ['dating', 'engaged', 'married'],
]

const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`

// ---------------------------------------------------------------------------------------------------------------
// How a value is said. `when` is a time expression with its leading space, or ''.

interface ValueWords {
  value: string
  partner: string
  thing: FavoriteThing
  fixedRole: string | null
}

interface Phrasing {
  say: (words: ValueWords, when: string) => string
  /** Whether the sentence reads well with a time expression (past tense); present-tense ones never get one. */
  dated: boolean
}

const undated = (say: (words: ValueWords) => string): Phrasing => ({
  say: (words) => say(words),
  dated: false,
})
const dated = (say: (words: ValueWords, when: string) => string): Phrasing => ({ say, dated: true })

const residencePhrasings = {
  first: [
    undated(({ value }) => `I live in ${value}.`),
    undated(({ value }) => `I live in ${value}, in a small flat near the old town.`),
    undated(({ value }) => `These days I live in ${value}, close to the river.`),
  ],
  change: [
    dated(({ value }, when) => `We finally moved to ${value}${when}!`),
    dated(({ value }, when) => `I moved to ${value}${when}, still unpacking boxes.`),
    dated(({ value }, when) => `I relocated to ${value}${when} and I'm slowly settling in.`),
    undated(({ value }) => `I live in ${value} now, the move went fine.`),
  ],
}

const employerPhrasings = {
  first: [
    undated(({ value }) => `I work at ${value}.`),
    undated(({ value }) => `I work for ${value}, mostly from their office downtown.`),
  ],
  change: [
    dated(({ value }, when) => `I started a new job at ${value}${when}.`),
    dated(({ value }, when) => `I started working for ${value}${when}, so far so good.`),
    undated(({ value }) => `Just started my new job at ${value}!`),
    undated(({ value }) => `I work for ${value} now, new team and everything.`),
  ],
  /** Only for people whose occupation does not change: "as a …" states one. */
  joined: dated(
    ({ value, fixedRole }, when) => `I joined ${value}${when} as ${withArticle(fixedRole ?? 'engineer')}.`,
  ),
}

const occupationPhrasings = {
  first: [
    undated(({ value }) => `I work as ${withArticle(value)}.`),
    undated(({ value }) => `I work as ${withArticle(value)}, long days but I like it.`),
  ],
  change: [
    undated(({ value }) => `I'm now working as ${withArticle(value)}.`),
    dated(({ value }, when) => `I became ${withArticle(value)}${when}!`),
    dated(({ value }, when) => `I finally became ${withArticle(value)}${when}, it took years of training.`),
    undated(({ value }) => `These days I work as ${withArticle(value)}.`),
  ],
}

const relationshipPhrasings: Record<RelationshipStatus, { first: Phrasing[]; change: Phrasing[] }> = {
  single: {
    first: [
      undated(() => `I'm single at the moment.`),
      undated(() => `I'm single and honestly enjoying it.`),
    ],
    change: [undated(() => `I'm single again.`)],
  },
  dating: {
    first: [undated(({ partner }) => `I'm dating ${partner}, we met at a climbing gym.`)],
    change: [
      dated(({ partner }, when) => `I started dating ${partner}${when}.`),
      undated(({ partner }) => `I'm dating ${partner} now, it's still new.`),
    ],
  },
  engaged: {
    first: [undated(({ partner }) => `I'm engaged to ${partner}.`)],
    change: [
      dated(({ partner }, when) => `${partner} and I got engaged${when}!`),
      dated((_, when) => `We got engaged${when}! I still can't believe it.`),
    ],
  },
  married: {
    first: [undated(({ partner }) => `I'm married to ${partner}.`)],
    change: [
      dated(({ partner }, when) => `${partner} and I got married${when}.`),
      dated((_, when) => `We got married${when}, just a small ceremony with family.`),
    ],
  },
  'broke up': {
    first: [],
    change: [
      dated(({ partner }, when) => `${partner} and I broke up${when}.`),
      dated((_, when) => `We broke up${when}, it was mutual.`),
    ],
  },
  divorced: {
    first: [],
    change: [dated(({ partner }, when) => `${partner} and I got divorced${when}.`)],
  },
}

const favoritePhrasings = [
  undated(({ value, thing }) => `My favorite ${thing} is ${value} these days.`),
  undated(({ value, thing }) => `Honestly, my favorite ${thing} is ${value} now.`),
  undated(({ value, thing }) => `My favorite ${thing} is ${value}, I can't get enough of it.`),
]

function phrasingsFor(
  attribute: AttributeKind,
  status: RelationshipStatus,
  isFirst: boolean,
  fixedRole: string | null,
): Phrasing[] {
  switch (attribute) {
    case 'residence':
      return isFirst ? residencePhrasings.first : residencePhrasings.change
    case 'employer':
      if (isFirst) return employerPhrasings.first
      return fixedRole ? [...employerPhrasings.change, employerPhrasings.joined] : employerPhrasings.change
    case 'occupation':
      return isFirst ? occupationPhrasings.first : occupationPhrasings.change
    case 'relationship':
      return isFirst ? relationshipPhrasings[status].first : relationshipPhrasings[status].change
    case 'favorite':
      return favoritePhrasings
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Time expressions, each with the ground truth it states

interface StatedDate {
  expression: string | null
  validFrom: Day
  granularity: Granularity
}

const numberWords = ['zero', 'one', 'two', 'three', 'four', 'five']

type DateStyle = 'none' | 'yesterday' | 'days ago' | 'last week' | 'weeks ago' | 'last month' | 'calendar day'

/** A third of the sentences that could carry a date name none, so the session's day is what the service must use. */
const dateStyles: readonly DateStyle[] = [
  'none',
  'none',
  'none',
  'yesterday',
  'days ago',
  'last week',
  'weeks ago',
  'last month',
  'last month',
  'calendar day',
]

function stateDate(style: DateStyle, session: Day, random: Random): StatedDate {
  switch (style) {
    case 'none':
      return { expression: null, validFrom: session, granularity: 'day' }
    case 'yesterday':
      return { expression: 'yesterday', validFrom: session - 1, granularity: 'day' }
    case 'days ago': {
      const days = random.int(2, 5)
      return {
        expression: `${numberWords[days] ?? days} days ago`,
        validFrom: session - days,
        granularity: 'day',
      }
    }
    case 'last week':
      return { expression: 'last week', validFrom: mondayOf(session) - 7, granularity: 'week' }
    case 'weeks ago': {
      const weeks = random.int(2, 3)
      return {
        expression: `${numberWords[weeks] ?? weeks} weeks ago`,
        validFrom: mondayOf(session - 7 * weeks),
        granularity: 'week',
      }
    }
    case 'last month':
      return {
        expression: 'last month',
        validFrom: firstOfMonth(firstOfMonth(session) - 1),
        granularity: 'month',
      }
    case 'calendar day': {
      const day = session - random.int(8, 40)
      const date = dateOf(day)
      return {
        expression: `on ${monthNames[date.getUTCMonth()] ?? ''} ${date.getUTCDate()}`,
        validFrom: day,
        granularity: 'day',
      }
    }
  }
}

function windowOf(validFrom: Day, granularity: Granularity): { earliest: Day; latest: Day } {
  switch (granularity) {
    case 'day':
      return { earliest: validFrom - 1, latest: validFrom + 1 }
    case 'week':
      return { earliest: validFrom - 1, latest: validFrom + 7 }
    case 'month':
      return { earliest: validFrom, latest: lastOfMonth(validFrom) }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What else is said: openers, replies, fillers and distractors

const openers = ['Hi! Long time no chat.', 'Hey, got a minute?', 'Hello again!', 'Morning! Quick catch-up?']
const greetingReplies = {
  assistant: "Hi! Good to hear from you. What's new?",
  friend: 'Hey! Tell me everything.',
}

const assistantReplies = [
  'That sounds like a big step. How are you settling in?',
  "Congratulations, that's wonderful news!",
  "Thanks for telling me, I'll keep it in mind.",
  'That sounds lovely.',
  "Oh no, I'm sorry to hear that.",
  'Interesting! What got you into that?',
  'Good to know.',
  'That makes sense.',
  'Sounds like a busy week!',
]

const friendReplies = [
  "No way, that's huge!",
  'Haha, I know that feeling.',
  'Sounds lovely, send me pictures.',
  "Oh no, that's rough.",
  'Ha, classic you.',
  'Same here, honestly.',
  'Wait, really?',
  'Love that for you.',
]

const everydayFillers = [
  'The weather has been awful, rain every single day.',
  "I've been getting into bouldering on weekends.",
  'I tried baking sourdough again and it came out flat.',
  "I started a long fantasy book series, I'm hooked.",
  'My knee hurts after the long run on Sunday.',
  'I finally fixed the wobbly shelf in the kitchen.',
  'We had a barbecue and the neighbours joined in.',
  "I'm trying to drink less coffee, it's not going well.",
  "I bought a small succulent, let's see if it survives.",
  'The heating in my flat broke for two days.',
  "I've been learning to play the ukulele, slowly.",
  'I binge-watched a documentary series about octopuses.',
  'My phone screen cracked again.',
  'I signed up for a pottery class on Thursday evenings.',
  "I'm planning to repaint the bedroom a dark green.",
  'Spent the whole Saturday hiking, my legs are dead.',
  'I found a great second-hand bookshop near the station.',
  "I've been journaling every morning, it helps.",
  'My cat knocked a glass off the table at 3 am.',
  'I made a huge pot of lentil soup for the week.',
  'The new bike lane on my street is great.',
  'I tried the cold shower challenge and gave up on day two.',
  "I'm reading about the history of maps, weirdly fascinating.",
  'My laptop battery barely lasts an hour now.',
  'I volunteered at the food bank on Sunday morning.',
  'We played board games until midnight.',
  'I bought a second-hand sewing machine.',
  "I've been sleeping badly because of the heat.",
  'I started a tiny herb garden on the balcony.',
  'I got a parking ticket, totally my fault.',
  "I'm trying to learn a few words of Japanese.",
  'I cleaned out my wardrobe and donated three bags of clothes.',
  "I'm training for a 10k run in the spring.",
  'The bakery on the corner finally reopened.',
]

/** Sentences that name a value of an attribute without stating it of the speaker: retrieval traps. */
const distractors: Record<AttributeKind, readonly ((value: string, words: ValueWords) => string)[]> = {
  residence: [
    (city) => `I spent a long weekend in ${city} visiting my cousin.`,
    (city) => `I keep seeing cheap flights to ${city}, so tempting.`,
    (city) => `A colleague just got back from ${city} and loved the food there.`,
  ],
  employer: [
    (company) => `My friend Jakob works at ${company} and keeps telling me about it.`,
    (company) => `I had a call with someone from ${company} about a side project.`,
    (company) => `${company} is sponsoring the city half marathon this year.`,
  ],
  occupation: [
    (role) => `My brother works as ${withArticle(role)}, he's always exhausted.`,
    (role) => `I sat next to ${withArticle(role)} on the train and we talked for an hour.`,
  ],
  relationship: [
    () => 'My cousin got engaged over the holidays, the whole family is thrilled.',
    () => "We went to a friend's wedding, they got married by a lake.",
    () => 'My neighbours broke up and one of them moved out.',
    () => 'My best friend is dating someone from her choir.',
  ],
  favorite: [
    (value, { thing }) => `My brother's favorite ${thing} is ${value}, I don't get it.`,
    (value, { thing }) =>
      thing === 'band'
        ? `I saw a poster for a ${value} concert downtown.`
        : thing === 'dish'
          ? `We had ${value} at a friend's place on Saturday.`
          : `I watched some ${value} on TV last night.`,
  ],
}

/** What a friend says of themselves: a fact about someone else in the person's own conversation. */
const friendFacts: readonly ((random: Random) => string)[] = [
  (random) => `I live in ${random.pick(cities)} now, it's been good for me.`,
  (random) => `I started a new job at ${random.pick(companies)} last month.`,
  (random) => `I work as ${withArticle(random.pick(occupations))} these days.`,
]

// ---------------------------------------------------------------------------------------------------------------
// Generation

interface PlannedValue {
  value: string
  terms: string[]
  status: RelationshipStatus
  partner: string
}

interface PlannedAttribute {
  attribute: AttributeKind
  thing: FavoriteThing
  values: PlannedValue[]
  /** The session of each value, ascending; the first value is always said in the first session. */
  sessions: number[]
}

const DATASET_START = dayOf(2023, 3, 1)

/** Session days: the first within two months of the start, then one every 110–220 days (about two years). */
function planSessionDays(count: number, random: Random): Day[] {
  const days = [DATASET_START + random.int(0, 60)]
  while (days.length < count) days.push((days.at(-1) ?? DATASET_START) + random.int(110, 220))
  return days
}

function planValues(
  attribute: AttributeKind,
  count: number,
  thing: FavoriteThing,
  random: Random,
  partners: () => string,
): PlannedValue[] {
  const plain = (pool: readonly string[]) =>
    random
      .sample(pool, count)
      .map((value) => ({ value, terms: [value], status: 'single' as const, partner: '' }))
  switch (attribute) {
    case 'residence':
      return plain(cities)
    case 'employer':
      return plain(companies)
    case 'occupation':
      return plain(occupations)
    case 'favorite':
      return plain(favoriteValues[thing])
    case 'relationship': {
      const course = random.pick(relationshipCourses).slice(0, count)
      let partner = partners()
      return course.map((status, index) => {
        // Dating again after a break-up or a divorce is someone new.
        if (status === 'dating' && index > 0) partner = partners()
        return status === 'dating'
          ? { value: `dating ${partner}`, terms: ['dating', partner], status, partner }
          : { value: status, terms: [status], status, partner }
      })
    }
  }
}

function planAttribute(
  attribute: AttributeKind,
  sessionCount: number,
  random: Random,
  partners: () => string,
): PlannedAttribute {
  const thing = random.pick(['band', 'dish', 'sport'] as const)
  // A relationship course may be shorter than the count drawn; every course has at least three statuses.
  const values = planValues(attribute, random.int(2, Math.min(sessionCount, 4)), thing, random, partners)
  const laterSessions = random
    .sample(
      Array.from({ length: sessionCount - 1 }, (_, index) => index + 1),
      values.length - 1,
    )
    .sort((a, b) => a - b)
  return { attribute, thing, values, sessions: [0, ...laterSessions] }
}

interface SpokenFact {
  fact: Fact
  /** The sentence, said in this session. */
  line: string
}

function speakFacts(
  personId: string,
  plan: PlannedAttribute,
  sessionDays: Day[],
  sessionIds: string[],
  fixedRole: string | null,
  random: Random,
): SpokenFact[] {
  return plan.values.map((planned, index) => {
    const sessionIndex = plan.sessions[index] ?? 0
    const session = sessionDays[sessionIndex] ?? DATASET_START
    const phrasing = random.pick(phrasingsFor(plan.attribute, planned.status, index === 0, fixedRole))
    const stated = stateDate(phrasing.dated ? random.pick(dateStyles) : 'none', session, random)
    const line = phrasing.say(
      { value: planned.value, partner: planned.partner, thing: plan.thing, fixedRole },
      stated.expression === null ? '' : ` ${stated.expression}`,
    )
    const window = windowOf(stated.validFrom, stated.granularity)
    return {
      line,
      fact: {
        personId,
        attribute: plan.attribute,
        value: planned.value,
        favoriteThing: plan.attribute === 'favorite' ? plan.thing : null,
        terms: planned.terms,
        statement: line,
        sessionId: sessionIds[sessionIndex] ?? '',
        dateExpression: stated.expression,
        granularity: stated.granularity,
        validFrom: isoDay(stated.validFrom),
        validFromWindow: { earliest: isoDay(window.earliest), latest: isoDay(window.latest) },
      },
    }
  })
}

function valuePool(plan: PlannedAttribute, ownValues: readonly string[]): readonly string[] {
  switch (plan.attribute) {
    case 'residence':
      return cities
    case 'employer':
      return companies
    case 'occupation':
      return occupations
    case 'favorite':
      return favoriteValues[plan.thing]
    case 'relationship':
      return ownValues
  }
}

/** Fillers for one session: everyday talk, plus now and then a sentence that names a value of another kind. */
function fillersFor(
  plans: PlannedAttribute[],
  everyday: string[],
  fixedRole: string | null,
  random: Random,
): string[] {
  const lines: string[] = []
  for (const plan of plans) {
    if (!random.chance(0.5)) continue
    // The person's own other values are the hardest traps: a city they lived in, or will live in.
    const ownValues = plan.values.map((value) => value.value)
    const value = random.chance(0.6) ? random.pick(ownValues) : random.pick(valuePool(plan, ownValues))
    const words: ValueWords = { value, partner: '', thing: plan.thing, fixedRole }
    lines.push(random.pick(distractors[plan.attribute])(value, words))
  }
  const count = Math.max(lines.length, random.int(3, 6))
  while (lines.length < count) lines.push(everyday.shift() ?? random.pick(everydayFillers))
  return lines
}

function buildSession(
  person: { id: string; name: string },
  index: number,
  day: Day,
  personLines: string[],
  random: Random,
): Session {
  const sessionId = `${person.id}/s${index + 1}`
  const withFriend = random.chance(0.3)
  const partner = withFriend ? random.pick(friendNames) : 'Assistant'
  const replies = withFriend ? friendReplies : assistantReplies
  const friendFactAt = withFriend && random.chance(0.4) ? random.int(0, personLines.length - 1) : -1
  const turns: { speaker: string; text: string }[] = [{ speaker: person.name, text: random.pick(openers) }]
  turns.push({ speaker: partner, text: withFriend ? greetingReplies.friend : greetingReplies.assistant })
  personLines.forEach((line, lineIndex) => {
    turns.push({ speaker: person.name, text: line })
    const reply = lineIndex === friendFactAt ? random.pick(friendFacts)(random) : random.pick(replies)
    turns.push({ speaker: partner, text: reply })
  })
  // Evenings, one minute a turn: the turns stay on the session's day and within the 30 minutes that makes
  // neighbouring turns each other's conversation context.
  const startsAt = day * MS_PER_DAY + (18 * 60 + random.int(0, 90)) * 60_000
  const documents = turns.map((turn, turnIndex) => ({
    id: `${sessionId}/t${String(turnIndex + 1).padStart(2, '0')}`,
    personId: person.id,
    sessionId,
    turn: turnIndex + 1,
    speaker: turn.speaker,
    text: `${turn.speaker}: ${turn.text}`,
    createdAt: new Date(startsAt + turnIndex * 60_000).toISOString(),
  }))
  return {
    id: sessionId,
    personId: person.id,
    index,
    partner,
    startsAt: new Date(startsAt).toISOString(),
    documents,
  }
}

function generatePerson(index: number, random: Random, partners: () => string): Person {
  const name = personNames[index % personNames.length] ?? 'Alex'
  const id = `p${String(index + 1).padStart(2, '0')}-${name.toLowerCase()}`
  const sessionCount = random.int(3, 5)
  const sessionDays = planSessionDays(sessionCount, random)
  const sessionIds = sessionDays.map((_, sessionIndex) => `${id}/s${sessionIndex + 1}`)
  const attributes = random.sample(attributeKinds, random.int(2, 3))
  const fixedRole = attributes.includes('occupation') ? null : random.pick(fixedRoles)
  const plans = attributes.map((attribute) => planAttribute(attribute, sessionCount, random, partners))
  const spoken = plans.flatMap((plan) => speakFacts(id, plan, sessionDays, sessionIds, fixedRole, random))
  const everyday = random.shuffle(everydayFillers)
  const sessions = sessionDays.map((day, sessionIndex) => {
    const statements = spoken.filter((item) => item.fact.sessionId === sessionIds[sessionIndex])
    const lines = random.shuffle([
      ...statements.map((item) => item.line),
      ...fillersFor(plans, everyday, fixedRole, random),
    ])
    return buildSession({ id, name }, sessionIndex, day, lines, random)
  })
  return { id, name, attributes, sessions, facts: spoken.map((item) => item.fact) }
}

// ---------------------------------------------------------------------------------------------------------------
// Questions

function questionTexts(name: string, fact: Fact, thing: string): { now: string; asOf: string; when: string } {
  switch (fact.attribute) {
    case 'residence':
      return {
        now: `Where does ${name} live now?`,
        asOf: `Where does ${name} live?`,
        when: `When did ${name} move to ${fact.value}?`,
      }
    case 'employer':
      return {
        now: `Who does ${name} work for now?`,
        asOf: `Who does ${name} work for?`,
        when: `When did ${name} start working at ${fact.value}?`,
      }
    case 'occupation':
      return {
        now: `What is ${name}'s job now?`,
        asOf: `What is ${name}'s job?`,
        when: `When did ${name} become ${withArticle(fact.value)}?`,
      }
    case 'relationship':
      return {
        now: `Is ${name} in a relationship now?`,
        asOf: `Is ${name} in a relationship?`,
        when: relationshipWhen(name, fact),
      }
    case 'favorite':
      return {
        now: `What is ${name}'s favorite ${thing} now?`,
        asOf: `What is ${name}'s favorite ${thing}?`,
        when: `When did ${fact.value} become ${name}'s favorite ${thing}?`,
      }
  }
}

function relationshipWhen(name: string, fact: Fact): string {
  if (fact.value.startsWith('dating ')) return `When did ${name} start ${fact.value}?`
  switch (fact.value) {
    case 'broke up':
      return `When did ${name} go through a break-up?`
    case 'divorced':
      return `When did ${name} get divorced?`
    case 'single':
      return `When did ${name} become single?`
    default:
      return `When did ${name} get ${fact.value}?`
  }
}

function questionsFor(person: Person, random: Random): Question[] {
  const questions: Question[] = []
  for (const attribute of person.attributes) {
    const facts = person.facts.filter((fact) => fact.attribute === attribute)
    const latest = facts.at(-1)
    if (!latest) continue
    const thing = latest.favoriteThing ?? ''
    const base = `${person.id}/${attribute}`
    questions.push({
      id: `${base}/now`,
      personId: person.id,
      kind: 'now',
      attribute,
      text: questionTexts(person.name, latest, thing).now,
      asOf: null,
      expected: { value: latest.value, terms: latest.terms, validFrom: null, replaced: false },
    })
    facts.forEach((fact, index) => {
      const next = facts[index + 1]
      if (next) {
        const asOf = asOfBetween(fact, next, random)
        if (asOf !== null)
          questions.push({
            id: `${base}/as_of/${index + 1}`,
            personId: person.id,
            kind: 'as_of',
            attribute,
            text: questionTexts(person.name, fact, thing).asOf,
            asOf,
            expected: { value: fact.value, terms: fact.terms, validFrom: null, replaced: true },
          })
      }
      // Only changes are asked "when": the first value was true before anyone said it.
      if (index > 0)
        questions.push({
          id: `${base}/when/${index + 1}`,
          personId: person.id,
          kind: 'when',
          attribute,
          text: questionTexts(person.name, fact, thing).when,
          asOf: null,
          expected: {
            value: fact.value,
            terms: fact.terms,
            validFrom: fact.validFromWindow,
            replaced: next !== undefined,
          },
        })
    })
  }
  return questions
}

/** A noon strictly inside the earlier value's interval, clear of both changes' windows; null if there is none. */
function asOfBetween(earlier: Fact, later: Fact, random: Random): string | null {
  const from = parseIsoDay(earlier.validFromWindow.latest) + AS_OF_MARGIN_DAYS
  const to = parseIsoDay(later.validFromWindow.earliest) - AS_OF_MARGIN_DAYS
  if (to < from) return null
  return `${isoDay(random.int(from, to))}T12:00:00.000Z`
}

export function generateKnowledgeUpdateSet(options: GeneratorOptions = {}): KnowledgeUpdateSet {
  const seed = options.seed ?? DEFAULT_SEED
  const count = options.persons ?? DEFAULT_PERSONS
  if (count > personNames.length) throw new Error(`at most ${personNames.length} persons (one name each)`)
  const random = createRandom(seed)
  const partnerPool = random.shuffle(partnerNames)
  let nextPartner = 0
  const partners = () => partnerPool[nextPartner++ % partnerPool.length] ?? 'Sam'
  const persons = Array.from({ length: count }, (_, index) => generatePerson(index, random, partners))
  const documents = persons
    .flatMap((person) => person.sessions)
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt))
    .flatMap((session) => session.documents)
  const questions = persons.flatMap((person) => questionsFor(person, random))
  return { seed, persons, documents, questions }
}

// ---------------------------------------------------------------------------------------------------------------
// Scoring

/** What the scoring reads of a search result. */
export interface RetrievedMemory {
  content: string
  valid_from?: string | null
}

export interface Judgement {
  /** Some memory among the first k states the expected value (and, for `when`, dates it within the window). */
  correct: boolean
  valueMatched: boolean
  /** For `when`: whether a memory stating the value has its valid_from in the window; null for other kinds. */
  dateMatched: boolean | null
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Every term as a whole word or phrase, any case: "married" is not in "unmarried", "Tom" not in "Tomasz". */
export function statesValue(content: string, terms: readonly string[]): boolean {
  const text = content.replace(/[’‘]/g, "'")
  return terms.every((term) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}(?![\\p{L}\\p{N}])`, 'iu').test(text),
  )
}

export function isWithinWindow(validFrom: string | null | undefined, window: DayWindow): boolean {
  if (!validFrom) return false
  const day = calendarDayOf(validFrom)
  return day !== null && day >= parseIsoDay(window.earliest) && day <= parseIsoDay(window.latest)
}

/** Judges the first `k` results of a search (best first) against a question's expected answer. */
export function judgeAnswer(question: Question, results: readonly RetrievedMemory[], k = 1): Judgement {
  const considered = results.slice(0, k)
  const stating = considered.filter((memory) => statesValue(memory.content, question.expected.terms))
  const window = question.expected.validFrom
  if (window === null)
    return { correct: stating.length > 0, valueMatched: stating.length > 0, dateMatched: null }
  const dated = stating.some((memory) => isWithinWindow(memory.valid_from, window))
  return { correct: dated, valueMatched: stating.length > 0, dateMatched: dated }
}
