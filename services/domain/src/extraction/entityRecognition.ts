/**
 * Entity recognition without a model: capitalization, a few cue words around a name, and a small gazetteer.
 * Precision comes first, since every false entity becomes a node of the graph: a capitalized word at the start of a
 * sentence counts only when the document knows it as a name or the gazetteer does.
 */
import { entityKey } from './entityNames.js'
import { isKnownOrganization, isWorldCity } from '@memory-service/language'
import type { EntityType, RecognizedEntity, RecognizedRelation } from './extraction.js'
import { explicitDatesIn, type ResolvedDate } from './relativeDates.js'
import { irregularPastVerbs } from './thirdPerson.js'

export interface EntityMention {
  name: string
  type: EntityType
  start: number
  end: number
}

export interface RecognitionContext {
  /** The speaker of the statement, a person. */
  speaker: string | null
  /** People the document names by its structure: speakers, email senders and recipients, vocatives. */
  knownPeople?: readonly string[]
  /** Entity keys of capitalized spans seen mid-sentence elsewhere in the document, known names at a sentence start. */
  knownProperNouns?: ReadonlySet<string>
  /** Dates resolved in the statement; each becomes a date entity. */
  dates?: readonly ResolvedDate[]
}

const split = (words: string) => new Set(words.split('|'))

// Countries, major world cities, US states and Canadian provinces, continents and large regions.
const places = split(
  'afghanistan|albania|algeria|andorra|angola|argentina|armenia|australia|austria|azerbaijan|bahamas|bahrain|bangladesh|barbados|belarus|belgium|belize|benin|bhutan|bolivia|bosnia|botswana|brazil|brunei|bulgaria|burkina faso|burundi|cambodia|cameroon|canada|cape verde|chad|chile|china|colombia|comoros|congo|costa rica|croatia|cuba|cyprus|czechia|czech republic|denmark|djibouti|dominica|dominican republic|ecuador|egypt|el salvador|england|eritrea|estonia|eswatini|ethiopia|fiji|finland|france|gabon|gambia|georgia|germany|ghana|greece|greenland|grenada|guatemala|guinea|guyana|haiti|honduras|hungary|iceland|india|indonesia|iran|iraq|ireland|israel|italy|ivory coast|jamaica|japan|jordan|kazakhstan|kenya|kosovo|kuwait|kyrgyzstan|laos|latvia|lebanon|lesotho|liberia|libya|liechtenstein|lithuania|luxembourg|madagascar|malawi|malaysia|maldives|mali|malta|mauritania|mauritius|mexico|moldova|monaco|mongolia|montenegro|morocco|mozambique|myanmar|namibia|nepal|netherlands|holland|new zealand|nicaragua|niger|nigeria|north korea|north macedonia|norway|oman|pakistan|palestine|panama|papua new guinea|paraguay|peru|philippines|poland|portugal|puerto rico|qatar|romania|russia|rwanda|samoa|san marino|saudi arabia|scotland|senegal|serbia|seychelles|sierra leone|singapore|slovakia|slovenia|somalia|south africa|south korea|korea|south sudan|spain|sri lanka|sudan|suriname|sweden|switzerland|syria|taiwan|tajikistan|tanzania|thailand|togo|tonga|trinidad|tunisia|turkey|turkmenistan|uganda|ukraine|united arab emirates|uae|united kingdom|uk|united states|usa|us|america|uruguay|uzbekistan|vanuatu|vatican|venezuela|vietnam|wales|yemen|zambia|zimbabwe|' +
    'africa|antarctica|asia|europe|north america|south america|latin america|oceania|middle east|scandinavia|caribbean|mediterranean|balkans|siberia|patagonia|the alps|alps|himalayas|sahara|amazon|midwest|new england|silicon valley|bay area|' +
    'alabama|alaska|arizona|arkansas|california|colorado|connecticut|delaware|florida|hawaii|idaho|illinois|indiana|iowa|kansas|kentucky|louisiana|maine|maryland|massachusetts|michigan|minnesota|mississippi|missouri|montana|nebraska|nevada|new hampshire|new jersey|new mexico|new york|north carolina|north dakota|ohio|oklahoma|oregon|pennsylvania|rhode island|south carolina|south dakota|tennessee|texas|utah|vermont|virginia|washington|west virginia|wisconsin|wyoming|ontario|quebec|british columbia|alberta|manitoba|nova scotia|' +
    'tokyo|delhi|new delhi|shanghai|beijing|mumbai|bombay|osaka|cairo|dhaka|karachi|istanbul|kolkata|manila|lagos|rio de janeiro|rio|tianjin|kinshasa|guangzhou|los angeles|la|moscow|shenzhen|lahore|bangalore|bengaluru|paris|bogota|jakarta|chennai|lima|bangkok|seoul|nagoya|hyderabad|london|tehran|chicago|chengdu|nanjing|wuhan|ho chi minh city|saigon|luanda|ahmedabad|kuala lumpur|hong kong|hangzhou|riyadh|baghdad|santiago|pune|madrid|toronto|miami|dallas|houston|philadelphia|atlanta|barcelona|khartoum|johannesburg|cape town|saint petersburg|st petersburg|washington dc|dc|boston|sydney|melbourne|brisbane|perth|auckland|wellington|berlin|munich|hamburg|frankfurt|cologne|rome|milan|naples|venice|florence|athens|lisbon|porto|dublin|edinburgh|glasgow|manchester|liverpool|birmingham|amsterdam|rotterdam|brussels|vienna|prague|budapest|warsaw|krakow|stockholm|oslo|copenhagen|helsinki|reykjavik|zurich|geneva|montreal|vancouver|ottawa|calgary|mexico city|cancun|havana|buenos aires|sao paulo|caracas|quito|nairobi|addis ababa|casablanca|marrakech|dubai|abu dhabi|doha|tel aviv|jerusalem|beirut|amman|kyiv|kiev|minsk|bucharest|sofia|belgrade|zagreb|singapore|taipei|kyoto|hanoi|phnom penh|kathmandu|colombo|san francisco|san diego|san jose|seattle|portland|denver|phoenix|las vegas|austin|san antonio|nashville|new orleans|detroit|minneapolis|st louis|pittsburgh|baltimore|orlando|tampa|honolulu|anchorage|salt lake city|sacramento|brooklyn|manhattan|queens|the bronx|bronx|nyc|hollywood|malibu|yosemite|yellowstone|grand canyon|' +
    // What people who live there call a city, and its own spelling: "floripa life since september", "So CDMX is a lot".
    'cdmx|philly|nola|hcmc|floripa|sampa|bsas|baires|jozi|joburg|calcutta|madras|lisboa|milano|napoli|firenze|torino|venezia|münchen|munchen|köln|koln|wien|praha|warszawa|bruxelles|brussel|københavn|kobenhavn|den haag|sevilla|zürich|genève|geneve|san fran|vegas|bcn|gurugram|bengaluru|ldn|brum',
)

// The world's larger cities (GeoNames, services/language): after the document's own people, so a person named like a
// city stays one.

// Companies and services people mention by name in everyday text.
const organizations = split(
  'google|apple|microsoft|amazon|facebook|meta|instagram|twitter|youtube|netflix|spotify|tiktok|reddit|linkedin|uber|lyft|airbnb|tesla|ibm|intel|nvidia|samsung|sony|nintendo|disney|pixar|starbucks|walmart|target|costco|ikea|nike|adidas|openai|nasa|fbi|cia|un|unicef|who|red cross|peace corps|whatsapp|zoom|slack|github|paypal|ebay|etsy|pinterest|snapchat|discord|twitch|hbo|bbc|cnn|nfl|nba|mlb|nhl|fifa|uefa|harvard|stanford|mit|oxford|cambridge|yale|princeton',
)

// Holidays and recurring events whose name carries no cue word.
const holidays = split(
  "christmas|christmas eve|thanksgiving|halloween|easter|hanukkah|diwali|ramadan|eid|passover|new year|new years|new year's eve|valentine's day|mother's day|father's day|independence day|labor day|memorial day|pride|pride month|black friday|super bowl|olympics|world cup|oktoberfest|mardi gras|carnival|lunar new year|chinese new year|juneteenth|kwanzaa",
)

const organizationSuffixes = split(
  'inc|corp|corporation|llc|ltd|co|company|companies|university|college|school|academy|institute|hospital|clinic|club|group|bank|foundation|association|society|agency|council|department|ministry|studio|studios|labs|records|press|airlines|airways|partners|ventures|technologies|systems|solutions|bakery|cafe|restaurant|store|shop|league|federation|union|network|org|nonprofit|charity|shelter|church|band|orchestra|choir|team',
)
const eventSuffixes = split(
  'festival|fest|conference|parade|concert|wedding|marathon|party|summit|expo|fair|tournament|championship|cup|games|olympics|show|gala|ceremony|workshop|meetup|symposium|convention|race|rally|retreat|reunion|fundraiser|hackathon|recital|premiere|exhibition|graduation|day|week|night|competition|contest|auction|camp|ball|tour',
)
const locationSuffixes = split(
  'park|street|st|avenue|ave|road|rd|boulevard|blvd|lane|lake|river|mountain|mountains|mount|mt|beach|island|islands|bay|valley|canyon|forest|falls|city|county|state|province|square|bridge|museum|zoo|airport|station|trail|coast|desert|hills|hill|peninsula|harbor|harbour|gardens|garden|plaza|center|centre|mall|market|tower|palace|castle|cathedral|temple|reserve|national park|village|town|district|springs|creek|ocean|sea|gulf',
)
const honorifics = split(
  'mr|mrs|ms|mx|miss|dr|prof|sir|dame|aunt|uncle|grandma|grandpa|coach|officer|captain|judge|rev',
)

/** Capitalized words that are not names: sentence furniture, interjections, calendar words, chat acronyms. */
const notNames = split(
  "i|i'm|i've|i'll|i'd|im|me|my|we|you|he|she|it|they|them|us|our|your|his|her|its|their|this|that|these|those|the|a|an|and|or|but|so|if|then|when|what|why|how|who|where|which|hey|hi|hello|hiya|thanks|thank|wow|yes|yeah|yep|no|nope|oh|ok|okay|omg|lol|lmao|haha|hahaha|aww|aw|yay|ugh|hmm|um|uh|well|sure|cool|great|awesome|nice|amazing|love|congrats|congratulations|sorry|please|god|gosh|jesus|mom|dad|mum|mommy|daddy|grandma|grandpa|sis|bro|babe|buddy|bud|dude|man|guys|folks|sir|madam|everyone|everybody|anyway|anyways|also|just|really|totally|definitely|absolutely|maybe|perhaps|actually|honestly|basically|seriously|literally|apparently|obviously|hopefully|luckily|unfortunately|fortunately|sadly|thankfully|finally|officially|currently|recently|clearly|surprisingly|frankly|personally|ironically|weirdly|oddly|update|btw|fyi|tbh|imo|imho|idk|asap|diy|tv|pc|ok|ps|am|pm|aka|etc|vs|re|fwd|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|today|tomorrow|yesterday|tonight|morning|evening|afternoon|night|spring|summer|fall|autumn|winter|email|subject|note|meeting|agenda|speaker|user|assistant|human|ai|system|bot|happy|merry|dear|here|there|now|let|let's|check|look|see|remember|keep|good|bad|best|new|old|big|little|first|last|next|one|two|three|every|all|some|any|many|more|most|other|another|such|very|not|only|even|still|both|each|few|much|own|same|too|mr|mrs|ms|dr|in|on|at|to|for|with|from|by|of|about|after|before|during|since|until|like|as|than|because|while|though|although|unless|whether|wish|hope|can't|don't|won't|didn't|it's|that's|there's|here's|what's|let's|we're|you're|they're|he's|she's|isn't|aren't|wasn't|weren't|haven't|hasn't|can|will|would|should|could|might|must|shall|did|do|does|done|been|be|is|are|was|were|have|has|had",
)

/** Verbs before a name that make it an employer or a team rather than a place. */
const organizationContext =
  /\b(?:works?|worked|working|job|jobs|intern(?:ed|ing|ship)?|employed|hired|joined|joining|join|signed|signing|volunteer(?:s|ed|ing)?|studies|studied|studying|enrolled|accepted|interview(?:ed|ing)?|member|founded|started|runs|ran|owns|owned|manager|engineer|ceo|ceo of|intern)\s+(?:\w+\s+)?(?:at|for|with|by|of|to|in)?\s*(?:the\s+)?$/i
const locationContext =
  /\b(?:in|near|around|across|through|into|outside|inside|toward|towards|visit|visited|visiting|explore|explored|exploring|(?:went|go|going|goes|moved|move|moving|flew|fly|flying|drove|drive|driving|trip|travel(?:l?ed|l?ing)?|headed|heading|relocated|road\s+trip|vacation|holiday|back|came|come|coming|returned|welcome)\s+(?:back\s+)?to|(?:is|am|'m|are|was|were|come|comes|came|originally|born|grew\s+up|live|lives|lived|living|stayed|staying|located|based)\s+(?:\w+\s+)?(?:from|in|at)|at)\s+(?:the\s+)?$/i

const wordPattern = /[\p{L}\p{N}]+(?:['’.&-][\p{L}\p{N}]+)*/gu

interface WordToken {
  text: string
  start: number
  end: number
  /** First word of a sentence (or of a line, or after a colon), where capitals say nothing. */
  sentenceInitial: boolean
}

function wordTokens(text: string): WordToken[] {
  const tokens: WordToken[] = []
  let previousEnd = 0
  for (const match of text.matchAll(wordPattern)) {
    const gap = text.slice(previousEnd, match.index)
    const previous = tokens[tokens.length - 1]
    const afterHonorific =
      previous !== undefined && honorifics.has(lowerOf(previous.text)) && /^\.\s+$/.test(gap)
    tokens.push({
      text: match[0],
      start: match.index,
      end: match.index + match[0].length,
      sentenceInitial: !previous || (!afterHonorific && /[.!?…:\n]|\s[-–—]\s/.test(gap)),
    })
    previousEnd = match.index + match[0].length
  }
  return tokens
}

const withoutPossessive = (word: string) => word.replace(/['’]s$/u, '')
const lowerOf = (word: string) => withoutPossessive(word).toLowerCase().replace(/’/g, "'")
const isCapitalized = (word: string) => /^\p{Lu}/u.test(word)
const isAcronym = (word: string) => /^\p{Lu}{2,6}$/u.test(withoutPossessive(word).replace(/\./g, ''))
const isNotName = (word: string) => notNames.has(lowerOf(word)) || notNames.has(word.toLowerCase())

function quotedTitles(text: string): EntityMention[] {
  const titles: EntityMention[] = []
  for (const match of text.matchAll(/["“]([^"”\n]{2,80})["”]/gu)) {
    const inner = (match[1] ?? '').trim().replace(/[.,!?;:]+$/u, '')
    const words = inner.split(/\s+/)
    if (words.length <= 8 && words.some(isCapitalized) && /\p{L}/u.test(inner)) {
      titles.push({ name: inner, type: 'other', start: match.index, end: match.index + match[0].length })
    }
  }
  return titles
}

/**
 * The type of a capitalized span, by the first rule that applies: an honorific or the speaker → person; the
 * gazetteers (holidays → event, companies → organization, places → location); other people the document knows →
 * person; an organization, event or place suffix; an acronym (organization after a work verb, else other); the
 * words just before it (work verbs → organization, place prepositions and motion verbs → location); after "the",
 * a plural (teams, bands) → organization, else other; otherwise a person when it looks like a name of one to three
 * words.
 */
function typeOfSpan(words: readonly string[], before: string, context: ClassificationContext): EntityType {
  const name = words.join(' ')
  const key = entityKey(name)
  const lastWord = lowerOf(words[words.length - 1] ?? '')
  const firstWord = lowerOf(words[0] ?? '')
  if (honorifics.has(firstWord) && words.length > 1) return 'person'
  // The speaker is certainly a person; other known people come from vocatives, which a place can look like.
  if (key === context.speakerKey) return 'person'
  if (holidays.has(key)) return 'event'
  if (organizations.has(key) || isKnownOrganization(key)) return 'organization'
  if (places.has(key)) return 'location'
  if (context.knownPeopleKeys.has(key)) return 'person'
  if (isWorldCity(key)) return 'location'
  if (words.length > 1 && organizationSuffixes.has(lastWord)) return 'organization'
  if (
    words.length > 1 &&
    ['university', 'bank', 'institute', 'college', 'school', 'church'].includes(firstWord)
  ) {
    return 'organization'
  }
  if (words.length > 1 && eventSuffixes.has(lastWord)) return 'event'
  if (words.length > 1 && locationSuffixes.has(lastWord)) return 'location'
  if (words.length === 1 && isAcronym(words[0] ?? '')) {
    return organizationContext.test(before) ? 'organization' : 'other'
  }
  if (organizationContext.test(before)) return 'organization'
  if (locationContext.test(before)) return 'location'
  // "the Lakers", "the Minnesota Wolves" are teams and bands; a person's name takes no article ("the Atlas launch").
  if (/\bthe\s+$/i.test(before)) return /(?<![aiousy'’])s$/.test(lastWord) ? 'organization' : 'other'
  if (words.length <= 3 && words.every((word) => /^\p{Lu}[\p{Ll}'’-]+$/u.test(word))) return 'person'
  return 'other'
}

interface ClassificationContext {
  speakerKey: string | null
  knownPeopleKeys: ReadonlySet<string>
  knownProperNouns: ReadonlySet<string>
}

const connectors = new Set(['of', 'de', 'van', 'von', 'der', 'del', 'la', 'du', 'da'])

// A document's known people are the same for each of its sentences; their keys are computed once per list.
const keysByNameList = new WeakMap<readonly string[], readonly string[]>()

function keysOf(names: readonly string[]): readonly string[] {
  let keys = keysByNameList.get(names)
  if (!keys) {
    keys = names.map(entityKey)
    keysByNameList.set(names, keys)
  }
  return keys
}

/** Finds the named mentions of a statement (people, places, organizations, events, titles), with their ranges. */
export function recognizeMentions(text: string, context: RecognitionContext): EntityMention[] {
  const knownPeopleKeys = new Set(keysOf(context.knownPeople ?? []))
  if (context.speaker) knownPeopleKeys.add(entityKey(context.speaker))
  const classification: ClassificationContext = {
    speakerKey: context.speaker ? entityKey(context.speaker) : null,
    knownPeopleKeys,
    knownProperNouns: context.knownProperNouns ?? new Set(),
  }
  const mentions = quotedTitles(text)
  const insideTitle = (index: number) => mentions.some((title) => index >= title.start && index < title.end)
  const tokens = wordTokens(text).filter((token) => !insideTitle(token.start))
  const wordCount = tokens.filter((token) => /\p{L}/u.test(token.text)).length
  const capitalizedCount = tokens.filter((token) => isCapitalized(token.text)).length
  // In Title Case Text capitals mark nothing; only names known from elsewhere count.
  const isTitleCase = wordCount >= 5 && capitalizedCount / wordCount >= 0.6

  for (let index = 0; index < tokens.length; index++) {
    const first = tokens[index]
    if (!first || !isCapitalized(first.text)) continue
    // Honorifics are no names alone ("Thanks, Coach"), but open one before a name ("Dr. Smith").
    const opensWithHonorific = honorifics.has(lowerOf(first.text))
    if (isNotName(first.text) && !opensWithHonorific) continue
    const span: WordToken[] = [first]
    let next = index + 1
    while (next < tokens.length) {
      const candidate = tokens[next]
      const previous = tokens[next - 1]
      if (!candidate || !previous || candidate.sentenceInitial) break
      const gap = text.slice(previous.end, candidate.start)
      if (
        !/^\s+$|^\s+&\s+$|^\.\s+$/.test(gap) ||
        (gap.trim() === '.' && !honorifics.has(lowerOf(previous.text)))
      ) {
        break
      }
      if (isCapitalized(candidate.text) && !isNotName(candidate.text)) {
        span.push(candidate)
        next++
        continue
      }
      const afterConnector = tokens[next + 1]
      if (
        connectors.has(candidate.text) &&
        afterConnector &&
        isCapitalized(afterConnector.text) &&
        !isNotName(afterConnector.text) &&
        !/[.,!?;:]/.test(text.slice(candidate.end, afterConnector.start))
      ) {
        span.push(candidate, afterConnector)
        next += 2
        continue
      }
      break
    }
    index = next - 1
    if (opensWithHonorific && span.length === 1) continue
    const words = span.map((token) => token.text)
    words[words.length - 1] = withoutPossessive(words[words.length - 1] ?? '')
    const last = span[span.length - 1] ?? first
    const end = last.start + (words[words.length - 1] ?? '').length
    const spanText = text.slice(first.start, end).replace(/\s+/g, ' ')
    const key = entityKey(spanText)
    const isKnown =
      classification.knownPeopleKeys.has(key) ||
      classification.knownProperNouns.has(key) ||
      places.has(key) ||
      isWorldCity(key) ||
      organizations.has(key) ||
      isKnownOrganization(key) ||
      holidays.has(key)
    // "Anna and Tom visited": a sentence-initial word coordinated with a name is a name too.
    const coordinated =
      /^\s+(?:and|&)\s+\p{Lu}/u.test(text.slice(end, end + 8)) && !isNotName(tokens[next + 1]?.text ?? '')
    // "seeing someone new now - Halima, we met at…": one word set off by a dash and a comma, told of after it, names
    // the person meant.
    const setOffByDash =
      new RegExp(`^${toldOfAfterName}`, 'u').test(text.slice(end, end + 8)) &&
      /\b(?:someone|somebody|guy|girl|woman|man|person|friend)(?:\s+(?:new|else))?(?:\s+now)?\s[-–—]\s+$/i.test(
        text.slice(Math.max(0, first.start - 40), first.start),
      )
    if (first.sentenceInitial && span.length === 1 && !isKnown && !coordinated && !setOffByDash) continue
    if (isTitleCase && !isKnown) continue
    const before = text.slice(Math.max(0, first.start - 40), first.start)
    const type = typeOfSpan(words, before, classification)
    mentions.push({ name: spanText, type, start: first.start, end })
  }
  return mentions.sort((a, b) => a.start - b.start)
}

/** Date entities for the dates of a statement; approximate ones ("around 2021") would assert a date never stated. */
function dateEntities(dates: readonly ResolvedDate[]): RecognizedEntity[] {
  return dates
    .filter((date) => !date.approximate)
    .map((date) => ({ name: date.label.replace(/^the /, ''), type: 'date' as const }))
}

/** One entity per key, in order of first mention, named as first mentioned. */
export function entitiesOf(
  mentions: readonly EntityMention[],
  dates: readonly ResolvedDate[] = [],
): RecognizedEntity[] {
  const seen = new Set<string>()
  const entities: RecognizedEntity[] = []
  for (const entity of [...mentions.map(({ name, type }) => ({ name, type })), ...dateEntities(dates)]) {
    const key = entityKey(entity.name)
    if (seen.has(key)) continue
    seen.add(key)
    entities.push(entity)
  }
  return entities
}

/** Whether the gazetteer knows the name as a place (a country, a big city, a region), whatever its case. */
export function isKnownPlace(name: string): boolean {
  return places.has(lowerOf(name)) || isWorldCity(name)
}

/** After a name set off by a dash, a comma and the person told of: "- Halima, we met at…", "- Marco, he's a chef". */
export const toldOfAfterName = ',\\s*(?:[Ww]e|[Ss]he|[Hh]e|[Tt]hey|[Ww]ho|I|i)\\b'

/** Whether the name is one of the organizations people name as where they work (knownOrganizations.ts). */
export function isKnownEmployer(name: string): boolean {
  return isKnownOrganization(name)
}

/**
 * Every run of capitalized words in a text, at a sentence start too, without the words that are never names
 * ("The", "Hey", "Monday"): candidates for a reader that knows from elsewhere what kind of name it expects
 * ("Kigali is so clean", "Farfetch is chaotic but fun"). recognizeMentions leaves the sentence-initial ones out
 * unless the document or the gazetteer knows them.
 */
export function capitalizedSpansOf(text: string): { name: string; start: number; end: number }[] {
  const spans: { name: string; start: number; end: number }[] = []
  let current: WordToken[] = []
  const flush = () => {
    const first = current[0]
    const last = current.at(-1)
    if (first && last)
      spans.push({ name: text.slice(first.start, last.end), start: first.start, end: last.end })
    current = []
  }
  for (const token of wordTokens(text)) {
    const previous = current.at(-1)
    const adjacent = previous !== undefined && /^\s+$/.test(text.slice(previous.end, token.start))
    // A model number continues a name ("Galaxy S21", "Saab 9-3") but never starts one.
    const continues = adjacent && /\d/.test(token.text)
    const nameLike = (isCapitalized(token.text) && !isNotName(token.text)) || continues
    if (nameLike && (adjacent || current.length === 0)) {
      current.push(token)
      continue
    }
    flush()
    if (isCapitalized(token.text) && !isNotName(token.text)) current.push(token)
  }
  flush()
  return spans.map((span) => ({ ...span, name: withoutPossessive(span.name) }))
}

/**
 * The entities of a statement: its mentions, and its dates — those of `context.dates` when given, otherwise the
 * ones the text states in full (an edited memory keeps the resolutions it was written with).
 */
export function recognizeEntities(text: string, context: RecognitionContext): RecognizedEntity[] {
  return entitiesOf(recognizeMentions(text, context), context.dates ?? explicitDatesIn(text))
}

const labelFillers = split(
  "a|an|the|some|his|her|their|its|my|your|our|really|just|also|so|very|finally|recently|actually|even|still|often|always|never|already|totally|definitely|'s|s",
)
const auxiliaries = split(
  'is|was|were|are|am|has|have|had|will|would|did|does|do|been|be|being|can|could|should|may|might|must',
)
const particles = split(
  'to|at|in|on|with|for|from|into|onto|about|by|of|up|out|over|back|off|through|after|near|around|as',
)
const conjunctions = split('and|or|but|nor|with|plus|while|because|as|than')
const baseVerbs = split(
  'go|visit|meet|see|love|like|hate|join|work|live|move|marry|date|call|help|support|play|watch|read|write|paint|adopt|start|open|run|lead|manage|teach|coach|attend|leave|sign|know|miss|need|want|prefer|enjoy|make|take|bring|buy|sell|build|study|learn|travel|fly|drive|stay|return|invite|host|organize|tell|ask|thank|follow|hire|fire|own|found|create|design',
)

/** "loves" → love, "watches" → watch, "studies" → study: the base forms a third-person form may come from. */
const baseFormsOf = (word: string) => [word.slice(0, -1), word.slice(0, -2), `${word.slice(0, -3)}y`]

function isVerbLike(word: string): boolean {
  return (
    baseVerbs.has(word) ||
    irregularPastVerbs.has(word) ||
    /^[a-z]{2,}ed$/.test(word) ||
    /^[a-z]{3,}ing$/.test(word) ||
    (word.endsWith('s') && baseFormsOf(word).some((base) => baseVerbs.has(base)))
  )
}

/**
 * A snake_case relation label from the words between two mentions ("moved to" → moved_to, "is from" → is_from,
 * "signed with the" → signed_with), or null when those words are no short verb phrase.
 */
export function relationLabel(between: string): string | null {
  if (/[.!?;:()]/.test(between) || between.includes(',')) return null
  const words = (
    between
      .toLowerCase()
      .replace(/’/g, "'")
      .match(/[a-z']+/g) ?? []
  )
    .map((word) => word.replace(/'s$/, ''))
    .filter((word) => word !== '' && !labelFillers.has(word))
  if (words.length === 0 || words.length > 4) return null
  if (conjunctions.has(words[0] ?? '')) return null
  let headIndex = 0
  while (headIndex < words.length - 1 && auxiliaries.has(words[headIndex] ?? '')) headIndex++
  const head = words[headIndex] ?? ''
  const auxiliary = words[headIndex - 1]
  // An uninflected verb needs an auxiliary before it: alone, "support" in "support group" is a noun.
  const isVerbHead = baseVerbs.has(head) ? auxiliary !== undefined : isVerbLike(head)
  let phrase: string[]
  if (isVerbHead) phrase = words.slice(headIndex)
  // "is from", "was at": the auxiliary is the verb.
  else if (auxiliary !== undefined && particles.has(head)) phrase = [auxiliary, ...words.slice(headIndex)]
  else return null
  // Verb and the particles right after it; an object in between ("joined a mentorship program for") is no label.
  const particlesAfterVerb = phrase.slice(1).findIndex((word) => !particles.has(word))
  if (particlesAfterVerb >= 0) phrase = phrase.slice(0, particlesAfterVerb + 1)
  const label = phrase.join('_').replace(/[^a-z0-9_]/g, '')
  return /^[a-z][a-z0-9_]*$/.test(label) ? label.slice(0, 64) : null
}

/**
 * Relations between the entities of one statement (long-range mode): each mention to the next, labelled by the
 * verb phrase between them or `related_to`, and the speaker to every other entity when a sentence opens with the
 * speaker as its subject. Dates are left out: the statement's `occurredOn` carries them.
 */
export function recognizeRelations(
  text: string,
  mentions: readonly EntityMention[],
  entities: readonly RecognizedEntity[],
  speaker: string | null,
): RecognizedRelation[] {
  const nameByKey = new Map(
    entities.filter((entity) => entity.type !== 'date').map((e) => [entityKey(e.name), e.name]),
  )
  const named = mentions
    .map((mention) => ({ ...mention, entityName: nameByKey.get(entityKey(mention.name)) }))
    .filter((mention): mention is EntityMention & { entityName: string } => mention.entityName !== undefined)
  const relations = new Map<string, RecognizedRelation>()
  const add = (from: string, to: string, type: string) => {
    if (entityKey(from) === entityKey(to)) return
    const pair = `${from}\u0000${to}`
    const existing = relations.get(pair)
    if (!existing || (existing.type === 'related_to' && type !== 'related_to'))
      relations.set(pair, { from, to, type })
  }
  const seenKeys = new Set<string>()
  named.forEach((mention, index) => {
    seenKeys.add(entityKey(mention.name))
    const next = named[index + 1]
    // A repeated mention ("… in Lisbon and Priya will send …") is linked already from its first occurrence.
    if (!next || seenKeys.has(entityKey(next.name))) return
    add(
      mention.entityName,
      next.entityName,
      relationLabel(text.slice(mention.end, next.start)) ?? 'related_to',
    )
  })
  if (speaker) {
    const speakerKey = entityKey(speaker)
    const subjectMention = named.find(
      (mention) =>
        entityKey(mention.name) === speakerKey &&
        (mention.start === 0 || /[.!?]\s+$/.test(text.slice(0, mention.start))),
    )
    if (subjectMention) {
      for (const mention of named) {
        if (entityKey(mention.name) === speakerKey) continue
        const between =
          mention.start > subjectMention.end ? text.slice(subjectMention.end, mention.start) : ''
        add(subjectMention.entityName, mention.entityName, relationLabel(between) ?? 'related_to')
      }
    }
  }
  return [...relations.values()]
}
