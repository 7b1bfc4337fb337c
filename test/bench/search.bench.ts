/**
 * `npm run bench:search`: latency and requests/s of POST /v1/memories/search over one instance holding many
 * memories, against the raw engine the fast path spends its time in (one Elasticsearch kNN query).
 *   (a) Elasticsearch kNN on the alias, k=10, num_candidates=100, filtered to the instance, the questions pre-embedded
 *   (b) POST /v1/memories/search mode fast, limit 10
 *   (c) POST /v1/memories/search mode accurate, limit 10
 * each at 1 and 8 concurrent clients; and the time to embed one question, which the API adds to (a).
 * The memories enter as MemoryChanged events appended to Kafka, projected by the running projectors into
 * Elasticsearch and Neo4j. Their vectors (configured embedder) are cached under <cache>/bench; the instance and its
 * key too, so a later run with the same count, seed and model measures without loading again.
 * BENCH_MEMORIES sets the count (100 000), BENCH_USERS the users they belong to (50), BENCH_SEED the generator's
 * seed. `npm run bench:search` runs two cases: 100 000 memories of 50 users, then one user with 1 000 memories (the
 * size of a BEAM conversation's user), where a search with user_id reads one user's memories only.
 */
import { createHash, randomUUID } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { activeGraphGeneration } from '@memory-service/read-models'
import { searchTimings, type SearchTiming } from '@memory-service/gateway'
import { createCoalescingAppender, createEventProducer } from '@memory-service/log'
import {
  createElasticsearchClient,
  createEmbedder,
  createNeo4jDriver,
  createNeo4jStore,
  defaultCacheDir,
  embedQueries,
  type Embedder,
} from '@memory-service/engines'
import {
  entityIdFor,
  entityKey,
  MEMORIES_ALIAS,
  MEMORIES_TOPIC,
  MEMORY_SUBJECT,
  memoryChangedSchema,
  memoryIdFor,
} from '@memory-service/domain'
import { type MemoryChanged } from '@memory-service/contracts'
import { benchConfig, percentile, runId, startBench } from './benchSetup.js'

const total = Number(process.env.BENCH_MEMORIES ?? 100_000)
const seed = Number(process.env.BENCH_SEED ?? 42)
const userCount = Number(process.env.BENCH_USERS ?? 50)
const config = benchConfig
const model = config.embeddings.model
const dimension = config.embeddings.dimension
/** Changes whenever the generated texts change, so cached vectors of other texts are not used. */
const generatorVersion = 'v2'
const cacheDir = join(defaultCacheDir(process.env), 'bench')
const cacheKey = `${String(total)}${userCount === 50 ? '' : `-u${String(userCount)}`}-s${String(seed)}-${model.replace(/[^\w.-]/g, '_')}-${generatorVersion}`
const vectorFile = join(cacheDir, `search-vectors-${cacheKey}.f32`)
const instanceFile = join(cacheDir, `search-instance-${cacheKey}.json`)
const users = Array.from({ length: userCount }, (_, index) => `bench-user-${String(index).padStart(2, '0')}`)

// ---------------------------------------------------------------------------------------------------------------
// Synthetic memories: templates over people, places, activities, dates, feelings and preferences, seeded.

/** mulberry32: small, fast, deterministic. */
function prng(state: number): () => number {
  let value = state >>> 0
  return () => {
    value = (value + 0x6d2b79f5) >>> 0
    let mixed = value
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

const firstNames =
  `Maria John Caroline Melanie Jon Gina Nate Joanna Tim Evan Aisha Ben Chloe Diego Elena Farid Grace Hiro
  Ines Jack Kofi Lena Marco Nadia Omar Priya Quinn Rosa Sam Tara Umar Vera Wes Ximena Yusuf Zoe Alice Bruno Clara
  Dmitri Emma Felix Hana Ivan Julia Kai Laila Mateo Noor Oscar Paula Rafael Sofia Theo Uma Victor Wendy Yara Zane
  Amelia Bilal Camila Daniel Esther Finn Giulia Hugo Isla Jonas Keiko Liam Mia Nikolai Olivia Pedro Rhea Stefan
  Tomas Valentina William Anya Carlos Dora Eli Fatima Gabriel Helen Ismael Jade Kenji Lucia Max Nina Otto Petra`
    .split(/\s+/)
    .filter(Boolean)
const lastNames = [
  'Silva',
  'Chen',
  'Okafor',
  'Novak',
  'Garcia',
  'Kowalski',
  'Haddad',
  'Larsen',
  'Tanaka',
  'Rossi',
]
// Some people go by their full name, as they would in a real user's memories.
const people = firstNames.map((name, index) =>
  index % 4 === 0 ? `${name} ${lastNames[index % lastNames.length] ?? ''}` : name,
)
const places =
  `Lisbon;Porto;Madrid;Barcelona;Paris;Lyon;Berlin;Munich;Vienna;Prague;Warsaw;Krakow;Amsterdam;Brussels;
  Copenhagen;Stockholm;Oslo;Helsinki;Dublin;Edinburgh;London;Manchester;Rome;Florence;Naples;Athens;Istanbul;Cairo;
  Marrakesh;Cape Town;Nairobi;Lagos;Dubai;Mumbai;Bangalore;Kathmandu;Bangkok;Hanoi;Singapore;Bali;Tokyo;Kyoto;Osaka;
  Seoul;Beijing;Shanghai;Sydney;Melbourne;Auckland;Vancouver;Toronto;Montreal;Boston;New York;Chicago;Austin;Denver;
  Seattle;San Francisco;Los Angeles;Mexico City;Lima;Bogota;Buenos Aires;Santiago;Sao Paulo;Reykjavik;the Grand Canyon;
  Yosemite;the Alps;the Scottish Highlands;Lake Como;Patagonia;Iceland;Sweden;Portugal;Japan;Peru;Morocco;Norway`
    .split(';')
    .map((place) => place.trim())
const organizations =
  `Google;Spotify;the city library;a local hospital;Red Cross;an animal shelter;a design studio;
  Siemens;a startup called Brightpath;the university hospital;a food bank;Greenpeace;a community garden;IKEA;
  the public school;a law firm;Airbus;a climbing gym;the local theater;a bakery called Crumbs;Nokia;a bike shop`
    .split(';')
    .map((name) => name.trim())
const universities = [
  'MIT',
  'Stanford',
  'the University of Lisbon',
  'Oxford',
  'ETH Zurich',
  'the University of Toronto',
  'Kyoto University',
  'Sorbonne University',
  'TU Munich',
  'the University of Cape Town',
]
const activities =
  `a pottery class;salsa lessons;a photography workshop;a cooking course;a marathon training group;
  yoga classes;a book club;a chess tournament;a climbing course;a painting class;guitar lessons;a language exchange;
  a coding bootcamp;a support group;a charity race;a camping trip;a jazz concert;a wine tasting;a hackathon;
  a birdwatching tour;a surf camp;a film festival;a meditation retreat;a baking workshop;a volunteering project;
  a dance competition;an improv theater class;a sailing course;a knitting circle;a woodworking course`
    .split(';')
    .map((activity) => activity.trim())
const foods =
  `sushi;ramen;tacos;paella;lasagna;pho;dumplings;falafel;curry;pancakes;croissants;ceviche;pad thai;
  risotto;kimchi stew;empanadas;moussaka;bibimbap;goulash;pierogi;dark chocolate;spicy noodles;grilled sardines`
    .split(';')
    .map((food) => food.trim())
const drinks = [
  'coffee',
  'green tea',
  'oat lattes',
  'espresso',
  'chai',
  'hot chocolate',
  'matcha',
  'orange juice',
]
const feelings =
  `proud;really happy;a bit nervous;grateful;exhausted but happy;anxious;relieved;overwhelmed;excited;
  disappointed;inspired;lonely;calm;frustrated;hopeful;nostalgic;confident;heartbroken;thrilled;stressed`
    .split(';')
    .map((feeling) => feeling.trim())
const pets = ['dog', 'cat', 'parrot', 'rabbit', 'hamster', 'tortoise', 'golden retriever', 'kitten', 'puppy']
const petNames =
  `Luna;Max;Bella;Charlie;Milo;Coco;Rocky;Pepper;Biscuit;Ziggy;Olive;Mochi;Nacho;Pixel;Waffles;Juno`
    .split(';')
    .map((name) => name.trim())
const books = `Dune;The Hobbit;Sapiens;Educated;Becoming;The Road;Beloved;Atomic Habits;Circe;Normal People;
  The Midnight Library;Project Hail Mary;Pachinko;Klara and the Sun;The Overstory;Where the Crawdads Sing`
  .split(';')
  .map((title) => title.trim())
const authors = [
  'Frank Herbert',
  'Toni Morrison',
  'Yuval Harari',
  'Sally Rooney',
  'Kazuo Ishiguro',
  'Andy Weir',
  'Madeline Miller',
]
const jobs =
  `nurse;teacher;software engineer;architect;chef;journalist;pharmacist;graphic designer;electrician;
  lawyer;physiotherapist;data analyst;firefighter;veterinarian;accountant;pilot;translator;carpenter`
    .split(';')
    .map((job) => job.trim())
const instruments = ['guitar', 'piano', 'violin', 'drums', 'saxophone', 'cello', 'ukulele', 'bass', 'trumpet']
const bands = [
  'The Night Owls',
  'Blue Harbor',
  'Static Bloom',
  'The Paper Kites',
  'Velvet Rooms',
  'Northbound',
]
const subjects = [
  'biology',
  'economics',
  'computer science',
  'architecture',
  'history',
  'physics',
  'law',
  'music',
]
const allergens = ['peanuts', 'shellfish', 'cats', 'pollen', 'gluten', 'penicillin', 'bee stings', 'lactose']
const dislikes = ['crowded trains', 'horror movies', 'olives', 'loud bars', 'cold weather', 'early meetings']
const sports = ['running', 'cycling', 'swimming', 'hiking', 'bouldering', 'sailing', 'kayaking', 'skiing']
const races = ['a marathon', 'a half marathon', 'a 10K charity run', 'a triathlon', 'a trail ultra']
const gifts = [
  'a vintage camera',
  'a pair of headphones',
  'a cookbook',
  'a handmade scarf',
  'concert tickets',
]
const skills = [
  'surf',
  'make pasta from scratch',
  'speak Spanish',
  'dive',
  'paint with watercolors',
  'ride a horse',
]
const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
const seasons = ['spring', 'summer', 'autumn', 'winter']
const months = `January February March April May June July August September October November December`.split(
  ' ',
)
const years = [2018, 2019, 2020, 2021, 2022, 2023, 2024]
const restaurants = ['a small Italian place', 'a rooftop restaurant', 'a sushi bar', 'a seafood restaurant']
const adjectives = ['surprisingly fun', 'harder than expected', 'relaxing', 'a little boring', 'inspiring']
const categories: [string, string[]][] = [
  ['movie', ['Spirited Away', 'Inception', 'Amelie', 'Parasite', 'The Godfather', 'Arrival']],
  ['color', ['green', 'deep blue', 'yellow', 'burgundy', 'teal']],
  ['season', seasons],
  ['board game', ['Catan', 'Ticket to Ride', 'Scrabble', 'Wingspan', 'Codenames']],
  ['podcast', ['Radiolab', 'The Daily', 'Hardcore History', 'Serial']],
]

type EntityType = MemoryChanged['memory']['entities'][number]['type']
type MemoryType = MemoryChanged['memory']['type']

interface MemorySpec {
  content: string
  type: MemoryType
  entities: { name: string; type: EntityType }[]
  relations: { from: string; to: string; type: string }[]
  occurredOn: string | null
  userId: string
  speaker: string
}

interface Draft {
  content: string
  type: MemoryType
  entities?: { name: string; type: EntityType }[]
  relations?: { from: string; to: string; type: string }[]
  occurredOn?: string | null
}

type Chooser = <T>(list: readonly T[]) => T

const dayOf = (month: number, day: number) =>
  `${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`

/** Each template: the statement, its category, the entities it mentions (1–3) and how they relate. */
const templates: ((person: string, pick: Chooser, random: () => number) => Draft)[] = [
  (p, pick, random) => {
    const place = pick(places)
    const month = Math.floor(random() * 12)
    const year = pick(years)
    return {
      content: `${p} started ${pick(activities)} in ${place} in ${months[month] ?? ''} ${String(year)}.`,
      type: 'temporal_event',
      entities: [{ name: place, type: 'location' }],
      relations: [{ from: p, to: place, type: 'visited' }],
      occurredOn: `${String(year)}-${dayOf(month, 1)}`,
    }
  },
  (p, pick) => {
    const place = pick(places)
    const org = pick(organizations)
    return {
      content: `${p} moved to ${place} in ${String(pick(years))} to work at ${org}.`,
      type: 'fact',
      entities: [
        { name: place, type: 'location' },
        { name: org, type: 'organization' },
      ],
      relations: [
        { from: p, to: place, type: 'lives_in' },
        { from: p, to: org, type: 'works_at' },
      ],
    }
  },
  (p, pick) => ({
    content: `${p} loves ${pick(foods)} and cooks it almost every ${pick(weekdays)}.`,
    type: 'preference',
  }),
  (p, pick) => {
    const friend = pick(people)
    return {
      content: `${p} felt ${pick(feelings)} after ${pick(activities)} with ${friend}.`,
      type: 'emotion',
      entities: friend === p ? [] : [{ name: friend, type: 'person' }],
      relations: friend === p ? [] : [{ from: p, to: friend, type: 'friend_of' }],
    }
  },
  (p, pick) => ({
    content: `${p} has a ${pick(pets)} named ${pick(petNames)} who sleeps on the sofa all day.`,
    type: 'fact',
  }),
  (p, pick) => {
    const [first, second] = [pick(drinks), pick(drinks)]
    return {
      content:
        first === second
          ? `${p} drinks ${first} every morning before work.`
          : `${p} prefers ${first} over ${second} in the morning.`,
      type: 'preference',
    }
  },
  (p, pick, random) => {
    const place = pick(places)
    const year = pick(years)
    const month = Math.floor(random() * 12)
    const day = 1 + Math.floor(random() * 28)
    return {
      content: `${p} ran ${pick(races)} in ${place} on ${months[month] ?? ''} ${String(day)}, ${String(year)}.`,
      type: 'temporal_event',
      entities: [{ name: place, type: 'location' }],
      relations: [{ from: p, to: place, type: 'visited' }],
      occurredOn: `${String(year)}-${dayOf(month, day)}`,
    }
  },
  (p, pick) => {
    const author = pick(authors)
    return {
      content: `${p} is reading ${pick(books)} and recommends anything by ${author}.`,
      type: 'preference',
      entities: [{ name: author, type: 'person' }],
    }
  },
  (p, pick) => {
    const sister = pick(firstNames)
    const place = pick(places)
    return {
      content: `${p}'s sister ${sister} works as a ${pick(jobs)} in ${place}.`,
      type: 'fact',
      entities: [
        { name: sister, type: 'person' },
        { name: place, type: 'location' },
      ],
      relations: [{ from: sister, to: p, type: 'sibling_of' }],
    }
  },
  (p, pick) => {
    const org = pick(organizations)
    return {
      content: `${p} went to ${pick(activities)} at ${org} last ${pick(weekdays)} and found it ${pick(adjectives)}.`,
      type: 'episode',
      entities: [{ name: org, type: 'organization' }],
    }
  },
  (p, pick) => ({
    content: `${p} is allergic to ${pick(allergens)} and always carries medication.`,
    type: 'fact',
  }),
  (p, pick) => {
    const place = pick(places)
    return {
      content: `${p} really wants to visit ${place} next ${pick(seasons)}.`,
      type: 'preference',
      entities: [{ name: place, type: 'location' }],
    }
  },
  (p, pick, random) => {
    const place = pick(places)
    const month = Math.floor(random() * 12)
    const year = pick(years)
    return {
      content: `${p} adopted a ${pick(pets)} from a shelter in ${place} in ${months[month] ?? ''} ${String(year)}.`,
      type: 'temporal_event',
      entities: [{ name: place, type: 'location' }],
      occurredOn: `${String(year)}-${dayOf(month, 1)}`,
    }
  },
  (p, pick) => {
    const band = pick(bands)
    return {
      content: `${p} plays the ${pick(instruments)} in a band called ${band}.`,
      type: 'fact',
      entities: [{ name: band, type: 'organization' }],
      relations: [{ from: p, to: band, type: 'member_of' }],
    }
  },
  (p, pick) => {
    const university = pick(universities)
    const year = pick(years)
    return {
      content: `${p} graduated from ${university} with a degree in ${pick(subjects)} in ${String(year)}.`,
      type: 'temporal_event',
      entities: [{ name: university, type: 'organization' }],
      relations: [{ from: p, to: university, type: 'studied_at' }],
      occurredOn: `${String(year)}-06-30`,
    }
  },
  (p, pick) => {
    const partner = pick(people)
    const place = pick(places)
    return {
      content: `${p} and ${partner} celebrated their anniversary at ${pick(restaurants)} in ${place}.`,
      type: 'episode',
      entities: [
        ...(partner === p ? [] : [{ name: partner, type: 'person' as const }]),
        { name: place, type: 'location' },
      ],
      relations: partner === p ? [] : [{ from: p, to: partner, type: 'partner_of' }],
    }
  },
  (p, pick) => ({
    content: `${p} dislikes ${pick(dislikes)} and avoids that whenever possible.`,
    type: 'preference',
  }),
  (p, pick) => {
    const place = pick(places)
    return {
      content: `${p} felt ${pick(feelings)} when the flight to ${place} got cancelled.`,
      type: 'emotion',
      entities: [{ name: place, type: 'location' }],
    }
  },
  (p, pick) => {
    const org = pick(organizations)
    return {
      content: `${p} volunteers at ${org} every ${pick(weekdays)} afternoon.`,
      type: 'fact',
      entities: [{ name: org, type: 'organization' }],
      relations: [{ from: p, to: org, type: 'volunteers_at' }],
    }
  },
  (p, pick, random) => {
    const friend = pick(people)
    const month = Math.floor(random() * 12)
    const day = 1 + Math.floor(random() * 28)
    const year = pick(years)
    return {
      content: `${p} bought ${pick(gifts)} for ${friend}'s birthday on ${months[month] ?? ''} ${String(day)}, ${String(year)}.`,
      type: 'temporal_event',
      entities: friend === p ? [] : [{ name: friend, type: 'person' }],
      occurredOn: `${String(year)}-${dayOf(month, day)}`,
    }
  },
  (p, pick) => {
    const friend = pick(people)
    const place = pick(places)
    return {
      content: `${p} usually goes ${pick(sports)} with ${friend} on weekends near ${place}.`,
      type: 'episode',
      entities: [
        ...(friend === p ? [] : [{ name: friend, type: 'person' as const }]),
        { name: place, type: 'location' },
      ],
    }
  },
  (p, pick, random) => ({
    content: `${p} is training for ${pick(races)} and runs ${String(10 + Math.floor(random() * 60))} kilometers a week.`,
    type: 'fact',
  }),
  (p, pick, random) => {
    const org = pick(organizations)
    const month = Math.floor(random() * 12)
    const day = 1 + Math.floor(random() * 28)
    const year = pick(years)
    return {
      content: `${p} had a job interview at ${org} on ${months[month] ?? ''} ${String(day)}, ${String(year)} and was ${pick(feelings)}.`,
      type: 'temporal_event',
      entities: [{ name: org, type: 'organization' }],
      occurredOn: `${String(year)}-${dayOf(month, day)}`,
    }
  },
  (p, pick) => {
    const [category, items] = pick(categories)
    return { content: `${p}'s favorite ${category} is ${pick(items)}.`, type: 'preference' }
  },
  (p, pick) => {
    const place = pick(places)
    return {
      content: `${p} learned to ${pick(skills)} during a trip to ${place} in ${String(pick(years))}.`,
      type: 'episode',
      entities: [{ name: place, type: 'location' }],
    }
  },
]

/** The user whose memories are mostly about this person (a user's memories are about their own circle). */
const userOfPerson = (person: string) =>
  users[createHash('sha256').update(person).digest().readUInt32BE(0) % users.length] ?? 'bench-user-00'

/** Deterministic in (count, seed): the same texts, so cached vectors stay valid. */
function generateMemories(count: number): MemorySpec[] {
  const random = prng(seed)
  const pick: Chooser = (list) => list[Math.floor(random() * list.length)] as (typeof list)[number]
  return Array.from({ length: count }, () => {
    const person = pick(people)
    const template = pick(templates)
    const draft = template(person, pick, random)
    const userId = random() < 0.8 ? userOfPerson(person) : pick(users)
    const entities = [{ name: person, type: 'person' as const }, ...(draft.entities ?? [])]
      .filter(
        (entity, index, all) =>
          all.findIndex((other) => entityKey(other.name) === entityKey(entity.name)) === index,
      )
      .slice(0, 3)
    return {
      content: draft.content,
      type: draft.type,
      entities,
      relations: (draft.relations ?? []).filter(
        (relation) => entityKey(relation.from) !== entityKey(relation.to),
      ),
      occurredOn: draft.occurredOn ?? null,
      userId,
      speaker: person,
    }
  })
}

/** Questions as a user would ask them: about the same people and things, never the stored wording. */
function generateQuestions(count: number): { query: string; userId?: string }[] {
  const random = prng(seed ^ 0x5eed)
  const pick: Chooser = (list) => list[Math.floor(random() * list.length)] as (typeof list)[number]
  const asks: ((p: string) => string)[] = [
    (p) => `Where did ${p} take ${pick(activities)}?`,
    (p) => `When did ${p} move to ${pick(places)}?`,
    (p) => `What food does ${p} like to cook?`,
    (p) => `How did ${p} feel after ${pick(activities)}?`,
    (p) => `What is the name of ${p}'s ${pick(pets)}?`,
    (p) => `Which company does ${p} work for?`,
    (p) => `What book is ${p} reading at the moment?`,
    (p) => `What does ${p}'s sister do for a living?`,
    (p) => `Where does ${p} volunteer?`,
    (p) => `What instrument does ${p} play, and in which band?`,
    (p) => `When did ${p} graduate and what did they study?`,
    (p) => `Is ${p} allergic to anything?`,
    (p) => `What did ${p} buy for ${pick(people)}'s birthday?`,
    (p) => `Who does ${p} go ${pick(sports)} with?`,
    (p) => `When did ${p} move, and where does ${p} work now?`,
    (p) => `What do ${p} and ${pick(firstNames)} both enjoy?`,
    (p) => `Which places does ${p} want to travel to?`,
    (p) => `What race is ${p} training for?`,
    (p) => `What is ${p}'s favorite ${pick(categories)[0]}?`,
    () => `Who has been to ${pick(places)}?`,
    () => `Who felt ${pick(feelings)} recently?`,
    (p) => `Does ${p} prefer coffee or tea?`,
    (p) => `What happened at ${p}'s job interview?`,
    (p) => `What did ${p} learn on their trip?`,
  ]
  return Array.from({ length: count }, (_, index) => {
    const person = pick(people)
    const query = pick(asks)(person)
    return index % 2 === 0 ? { query, userId: userOfPerson(person) } : { query }
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Vectors: computed once with the configured embedder, cached as raw Float32 (count × dimension).

async function vectorsOf(embedder: Embedder, texts: string[]): Promise<Float32Array> {
  const bytes = texts.length * dimension * 4
  if (existsSync(vectorFile) && statSync(vectorFile).size === bytes) {
    const buffer = readFileSync(vectorFile)
    console.log(`vectors: ${String(texts.length)} from cache ${vectorFile}`)
    return new Float32Array(buffer.buffer, buffer.byteOffset, texts.length * dimension)
  }
  const vectors = new Float32Array(texts.length * dimension)
  const started = performance.now()
  const batch = 64
  for (let start = 0; start < texts.length; start += batch) {
    const embedded = await embedder.embed(texts.slice(start, start + batch))
    embedded.forEach((vector, offset) => {
      if (vector.length !== dimension)
        throw new Error(`embedder returned ${String(vector.length)} dims, expected ${String(dimension)}`)
      vectors.set(vector, (start + offset) * dimension)
    })
    const done = Math.min(start + batch, texts.length)
    if (Math.floor(done / 10_000) > Math.floor(start / 10_000) || done === texts.length) {
      const seconds = (performance.now() - started) / 1000
      console.log(
        `embedded ${String(done)}/${String(texts.length)} (${String(Math.round(done / seconds))}/s, ${seconds.toFixed(0)}s)`,
      )
    }
  }
  mkdirSync(cacheDir, { recursive: true })
  const partial = `${vectorFile}.${runId}.partial`
  writeFileSync(partial, new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength))
  renameSync(partial, vectorFile)
  return vectors
}

// ---------------------------------------------------------------------------------------------------------------
// Measurement.

interface Measured {
  name: string
  concurrency: number
  latencies: number[]
  seconds: number
  errors: number
}

const errorBodies = new Map<string, string>()

async function measure(
  name: string,
  requests: number,
  concurrency: number,
  one: (index: number) => Promise<boolean>,
): Promise<Measured> {
  const latencies: number[] = []
  let errors = 0
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = next++; index < requests; index = next++) {
        const sent = performance.now()
        const ok = await one(index)
        if (ok) latencies.push(performance.now() - sent)
        else errors += 1
      }
    }),
  )
  return {
    name,
    concurrency,
    latencies: latencies.sort((a, b) => a - b),
    seconds: (performance.now() - started) / 1000,
    errors,
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls a projection's count of the memories until it holds them all or `timeoutMs` passed, printing every 10 000. */
async function follow(
  label: string,
  count: () => Promise<number>,
  started: number,
  timeoutMs: number,
): Promise<{ count: number; seconds: number }> {
  for (let reported = 0; ;) {
    const found = await count()
    const seconds = (performance.now() - started) / 1000
    if (found >= total || seconds * 1000 > timeoutMs) {
      console.log(`${label}: ${String(found)}/${String(total)} after ${seconds.toFixed(0)}s`)
      return { count: found, seconds }
    }
    if (Math.floor(found / 10_000) > reported) {
      reported = Math.floor(found / 10_000)
      console.log(`${label} ${String(found)}/${String(total)} (${seconds.toFixed(0)}s)`)
    }
    await sleep(1000)
  }
}

async function main(): Promise<void> {
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 })
  const es = createElasticsearchClient(config.elasticsearch)
  const esCount = async (instanceId: string) =>
    (await es.count({ index: MEMORIES_ALIAS, query: { term: { instance_id: instanceId } } })).count
  // The instance of an earlier run is reused only when it holds exactly the memories wanted (and its key works).
  const cached = existsSync(instanceFile)
    ? (JSON.parse(readFileSync(instanceFile, 'utf8')) as { instance_id: string; api_key: string })
    : undefined
  const cachedCount = cached ? await esCount(cached.instance_id) : 0
  if (cached && cachedCount !== total)
    console.log(
      `cached instance ${cached.instance_id} holds ${String(cachedCount)} of ${String(total)} memories: loading a new one`,
    )
  const bench = await startBench('bench-search', ['gateway', 'projectors'], {
    ...(cached && cachedCount === total
      ? { reuse: { instanceId: cached.instance_id, apiKey: cached.api_key } }
      : {}),
  })
  const { kafka, codec, apiKey, baseUrl, instance } = bench
  const graph = createNeo4jStore(createNeo4jDriver(config.neo4j), config.neo4j.database)
  const embedder = await createEmbedder(config.embeddings)
  const graphCount = async (instanceId: string) => {
    const [row] = await graph.read<{ count: number }>(
      `${activeGraphGeneration}
       MATCH (memory:Memory {generation: generation, instance_id: $instanceId}) RETURN count(memory) AS count`,
      { instanceId },
    )
    return row?.count ?? 0
  }

  let load = 'none (instance and memories reused from an earlier run)'
  if (bench.reused) {
    console.log(`reusing instance ${instance.instance_id}: ${String(total)} memories in Elasticsearch`)
  } else {
    writeFileSync(
      instanceFile,
      JSON.stringify({ instance_id: instance.instance_id, api_key: apiKey, count: total, seed, model }),
      { mode: 0o600 },
    )
    chmodSync(instanceFile, 0o600)
    const specs = generateMemories(total)
    const vectors = await vectorsOf(
      embedder,
      specs.map((spec) => spec.content),
    )
    await codec.register([{ subject: MEMORY_SUBJECT, schema: memoryChangedSchema }])
    const producer = await createEventProducer(kafka, codec)
    // Each event is about 8 KB (its vector as JSON): 400 per produce request stays far below the topic's limit.
    const appender = createCoalescingAppender(producer, { maxEvents: 400 })
    const started = performance.now()
    // Followed from the first append: the projectors index while the events are written.
    const indexed = follow('elasticsearch', () => esCount(instance.instance_id), started, 60 * 60_000)
    // Search in fast mode reads entities from the graph, and the graph projection competes for the CPU: it is
    // waited for too (bounded), so searches are not measured while it still writes.
    const graphed = follow(
      'neo4j',
      () => graphCount(instance.instance_id),
      started,
      Number(process.env.BENCH_GRAPH_TIMEOUT_MS ?? 30 * 60_000),
    )
    const pending: Promise<unknown>[] = []
    const correlationId = `bench-search-${runId}`
    // Memories come from documents of 1–5 statements, ids derived as the pipeline derives them.
    const random = prng(seed ^ 0xd0c)
    let documentIndex = 0
    for (let first = 0; first < total; documentIndex += 1) {
      const size = Math.min(1 + Math.floor(random() * 5), total - first)
      const ingestionId = `ing_${createHash('sha256')
        .update(`${instance.instance_id}\u0000${String(documentIndex)}`)
        .digest('hex')
        .slice(0, 32)}`
      const documentCreatedAt = new Date(Date.UTC(2023, 0, 1) + documentIndex * 600_000).toISOString()
      const changedAt = new Date().toISOString()
      const events = Array.from({ length: size }, (_, ordinal): MemoryChanged => {
        const position = first + ordinal
        const spec = specs[position] as MemorySpec
        const id = memoryIdFor(ingestionId, ordinal)
        const idOf = (name: string) => entityIdFor(instance.instance_id, entityKey(name))
        const entities = spec.entities.map(({ name, type }) => ({
          entity_id: idOf(name),
          canonical_name: name,
          type,
        }))
        const mentioned = new Set(entities.map((entity) => entity.entity_id))
        return {
          type: 'memory_changed',
          change: 'created',
          event_id: randomUUID(),
          memory_id: id,
          instance_id: instance.instance_id,
          version: 1,
          changed_at: changedAt,
          memory: {
            id,
            instance_id: instance.instance_id,
            type: spec.type,
            content: spec.content,
            confidence: 0.9,
            entities,
            relations: spec.relations
              .map(({ from, to, type }) => ({ from_entity_id: idOf(from), to_entity_id: idOf(to), type }))
              .filter(
                (relation) => mentioned.has(relation.from_entity_id) && mentioned.has(relation.to_entity_id),
              ),
            scope: { user_id: spec.userId, customer_id: null, client_id: instance.client_id },
            source: {
              ingestion_id: ingestionId,
              document_type: 'ai-chat-conversation',
              document_created_at: documentCreatedAt,
            },
            metadata: { bench: 'search' },
            created_at: changedAt,
            updated_at: null,
            occurred_on: spec.occurredOn,
            speaker: spec.speaker,
            mode: 'fast',
            embedding: {
              model: embedder.model,
              vector: Array.from(vectors.subarray(position * dimension, (position + 1) * dimension)),
            },
          },
        }
      })
      pending.push(
        appender.append(
          MEMORIES_TOPIC,
          events.map((event) => ({
            key: event.memory_id,
            subject: MEMORY_SUBJECT,
            payload: event,
            correlationId,
          })),
        ),
      )
      if (Math.floor((first + size) / 10_000) > Math.floor(first / 10_000))
        console.log(
          `appended ${String(first + size)}/${String(total)} (${((performance.now() - started) / 1000).toFixed(0)}s)`,
        )
      first += size
      // A few produce requests' worth queued behind the one in flight.
      if (pending.length >= 400) await pending.shift()
    }
    await Promise.all(pending)
    const appended = (performance.now() - started) / 1000
    await producer.close()
    console.log(
      `appended ${String(total)} MemoryChanged events (${String(documentIndex)} documents) in ${appended.toFixed(1)}s`,
    )
    const [intoEs, intoGraph] = await Promise.all([indexed, graphed])
    if (intoEs.count < total)
      throw new Error(`Elasticsearch holds ${String(intoEs.count)} of ${String(total)} memories`)
    const rate = (count: number, seconds: number) => `${String(Math.round(count / seconds))}/s`
    load =
      `Kafka append ${rate(total, appended)}; into ES ${rate(total, intoEs.seconds)} (all in ${intoEs.seconds.toFixed(0)}s ` +
      `from the first append); into Neo4j ${rate(intoGraph.count, intoGraph.seconds)} (${String(intoGraph.count)} in ${intoGraph.seconds.toFixed(0)}s)`
  }
  const instanceId = instance.instance_id

  // Questions, pre-embedded for the raw kNN; and the time to embed one, which every API search pays.
  const questions = generateQuestions(400)
  const questionVectors = await embedQueries(
    embedder,
    questions.map((question) => question.query),
  )
  const embedTimes: number[] = []
  for (const question of questions.slice(0, 100)) {
    const sent = performance.now()
    await embedQueries(embedder, [question.query])
    embedTimes.push(performance.now() - sent)
  }
  embedTimes.sort((a, b) => a - b)

  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }
  let emptyResults = 0
  const api =
    (mode: 'fast' | 'accurate') =>
    async (index: number): Promise<boolean> => {
      const question = questions[index % questions.length] ?? { query: 'What does Maria like?' }
      const response = await fetch(`${baseUrl}/v1/memories/search`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          query: question.query,
          ...(question.userId !== undefined ? { user_id: question.userId } : {}),
          limit: 10,
          mode,
        }),
      })
      const text = await response.text()
      if (response.status !== 200) {
        const key = `${mode} ${String(response.status)}`
        if (!errorBodies.has(key)) errorBodies.set(key, text.slice(0, 500))
        return false
      }
      if ((JSON.parse(text) as { results: unknown[] }).results.length === 0) emptyResults += 1
      return true
    }
  const knn = async (index: number): Promise<boolean> => {
    try {
      await es.search({
        index: MEMORIES_ALIAS,
        knn: {
          field: 'embedding',
          query_vector: questionVectors[index % questions.length] ?? [],
          k: 10,
          num_candidates: 100,
          filter: [{ term: { instance_id: instanceId } }],
        },
        size: 10,
        _source: { excludes: ['embedding', 'content_terms'] },
      })
      return true
    } catch (error) {
      if (!errorBodies.has('knn')) errorBodies.set('knn', String(error).slice(0, 500))
      return false
    }
  }
  const scenarios = [
    { name: 'raw kNN (ES)', one: knn },
    { name: 'API fast', one: api('fast') },
    { name: 'API accurate', one: api('accurate') },
  ]
  for (const scenario of scenarios) await measure('warm-up', 30, 1, scenario.one)
  emptyResults = 0
  const loadBefore = loadavg()[0] ?? 0
  const results: Measured[] = []
  // The service's own account of each one-client search (took_ms and its stages), published by the gateway.
  const timings: SearchTiming[] = []
  const collect = (message: unknown) => timings.push(message as SearchTiming)
  for (const [requests, concurrency] of [
    [300, 1],
    [800, 8],
  ] as const) {
    if (concurrency === 1) subscribe(searchTimings.name, collect)
    for (const scenario of scenarios)
      results.push(await measure(scenario.name, requests, concurrency, scenario.one))
    if (concurrency === 1) unsubscribe(searchTimings.name, collect)
  }

  const loadAfter = loadavg()[0] ?? 0
  const rawOf = (concurrency: number) =>
    results.find((result) => result.name === scenarios[0]?.name && result.concurrency === concurrency)
  const rows = results.map((result) => {
    const raw = rawOf(result.concurrency)
    const ratio = (p: number) =>
      raw && result !== raw
        ? `${(percentile(result.latencies, p) / percentile(raw.latencies, p)).toFixed(1)}×`
        : '-'
    return {
      scenario: result.name,
      clients: String(result.concurrency),
      requests: String(result.latencies.length + result.errors),
      'p50 ms': percentile(result.latencies, 50).toFixed(1),
      'p95 ms': percentile(result.latencies, 95).toFixed(1),
      'p99 ms': percentile(result.latencies, 99).toFixed(1),
      'req/s': (result.latencies.length / result.seconds).toFixed(1),
      errors: String(result.errors),
      'p50 / kNN': ratio(50),
      'p95 / kNN': ratio(95),
    }
  })
  const columns = Object.keys(rows[0] ?? {})
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => (row as Record<string, string>)[column]?.length ?? 0)),
  )
  const line = (cells: string[]) =>
    `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ')} |`
  console.log(
    `\nsearch benchmark: ${String(total)} memories of ${String(userCount)} user(s) in one instance (${instanceId}), limit 10, half with user_id, ` +
      `${model}, ${new Date().toISOString()}`,
  )
  console.log(`load: ${load}`)
  console.log(
    `embedding one question (${embedder.model}, in the bench process): p50 ${percentile(embedTimes, 50).toFixed(1)} ms, p95 ${percentile(embedTimes, 95).toFixed(1)} ms`,
  )
  console.log(
    `gateway, projectors and clients in one process; ${String(availableParallelism())} CPUs, 1-min load average ` +
      `${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after the measurements\n`,
  )
  console.log(line(columns))
  console.log(line(widths.map((width) => '-'.repeat(width))))
  for (const row of rows)
    console.log(line(columns.map((column) => (row as Record<string, string>)[column] ?? '')))
  console.log("\nwhere one client's search spends its time, p50 / p95 ms, from the service's own timings:")
  for (const mode of ['fast', 'accurate'] as const) {
    const of = timings.filter((timing) => timing.mode === mode)
    const spread = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b)
      return `${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 95).toFixed(1)}`
    }
    console.log(
      `  ${mode}: took_ms ${spread(of.map((timing) => timing.tookMs))}; ` +
        `embedding ${spread(of.map((timing) => timing.stages.embedding))}; ` +
        `retrieval ${spread(of.map((timing) => timing.stages.retrieval))}; ` +
        `rerank ${spread(of.map((timing) => timing.stages.rerank))}`,
    )
  }
  if (emptyResults > 0) console.log(`\nAPI searches with no result: ${String(emptyResults)}`)
  for (const [key, body] of errorBodies) console.log(`first error (${key}): ${body}`)

  await embedder.close()
  await Promise.allSettled([es.close(), graph.close()])
  await bench.close()
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
