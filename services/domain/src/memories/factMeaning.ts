/**
 * Which changing fact a statement states, read by meaning rather than by phrasing. The phrase rules of factSlots.ts
 * find "Caroline moved to Porto"; people also say "we packed up the whole house and we're in Austin for good now",
 * "just signed the lease on a place in Glasgow", "I left Google and I've been at Stripe for a month now". Three
 * signals decide here, none of them a sentence pattern:
 *
 * - the attribute: words that belong to it (a lease, a commute, an employer, a puppy, keto) or, from the embedder,
 *   the statement's similarity to descriptions of each attribute (factPrototypes.ts);
 * - the value: a word of the right kind in the statement — a place for a residence, a named organisation for an
 *   employer, a car make, a diet, a pet — and not one the statement says was left ("I left Google");
 * - the subject: the speaker, when the statement is about them and not about their sister or a friend.
 *
 * A statement that negates, plans, wishes or asks states no current fact. A missed fact costs a superseded memory
 * that still looks current; a wrong one hides a true memory from default search, which is worse: each signal must
 * agree, and the phrase rules still come first.
 */
import { entityKey } from '../extraction/entityNames.js'
import {
  capitalizedSpansOf,
  isKnownEmployer,
  isKnownPlace,
  recognizeMentions,
  toldOfAfterName,
  type EntityMention,
} from '../extraction/entityRecognition.js'
import { isAssistantSpeaker } from '../extraction/assistantTurns.js'
import { factSlotOf, normalizedFactValue, type FactSlot } from './factSlots.js'
import { knownCarModels, knownPhoneModels } from './knownModels.js'
import { knownOccupations } from './knownOccupations.js'

/** Attributes read by meaning; `favorite:<thing>` comes from the phrase rules only. */
export const meaningAttributes = [
  'residence',
  'employer',
  'occupation',
  'relationship',
  'partner',
  'pet',
  'school',
  'car',
  'diet',
  'phone',
  'sport',
] as const
export type MeaningAttribute = (typeof meaningAttributes)[number]

export const isMeaningAttribute = (name: string): name is MeaningAttribute =>
  (meaningAttributes as readonly string[]).includes(name)

/** How close a statement reads to each attribute's descriptions (cosine, from the embedder); absent without one. */
export type AttributeSimilarities = Partial<Record<MeaningAttribute | 'not', number>>

/** Similarity above which the embedder alone names the attribute (cues then are not needed). */
/** Probability at which the classifier is sure of the attribute: a name of the right kind is then value enough. */
export const attributeCertainty = 0.6

interface StatementView {
  text: string
  lower: string
  speaker: string
  mentions: EntityMention[]
}

/** An example statement's vector and the attribute it states (or `not`). */
export interface LabelledVector {
  label: MeaningAttribute | 'not'
  vector: readonly number[]
}

/**
 * How much the reading of a value may take for granted: `no` — the words around a name must show its role ("at
 * Stripe", "moved to Porto"); `sure` — the attribute is known (the classifier is sure, or the clause tells news), so a
 * recognized name of the right kind is enough; `version` — an older statement is read as a version of an attribute
 * stated since, so even a capitalized word opening a sentence may be the name ("Infosys bench period is so boring");
 * `evident` — an older statement the reader does not find about the attribute: only a name whose role the words
 * around it show ("the hotfix at CD Projekt", "the trams in Valparaíso").
 */
export type Lenience = 'no' | 'sure' | 'version' | 'evident'

/** Whether the reading may take a name of the right kind for the value without words showing its role. */
const presumesTopic = (lenient: Lenience) => lenient === 'sure' || lenient === 'version'

/** A value and where the clause states it. */
interface Found {
  value: string
  at: number
}

interface AttributeReading {
  attribute: MeaningAttribute
  /** Words that make the attribute likely, without which the embedder must find the clause close to it. */
  cues: RegExp
  /**
   * The value the clause states. `lenient` when the attribute is already known to be the clause's topic (the
   * embedder is sure, or an older version is read): then a name of the right kind is enough, without the words
   * around it that would otherwise show its role.
   */
  value: (statement: StatementView, lenient: Lenience) => Found | null
  /** Another person the clause names is part of this fact (a partner), not a sign of someone else's news. */
  involvesOthers?: boolean
  /** For attributes whose values are kinds of thing (a car make, a diet), naming one is cue enough. */
  namesItsKind?: (statement: StatementView) => boolean
}

/** Text to match literally inside a pattern (a speaker's name). */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const words = (list: string) => list.trim().split(/\s*\|\s*/)
const alternation = (list: string) =>
  words(list)
    .map((word) => word.replace(/[.*+?^${}()[\]\\]/g, '\\$&').replace(/ /g, '\\s+'))
    .join('|')

const carMakes = words(
  'toyota | honda | ford | tesla | bmw | audi | mercedes | mercedes-benz | volkswagen | vw | volvo | kia | hyundai | nissan | mazda | subaru | fiat | peugeot | renault | skoda | škoda | seat | cupra | jeep | chevy | chevrolet | porsche | mini | lexus | jaguar | land rover | range rover | polestar | byd | rivian | lucid | citroen | citroën | dacia | suzuki | mitsubishi | opel | vauxhall | alfa romeo | dodge | ram | gmc | cadillac | buick | lincoln | genesis | tata | mahindra | maruti | proton | lada | saab | smart | ferrari | lamborghini | maserati | bentley | rolls-royce | aston martin | mclaren | infiniti | acura | chrysler | nio | xpeng | geely | mg',
)
const phoneMakes = words(
  'iphone | pixel | galaxy | samsung | oneplus | xiaomi | redmi | huawei | honor | nokia | motorola | moto | fairphone | oppo | vivo | realme | sony xperia | xperia | nothing phone | blackberry',
)
const diets = words(
  'vegan | vegetarian | veggie | pescatarian | pescetarian | keto | ketogenic | paleo | carnivore | plant-based | plant based | gluten-free | gluten free | dairy-free | dairy free | lactose-free | flexitarian | halal | kosher | low-carb | low carb | whole30 | raw vegan | omnivore | intermittent fasting | mediterranean diet',
)
const petKinds = words(
  'dog | puppy | pup | cat | kitten | kitty | rabbit | bunny | hamster | guinea pig | parrot | budgie | cockatiel | bird | fish | goldfish | turtle | tortoise | snake | lizard | gecko | iguana | ferret | horse | pony | chinchilla | rat | mouse | hedgehog | axolotl | labrador | lab | retriever | golden retriever | poodle | beagle | corgi | husky | dachshund | terrier | spaniel | bulldog | shepherd | greyhound | collie | pug | chihuahua | schnauzer | rescue dog | rescue cat | tabby | siamese | maine coon | canary | parakeet | macaw | cockatoo | lovebird | finch | betta | koi | guppy | tarantula | frog | chameleon | bearded dragon | cockapoo | labradoodle | goldendoodle | shih tzu | yorkie | pomeranian | border collie | jack russell | staffie | rottweiler | doberman | german shepherd | whippet | lurcher | shiba | samoyed | ragdoll | sphynx | british shorthair | mutt | stray',
)
const sports = words(
  'running | jogging | cycling | biking | mountain biking | climbing | bouldering | swimming | tennis | padel | pickleball | yoga | pilates | crossfit | football | soccer | basketball | volleyball | rugby | boxing | kickboxing | judo | karate | taekwondo | jiu-jitsu | jiu jitsu | bjj | muay thai | mma | fencing | rowing | kayaking | golf | skiing | snowboarding | surfing | skateboarding | skating | ice skating | hiking | trail running | triathlon | marathons | badminton | squash | table tennis | ping pong | cricket | baseball | softball | hockey | ice hockey | netball | handball | weightlifting | powerlifting | lifting | spinning | dance | dancing | salsa | ballet | archery | sailing | diving | scuba diving | horse riding | equestrian | ultimate frisbee | frisbee | darts',
)
const occupations = words(
  'engineer | developer | gp | general practitioner | owner | restaurant owner | shop owner | business owner | programmer | designer | agent | associate | controller | nurse | teacher | professor | lecturer | manager | analyst | consultant | chef | cook | barista | bartender | waiter | waitress | lawyer | attorney | solicitor | paralegal | doctor | physician | surgeon | dentist | pharmacist | vet | veterinarian | accountant | writer | author | editor | journalist | reporter | photographer | videographer | scientist | researcher | architect | pilot | driver | electrician | plumber | carpenter | mechanic | technician | therapist | counselor | counsellor | psychologist | social worker | paramedic | firefighter | police officer | officer | soldier | librarian | translator | interpreter | artist | illustrator | animator | musician | producer | director | actor | actress | marketer | recruiter | salesperson | sales rep | cashier | clerk | receptionist | assistant | secretary | administrator | coordinator | specialist | officer | executive | founder | co-founder | ceo | cto | cfo | intern | tutor | coach | trainer | instructor | lifeguard | farmer | gardener | florist | baker | butcher | tailor | hairdresser | barber | stylist | cleaner | caregiver | carer | nanny | midwife | data scientist | product manager | project manager | freelancer | contractor | entrepreneur | student | phd student | postdoc | banker | broker | economist | strategist | planner | ux designer | ui designer | devops engineer | sre | qa engineer | tester',
)

const placeCues =
  /\b(?:live|lives|living|lived|moved|moving|relocat\w*|settl\w*|based|home|house|flat|apartment|condo|place|lease|rent(?:ing|ed)?|landlord|neighbou?rhood|neighbou?rs|commute|unpack\w*|packed up|new city|hometown|here in|out here|we're in|they're in|is in|got here|arrived|been in|now in|(?:days|weeks|months|years) in|landed|for good|since we moved|getting used to)\b/i
const employerCues =
  /\b(?:work(?:s|ing|ed)?|job|jobs|employer|company|firm|office|offer|hired|joined|joining|started (?:at|with)|onboarding|team|boss|manager|colleagues?|cowork\w*|salary|pays|contract|position|role|gig|quit|left|resigned|laid off|switched|new place|first (?:day|week|month)|(?:days|weeks|months) in|(?:days|weeks|months|years) at|shift|on-call|standup|stand-up|badge|campus|canteen|relocation)\b/i
const occupationCues =
  /\b(?:job|work(?:s|ing)? as|role|position|title|promoted|promotion|career|became|become|retrain\w*|qualified|certified|licensed|profession|as an?|now an?|(?:officially|finally) an?|(?:is|are|am|being)\s+(?:now\s+|officially\s+|finally\s+)?an?)\b|['’](?:re|m)\s+(?:now\s+|officially\s+|finally\s+)?an?\b/i
const relationshipCues =
  /\b(?:married|marry|marrying|wedding|engaged|engagement|proposed|fianc[ée]e?|divorc\w*|separat\w*|single|broke up|break-?up|split up|dating|date|boyfriend|girlfriend|husband|wife|partner|spouse|relationship|seeing someone|together)\b/i
const partnerCues =
  /\b(?:boyfriend|girlfriend|husband|wife|partner|fianc[ée]e?|spouse|bf|gf|dating|married|seeing)\b/i
const schoolCues =
  /\b(?:stud(?:y|ies|ying|ied)|student|enrol(?:l|led|ling)?|university|uni|college|school|academy|institute|polytechnic|course|degree|masters?|master's|bachelor'?s|phd|doctorate|mba|semester|term|classes|lectures|campus|transferred|admitted|accepted|graduate)\b/i
const carCues =
  /\b(?:car|drive|drives|driving|drove|bought|traded|trade-in|lease|leasing|ev|suv|hatchback|sedan|pickup|truck)\b/i
const petCues = /\b(?:pet|adopt\w*|rescue\w*|got|have|has|our|new|named|called|walk(?:s|ing)?|vet)\b/i
const dietCues =
  /\b(?:diet|eat|eats|eating|ate|food|meat|meals?|went|gone|going|switched|started|became|plant|fish|dairy|carbs?|fasting)\b/i
const phoneCues = /\b(?:phone|switched|upgraded|bought|got|new|using|use|android|ios)\b/i
const sportCues =
  /\b(?:taken over (?:\p{L}+['’]s |my |their |his |her )?life|train(?:ing|s)?|play(?:s|ing)?|took up|taken up|into|got into|club|team|league|session|sessions|classes|every (?:week|morning|day)|gym|practice|races?|match(?:es)?|competition)\b/iu

/** The value may not be something the statement says was left, past or visited. */
const leftBefore =
  /\b(?:left|leaving|leave|quit|quitting|resigned from|from|former|formerly|ex-|(?<!\b(?:getting|get|got|gotten)\s)used to|back from|visit(?:ing|ed)?|trip to|holiday in|vacation in|weekend in|instead of|rather than|not|no longer|than|over|overtaken|dethroned|replaced|replacing|sold|selling|gave up|ditched|goodbye to|bye to|rip|miss|lost|lost (?:my|their|his|her) job as|fired from|laid off from|out of|fellow)\s+(?:my\s+|our\s+|the\s+|their\s+|\p{Lu}\p{L}+['’]s\s+)?(?:job\s+at\s+|(?!(?:and|but|or|so|now|then|yet)\s)\w+\s+)?$/iu

/** Words after a name that make it a workplace rather than a place to live. */
const workplaceAfter =
  /^(?:['’]s)?\s+(?:office|offices|campus|hq|headquarters|canteen|cafeteria|team|teams|colleagues|people|bench|onboarding|relocation|badge|intranet|stand-?up|all-hands|sprint|launch|campaign|shift|shifts|contract|job|role|offer|salary|internship|graduate scheme|pays|is (?:paying|sending|moving)|has (?:the best|way better) canteen|moves so fast)\b/i
/** Words after a place that tell where a job is: "the UK role", "a Vancouver job", "the Toronto office". */
const whereAJobIs =
  /^(?:['’]s)?\s+(?:job|jobs|role|roles|offer|offers|position|positions|salary|contract|internship|office|offices|team|based)\b/i
/** Words after a name that make it a place: its weather, transport, streets, prices, people. */
const placeAfter =
  /^(?:['’]s)?\s+(?:heat|weather|fog|smog|wind|winters?|summers?|rain|humidity|traffic|metro|subway|trams?|buses|rent|prices|housing|life|is (?:so |soo? )?(?:clean|quiet|hot|cold|cheap|expensive|loud|beautiful|lovely|grey|gray|rainy|windy|humid)|has been home)\b/i

/**
 * What someone who lives in a place says of it, and a visitor rarely does: its rent, its winters, its trams, how
 * clean or quiet it is now ("Kigali is so clean", "Lisbon rent is insane"). A city's beauty is a visitor's word too.
 */
const dailyLifeAfter =
  /^(?:['’]s)?\s+(?:heat|weather|fog|smog|winters?|summers?|humidity|traffic|metro|subway|trams?|buses|rent|prices|housing|life|is (?:so |soo? |really |very )?(?:clean|quiet|hot|cold|cheap|expensive|loud|grey|gray|rainy|windy|humid)|has been home)\b/i

/** A place the gazetteer knows, told of as a place of everyday life (dailyLifeAfter). */
function namesPlaceOfDailyLife(statement: StatementView): boolean {
  return statement.mentions.some(
    (mention) =>
      mention.type === 'location' &&
      isKnownPlace(mention.name) &&
      dailyLifeAfter.test(statement.text.slice(mention.end, mention.end + 40)),
  )
}

/** A model name or number after a make: "Model 3", "V70", "9-3", "S23 Ultra" (capitalized or with a digit). */
const modelName = /^(?:[ -](?:[A-Z0-9][\p{L}\d+-]*|[a-z]?\d[\p{L}\d+-]*))*/u

/** A model named by its number once the kind of thing is known: "upgraded to the 14 pro", "switched to a S23". */
function upgradedModel(statement: StatementView): Found | null {
  const match =
    /\b(?:upgraded|switched|moved) to (?:the |a |an )?(?:new )?(?<model>(?:\p{Lu}[\p{L}]*\s)?\p{L}?\d+[a-z]?(?:\s(?:pro|max|ultra|plus|mini|fe|lite|\p{Lu}\p{L}*))*)/iu.exec(
      statement.text,
    )
  const model = match?.groups?.model
  return match && model ? { value: model, at: match.index + match[0].length - model.length } : null
}

const carModels = knownCarModels.split('|')
const phoneModels = knownPhoneModels.split('|')

/** Models of a make, any case, longest first: "fiat egea", "skoda enyaq iv". */
const modelAfterMake = new Map<readonly string[], RegExp>([
  [carMakes, new RegExp(`^\\s+(?:${alternation(lengthiestFirst(carModels).join(' | '))})\\b`, 'i')],
  [phoneMakes, new RegExp(`^\\s+(?:${alternation(lengthiestFirst(phoneModels).join(' | '))})\\b`, 'i')],
])

function lengthiestFirst(list: readonly string[]): string[] {
  return [...list].sort((a, b) => b.length - a.length)
}

/** One compiled pattern per lexicon and plural option: the model lists are long. */
const lexiconPatterns = new WeakMap<readonly string[], Map<boolean, RegExp>>()
function lexiconPattern(lexicon: readonly string[], plural: boolean): RegExp {
  const ofLexicon = lexiconPatterns.get(lexicon) ?? new Map<boolean, RegExp>()
  lexiconPatterns.set(lexicon, ofLexicon)
  let pattern = ofLexicon.get(plural)
  if (!pattern) {
    pattern = new RegExp(
      `\\b(?:${alternation(lengthiestFirst(lexicon).join(' | '))})${plural ? '(?:e?s)?' : ''}(?![\\p{L}\\d])`,
      'giu',
    )
    ofLexicon.set(plural, pattern)
  }
  return pattern
}

/** Every lexicon value the statement names and does not say was left, in order; `plural` takes "two rabbits" too. */
function lexiconValues(
  statement: StatementView,
  lexicon: readonly string[],
  options: { withModel?: boolean; plural?: boolean } = {},
): Found[] {
  const found: Found[] = []
  for (const match of statement.text.matchAll(lexiconPattern(lexicon, options.plural ?? false))) {
    if (leftBefore.test(statement.text.slice(Math.max(0, match.index - 40), match.index))) continue
    const rest = statement.text.slice(match.index + match[0].length)
    // A known model after the make, in any case ("fiat egea"), else one written as a model is ("Model 3", "S23").
    const model = options.withModel
      ? (modelAfterMake.get(lexicon)?.exec(rest)?.[0] ?? modelName.exec(rest)?.[0] ?? '')
      : ''
    found.push({ value: `${match[0]}${model}`.trim(), at: match.index })
  }
  return found
}

/** Words before a model named without its make that make it one's own: "picked up my Duster", "the Enyaq has". */
const ownedModelBefore =
  /(?:^|\b(?:my|our|their|his|her|the|a|an|new|used|bought|picked up|got|drive|drives|driving|sold|traded in|[\p{L}-]+['’]s))\s+(?:\w+\s+){0,2}$/iu
const ownedModelAfter = /^\s+(?:is|has|was|had|just|broke|needs|keeps|won['’]t|wont)\b/i

/** A model named without its make ("my Duster", "the crease on my z flip 3") as the speaker's own. */
function ownedModel(statement: StatementView, models: readonly string[]): Found | null {
  return ownedLexiconValue(statement, models, ownedModelBefore, ownedModelAfter)
}

/**
 * The make with its model ("fiat egea"), or a model named alone; a model's name that holds the make ("pixel fold")
 * whole.
 */
function makeOrModel(
  statement: StatementView,
  makes: readonly string[],
  models: readonly string[],
): Found | null {
  const byMake = lexiconValue(statement, makes, true)
  const byModel = ownedModel(statement, models)
  if (byMake && byModel?.at === byMake.at)
    return byModel.value.length > byMake.value.length ? byModel : byMake
  return byMake ?? byModel
}

/** A model named without its make, written as a name or with a digit ("the Enyaq", "my z flip 3"). */
function writtenModel(statement: StatementView, models: readonly string[]): boolean {
  const found = ownedModel(statement, models)
  return found !== null && (/^\p{Lu}/u.test(found.value) || /\d/.test(found.value))
}

/** The last lexicon value the statement names: news comes after its context. */
function lexiconValue(statement: StatementView, lexicon: readonly string[], withModel = false): Found | null {
  return lexiconValues(statement, lexicon, { withModel }).at(-1) ?? null
}

/** A make written as a name ("Honda", "VW Gol", "galaxy s21"): lower-case "mini" or "seat" are no cars. */
function capitalizedLexiconValue(statement: StatementView, lexicon: readonly string[]): boolean {
  const found = lexiconValue(statement, lexicon, true)
  return found !== null && (/^\p{Lu}/u.test(found.value) || /\d/.test(found.value))
}

/** A lexicon value with words before or after it that make it the speaker's own (a diet they follow, a pet they have). */
function ownedLexiconValue(
  statement: StatementView,
  lexicon: readonly string[],
  roleBefore: RegExp,
  roleAfter: RegExp,
  plural = false,
  /** Words after the value that make it a kind of thing, not the speaker's: "dairy-free options", "vegan ice cream". */
  thingAfter?: RegExp,
): Found | null {
  const owned = lexiconValues(statement, lexicon, { plural }).filter((found) => {
    const beforeText = statement.text.slice(Math.max(0, found.at - 30), found.at)
    const afterText = statement.text.slice(found.at + found.value.length, found.at + found.value.length + 30)
    if (thingAfter?.test(afterText)) return false
    return roleBefore.test(beforeText) || roleAfter.test(afterText)
  })
  return owned.at(-1) ?? null
}

const dietBefore =
  /\b(?:is|am|are|'m|'re|went|gone|going|became|been|stay(?:s|ed|ing)?|turned|now|fully|strict(?:ly)?|eat(?:s|ing)?|follow(?:s|ed|ing)?|on (?:a|the)|of|into|switched to|back to|quit)\s+(?:\w+\s+){0,3}$/i
// "vegan for 3 years", "for a while", not what a food is for: "dairy-free for people who can't have lactose".
const dietAfter =
  /^\s*(?:now|for (?:(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|many|a few|a couple of|almost|nearly|over|about)\s+\w+|years|months|weeks|ages|life|good)|since|diet|life|lifestyle|again|these days|going|journey|day)\b/i
const dietThingAfter =
  /^\s*(?:options?|food|foods|recipes?|ice cream|cakes?|bread|dish|dishes|meals?|snacks?|desserts?|treats?|products?|alternatives?|substitutes?|swaps?|margarine|butter|milk|cheese|cookies|brownies|burgers?|restaurants?|cafes?|places?|spots?|menus?|versions?|cookbooks?|baking|cooking|sweets?|frosting|icing|chocolate|pizza|pasta)\b/i
const petBefore =
  /\b(?:got|get|adopted|have|has|had|rescued|bought|brought home|our|their|new|\p{Lu}\p{L}+['’]s)\s+(?:\w+\s+){0,3}$/iu
const petAfter =
  /^\s*(?:,\s*)?(?:named|called|is|has|who|keeps|refuses|hates|loves|chewed|ate|\p{Lu}\p{L}+)\b/u
const sportBefore =
  /\b(?:play(?:s|ed|ing)?|do(?:es|ing)?|took up|taken up|started|into|love|loves|go(?:es|ing)?|went|all|doing|(?:swapped|traded|switched) (?:\w+\s+){1,2}for|obsessed with|hooked on|addicted to)\s+(?:\w+\s+)?$/i
const sportAfter =
  /^\s*(?:training|practice|session|sessions|class(?:es)?|match(?:es)?|league|club|team|every|now|is (?:my|their)|has (?:completely )?taken over|season|game|games)\b/i

const ordinaryOpeningWord =
  /(?:ing|ed|ly|['’](?:ve|re|ll|d|s|t|m))$|^(?:this|that|these|those|there|here|then|also|always|never|however|additionally|finally|overall|lastly|introduction|conclusion|objective|just|still|even|only|maybe|some|every|each|any|many|much|most|more|other|such|what|when|where|which|who|why|how|being|having|getting|going|thanks|sorry|wow|yes|yeah|no|ok|okay|well|so|but|and|or|if|though|although|because|since|after|before|while|until|unless|whether|it|its|they|them|their|we|our|you|your|he|she|his|her|my|me|i)$/i

/** Words that name a part of a workplace, not the workplace: "Back office", "Sales team", "Head office". */
const departmentWord =
  /^(?:back|front|head|main|home|box|post|branch|regional|sales|marketing|design|support|dev|engineering|product|data|legal|finance|hr|it|ops|security|whole|entire|night|day|late|early|weekend)$/i

/**
 * A name that ends in what it is, and that is a venue, an event or an idea rather than a home, a workplace or a school:
 * "The Seaside Grill", "Montserrat Botanical Gardens", "the Writers’ Meetup", "the Triangle Sum Theorem".
 */
const venueEventOrIdeaName =
  /\b(?:festival|conference|summit|meetup|meet-up|workshop|workshops|awards?|expo|masterclass|webinar|gardens?|grill|caf[eé]|bistro|diner|pub|restaurant|hotel|library|museum|park|beach|lagoon|street|avenue|road|boulevard|plaza|square|theorem|criteri(?:on|a)|principle|method|framework|style|guide|guidelines)$/iu

/** Words after a name that make it an event, a rule or a style: "the University of Montserrat seminar", "MLA style". */
const eventOrIdeaAfter =
  /^(?:['’]s?)?\s+(?:[\p{L}-]+\s+)?(?:event|events|concert|festival|conference|convention|expo|tournament|marathon|seminar|meetup|meet-up|workshop|summit|awards?|webinar|masterclass|theorem|criteria|criterion|formula|style|guidelines|parser|call|calls|meeting|meetings)\b/iu

/** A publication is no workplace, home or school to the reader: "submitting to the Journal of Media Studies". */
const publicationName = /\b(?:journal|magazine|gazette|podcast|newsletter)\b/i

/** A version, a number or a release after a name: "Sprint 2", "Bootstrap 5.3.0", "Python 3.11" name no workplace. */
const versionAfter = /^\s*(?:v(?:ersion)?\s*)?\d/i

/** Words before a name that make it a tool or a project in use: "working on Sprint 2", "using Jobscan", "like Hulu". */
const toolOrProjectBefore =
  /\b(?:working on|work on|works on|using|use|uses|used|via|like|e\.g\.,?|such as|tool|tools|app|apps|platform|library)\s+(?:a\s+|an\s+|the\s+|their\s+|my\s+|our\s+)?(?:\p{Lu}[\p{L}'’]*(?:,\s*|\s+(?:and|or)\s+))?$/iu

interface Candidate {
  name: string
  at: number
  kind: EntityMention['type'] | 'unknown'
}

/**
 * The names a clause could give as a value: recognized mentions with their type, capitalized runs the recognizer
 * left out at a sentence start (kind unknown), and places the gazetteer knows written in lower case. None that the
 * statement says was left, visited or replaced, and never the speaker.
 */
function nameCandidates(statement: StatementView, lenient: Lenience): Candidate[] {
  const speakerKey = entityKey(statement.speaker)
  const byStart = new Map<number, Candidate>()
  for (const mention of statement.mentions)
    byStart.set(mention.start, { name: mention.name, at: mention.start, kind: mention.type })
  // A capitalized word opening a sentence is a name only to a reader that already knows the topic ("Infosys bench
  // period is so boring" once an employer is stated), or with a workplace's words after it ("Novo Nordisk has the
  // best canteen"): otherwise "Young people's resilience" would be one.
  for (const span of capitalizedSpansOf(statement.text)) {
    if (
      lenient !== 'version' &&
      (!workplaceAfter.test(statement.text.slice(span.end, span.end + 40)) || departmentWord.test(span.name))
    )
      continue
    // An ordinary word capitalized because it opens the sentence: "Exploring new places…", "They've been there…".
    if (!span.name.includes(' ') && ordinaryOpeningWord.test(span.name)) continue
    if (!byStart.has(span.start))
      byStart.set(span.start, {
        name: span.name,
        at: span.start,
        kind: isKnownPlace(span.name) ? 'location' : 'unknown',
      })
  }
  for (const match of statement.text.matchAll(/\b\p{Ll}[\p{L}-]+(?: \p{Ll}[\p{L}-]+)?\b/gu)) {
    const words = match[0].split(' ')
    for (const name of [match[0], words[0] ?? '']) {
      if (name.length > 3 && isKnownPlace(name) && !byStart.has(match.index)) {
        byStart.set(match.index, { name, at: match.index, kind: 'location' })
        break
      }
    }
  }
  return [...byStart.values()]
    .filter(
      (candidate) =>
        candidate.kind !== 'date' &&
        !venueEventOrIdeaName.test(candidate.name) &&
        !publicationName.test(candidate.name) &&
        !departmentWord.test(candidate.name) &&
        !eventOrIdeaAfter.test(statement.text.slice(candidate.at + candidate.name.length)) &&
        // A title in quotes: "Representation of Women in Film".
        !/["“]$/.test(statement.text.slice(0, candidate.at)) &&
        !versionAfter.test(statement.text.slice(candidate.at + candidate.name.length)) &&
        // "Objective 2: Increase team productivity": a label's value opens like a sentence.
        !(candidate.kind === 'unknown' && /:\s*$/.test(statement.text.slice(0, candidate.at))) &&
        entityKey(candidate.name) !== speakerKey &&
        !leftBefore.test(statement.text.slice(Math.max(0, candidate.at - 40), candidate.at)),
    )
    .sort((a, b) => a.at - b.at)
}

const after = (statement: StatementView, candidate: Candidate) =>
  statement.text.slice(candidate.at + candidate.name.length, candidate.at + candidate.name.length + 40)
const before = (statement: StatementView, candidate: Candidate, width = 14) =>
  statement.text.slice(Math.max(0, candidate.at - width), candidate.at)

/** The last of several candidates: news comes after its context ("I left Google and I'm at Stripe now"). */
function last(candidates: readonly Candidate[]): Found | null {
  const chosen = candidates.at(-1)
  return chosen ? { value: chosen.name, at: chosen.at } : null
}

/** Going somewhere is no living there: "went to Sweden", "flew to Rome". */
const travelledTo =
  /\b(?:went|go|goes|going|flew|fly|drove|drive|headed|heading|travel(?:l?ed|l?ing)?|trip|road trip|got back|came back|back)\s+(?:back\s+)?(?:to|from)\s+(?:the\s+)?$/i

/** A clause about a stay that is over or a place seen: "John was in Chicago, it was awesome". */
const pastStay =
  /\b(?:was|were|went|visited|explored|trips?|tour(?:ed)?|vacation|holiday|stayed|travel(?:l?ed|l?ing|s)?|would|could|might|sounds?|next (?:week|month|year|summer)|soon|someday)\b/i
const settled = /\b(?:moved|relocat\w*|settl\w*|lives?|living|home|since|now)\b/i

/** Words that show a place is lived in: "in" or "here in" before it, its daily life after it. */
const livedIn = (statement: StatementView, candidate: Candidate) =>
  /\b(?:in|to|into|here in)\s+$/i.test(before(statement, candidate)) ||
  placeAfter.test(after(statement, candidate))

/** Where a workplace is, not the speaker: "remote, but the team is in Bogotá". */
const workplaceIn =
  /\b(?:team|office|offices|hq|headquarters|company|colleagues|boss|client|clients)\s+(?:is|are)\s+(?:based\s+|all\s+)?in\s+$/i

function residenceOf(statement: StatementView, lenient: Lenience): Found | null {
  if (pastStay.test(statement.text) && !settled.test(statement.text)) return null
  return last(
    nameCandidates(statement, lenient).filter(
      (candidate) =>
        !workplaceAfter.test(after(statement, candidate)) &&
        // "settling in at edinburgh uni": a school named after its city.
        !/^\s+(?:uni|university|college)\b/i.test(after(statement, candidate)) &&
        !travelledTo.test(before(statement, candidate, 30)) &&
        !workplaceIn.test(before(statement, candidate, 40)) &&
        // The recognizer types any name after "at" or "in" as a place; "settling in at Monzo" is a workplace.
        // A capitalized word opening a sentence is a place only with a place's words around it ("Accra heat").
        ((candidate.kind === 'location' &&
          isKnownPlace(candidate.name) &&
          (lenient !== 'evident' || livedIn(statement, candidate))) ||
          ((candidate.kind === 'unknown' || candidate.kind === 'location') &&
            // "At Rappi since march": a name after "at" the gazetteer does not know is a workplace or a venue.
            ((presumesTopic(lenient) &&
              candidate.kind === 'location' &&
              !/\bat\s+$/i.test(before(statement, candidate))) ||
              livedIn(statement, candidate)))),
    ),
  )
}

/**
 * Words after a name that make it a place visited or a show, not a workplace: "Apple store", "Nobu restaurant", "Pride
 * parade" (an event or a conference after it already made it no value: eventOrIdeaAfter).
 */
const visitedPlaceAfter =
  /^(?:['’]s)?\s+(?:[\p{L}-]+\s+)?(?:party|parade|pride|show|game|match|race|restaurant|bar|pub|cafe|café|club|museum|gallery|park|hotel|store|shop|mall|stadium|arena|theatre|theater|cinema)\b/iu

const supportedTeamAfter =
  /^\s+(?:are|is)\s+(?:(?:my|our|their|his|her|\p{Lu}\p{L}+['’]s)\s+)?(?:favou?rite\s+|home\s+)?(?:team|club|side)\b/u

function employerOf(statement: StatementView, lenient: Lenience): Found | null {
  const employers = nameCandidates(statement, lenient).filter((candidate) => {
    if (candidate.kind === 'person' || candidate.kind === 'event' || candidate.kind === 'date') return false
    // "a great time at the LGBT pride event", "dinner at the Nike store": an event or a venue, no employer.
    if (visitedPlaceAfter.test(after(statement, candidate))) return false
    if (toolOrProjectBefore.test(before(statement, candidate, 40))) return false
    // "volunteer work with Montserrat Youth Media": unpaid, and beside a job rather than instead of it.
    if (/\bvolunteer\w*\b/i.test(before(statement, candidate, 40))) return false
    // "The Wolves are John's team": a team one supports, no employer.
    if (supportedTeamAfter.test(after(statement, candidate))) return false
    const atWork = workplaceAfter.test(after(statement, candidate))
    // The recognizer types a name after "at" as a place; only the gazetteer's places are surely no employer, and
    // "the UK role", "a Vancouver job", "the Toronto office" say where a job is, not for whom.
    if (isKnownPlace(candidate.name)) return atWork && !whereAJobIs.test(after(statement, candidate))
    const worksThere =
      atWork ||
      /\b(?:at|for|with|joined|joining|join|by|to|@)\s+(?:the\s+)?$/i.test(before(statement, candidate))
    // A capitalized word opening a sentence is an employer only with a workplace's words around it.
    if (candidate.kind === 'unknown') return worksThere
    return lenient === 'version' || worksThere || (lenient !== 'evident' && candidate.kind === 'organization')
  })
  // A recognized organization before a word in capitals: "at Decathlon … on weekends FOR WORK".
  const organizations = employers.filter((candidate) => candidate.kind === 'organization')
  return last(organizations.length > 0 ? organizations : employers)
}

const schoolWords =
  /\b(?:university|college|school|academy|institute|polytechnic|politecnico|uni|conservatory|seminary|business school)\b/i

const enrolledBefore = /\b(?:at|to|into|enrolled|attending|attend)\s+(?:the\s+)?$/i
const schoolLifeAfter = /^\s+(?:campus|students?|semester|lectures?|degree|admissions?|acceptance)\b/i

function schoolOf(statement: StatementView, lenient: Lenience): Found | null {
  const named = nameCandidates(statement, lenient).filter((candidate) => {
    if (candidate.kind === 'person') return false
    // "a conference in the UK": a country or city is a school only by a school's word in its name; so is a company
    // ("EPAM is paying for my english classes").
    if (schoolWords.test(candidate.name)) return true
    if (isKnownPlace(candidate.name) || isKnownEmployer(candidate.name)) return false
    const enrolled = enrolledBefore.test(before(statement, candidate))
    // An acronym is a school where the words around it show one ("accepted at UCL", "UWI campus"), not in "CSS
    // selectors" or "an ATS optimization course", unless an older statement is read as a version of a known school.
    if (/^\p{Lu}{2,6}$/u.test(candidate.name))
      return lenient === 'version' || enrolled || schoolLifeAfter.test(after(statement, candidate))
    return (presumesTopic(lenient) && candidate.kind !== 'location') || enrolled
  })
  if (named.length > 0) return last(named)
  // "settling in at edinburgh uni": a place followed by a school word.
  const lower = /\b(?<name>\p{L}[\p{L}-]+)\s+(?:uni|university|college)\b/iu.exec(statement.text)
  return lower?.groups?.name && isKnownPlace(lower.groups.name) ? { value: lower[0], at: lower.index } : null
}

/** Words right before a name that make it a person whatever else it names: "seeing this guy Jordan", "my wife Georgia". */
const partnerJustBefore =
  /\b(?:seeing|dating|married to|engaged to|moved in with|(?:boyfriend|girlfriend|husband|wife|partner|fianc[ée]e?)(?: is)?)\s+(?:this (?:guy|girl|person)\s+|a (?:lovely )?(?:fella|guy|girl|woman|man) (?:called|named)\s+|(?:someone|somebody)(?: new)?(?: now)?\s*[-–—:,]\s*)?$/i

function partnerOf(statement: StatementView, lenient: Lenience): Found | null {
  const people = nameCandidates(statement, lenient).filter(
    (candidate) =>
      candidate.kind === 'person' ||
      (candidate.kind === 'unknown' && !candidate.name.includes(' ')) ||
      // A first name that is also a place ("Jordan", "Georgia", "Florence").
      (candidate.kind === 'location' && partnerJustBefore.test(before(statement, candidate, 40))),
  )
  const together = people.filter((person) => {
    const around = statement.text.slice(Math.max(0, person.at - 40), person.at + person.name.length + 40)
    return (
      partnerNoun.test(around) ||
      /\b(?:with|married)\s+$/i.test(before(statement, person, 40)) ||
      partnerJustBefore.test(before(statement, person, 40))
    )
  })
  // Read as a version, any name may be the partner; a capitalized word the recognizer left untyped only as the
  // subject of a verb or beside "and" ("Priya made dinner", "Priya and I"), not an adjective ("Unconditional love").
  const named = people.filter(
    (person) =>
      person.kind === 'person' ||
      /^(?:['’]s\b|\s+(?:and|&|is|are|was|were|has|have|had|will|can|could|would|does|did|made|took|got|said|came|went|bought|brought|found|gave|told|left|met|forgot|thought|taught|won|lost|wrote|drove|flew|knew|saw|ate|kept|felt|paid|sent|spent|sat|ran|\p{L}+ed|\p{L}+[^s\W]s)\b)/iu.test(
        after(statement, person),
      ),
  )
  return last(lenient === 'version' && together.length === 0 ? named : together)
}

const relationshipStatus: [RegExp, string][] = [
  [
    /\b(?:got |are |is |'re |'m |am |now |just |finally |officially )+divorced\b|\bdivorce (?:is|was) final\b/i,
    'divorced',
  ],
  [
    /\b(?:broke up|split up|split|separated|are done|is history|ended (?:it|things)|(?:is|am|'m|'re|are) single(?: again)?|single again)\b|^single\s*(?:and|,|at|in|for|since|life)\b/i,
    'single',
  ],
  [
    // "My girlfriend and I had an amazing wedding ceremony": the wedding, not the word before it, is the status.
    /\b(?:got |are |is |'re |'m |am |just |finally |been )+married\b|\btied the knot\b|\bgot hitched\b|\b(?:had|held|celebrated) (?:(?:an?|our|their|the) )?(?:(?:amazing|beautiful|lovely|small|big|tiny|intimate|emotional|perfect|wonderful|magical|simple|quiet|outdoor|and),? )*wedding\b/i,
    'married',
  ],
  [/\b(?:got |are |is |'re |'m |am |just |now |officially )+engaged\b|\bproposed\b/i, 'engaged'],
  [
    /\b(?:(?:are|is|'re|been|started|now|officially|properly) dating|seeing (?:someone|this|a (?:guy|girl|woman|man))|in a relationship)\b/i,
    'in a relationship',
  ],
]

/** "<speaker>'s husband" is a status too: the partner word possessed by the speaker (or "my"). */
function possessedPartnerStatus(statement: StatementView): Found | null {
  const owner = literally(statement.speaker)
  const match = new RegExp(
    `\\b(?:${owner}['’]s|our|their)\\s+(?:new\\s+)?(?<noun>husband|wife|spouse|fianc[ée]e?|boyfriend|girlfriend|partner)\\b`,
    'iu',
  ).exec(statement.text)
  if (!match?.groups?.noun) return null
  const noun = match.groups.noun.toLowerCase()
  const value = /husband|wife|spouse/.test(noun)
    ? 'married'
    : /fianc/.test(noun)
      ? 'engaged'
      : 'in a relationship'
  return { value, at: match.index }
}

function statusOf(statement: StatementView): Found | null {
  for (const [pattern, value] of relationshipStatus) {
    const match = pattern.exec(statement.text)
    if (match) return { value, at: match.index }
  }
  return possessedPartnerStatus(statement)
}

const partnerNoun = /\b(?:boyfriend|girlfriend|husband|wife|partner|fianc[ée]e?|spouse|bf|gf|other half)\b/i

// The known titles longest first, so a title is read whole ("real estate agent", not "agent").
const occupationNames = alternation(
  [...new Set([...occupations, ...knownOccupations.split('|')])]
    .sort((a, b) => b.length - a.length)
    .join(' | '),
)

/** A job title after the words that introduce one, with up to three words before it ("as a salaried GP"). */
const introducedTitle = new RegExp(
  `\\b(?:as|an?|now|promoted to|became|become|becoming)\\s+(?:(?:senior|junior|lead|head|chief|staff|principal|full-time|part-time|freelance|trainee|assistant|associate|registered|certified|qualified|salaried|(?!(?:of|in|at|for|to|with|the|and|or|from|about|like)\\s)[a-z]+-?[a-z]*)\\s+){0,3}(?:${occupationNames})\\b`,
  'gi',
)

/** A title opening a clause, followed by where it is held: "Financial controller at a logistics firm". */
const openingTitle = new RegExp(
  `^(?:(?!(?:the|a|an|my|our|their|his|her|to|at|with|for|in|and|but|so|met|saw|is|was|are|were)\\b)[\\p{L}-]+\\s+){0,2}(?:${occupationNames})(?=\\s+(?:at|with|for|in)\\b)`,
  'iu',
)

/** A title opening a clause as a way of life, chat's way to tell a job: "architect life: client wants…", "nurse life". */
const titleLife = new RegExp(`^(?:${occupationNames})(?=\\s+life\\b)`, 'iu')

/** A clause that opens with a title and where it is held, told as news: "Financial controller at a logistics firm now". */
function titleOpeningNews(statement: StatementView): Found | null {
  const match = openingTitle.exec(statement.text)
  return match && announcesNews.test(statement.text) ? { value: match[0], at: 0 } : null
}

const readings: AttributeReading[] = [
  {
    attribute: 'residence',
    cues: placeCues,
    value: residenceOf,
    namesItsKind: (statement) => namesPlaceOfDailyLife(statement),
  },
  { attribute: 'employer', cues: employerCues, value: employerOf },
  {
    attribute: 'occupation',
    cues: occupationCues,
    value: (statement) => {
      let found: Found | null = null
      // matchAll reads a copy of the pattern, so the shared global pattern keeps no state between calls.
      for (const match of statement.text.matchAll(introducedTitle)) {
        if (leftBefore.test(statement.text.slice(Math.max(0, match.index - 40), match.index))) continue
        const title = match[0]
          .replace(/^(?:as|an?|now|promoted to|became|become|becoming)\s+/i, '')
          .replace(/^an?\s+/i, '')
        // Two capitalized words end in a name, not a title: "a Harry Potter movie", "Karen Carpenter's songs".
        if (/\p{Lu}\p{L}*\s+\p{Lu}\p{L}*$/u.test(title)) continue
        found = { value: title, at: match.index + match[0].length - title.length }
      }
      if (found) return found
      const life = titleLife.exec(statement.text)
      return life ? { value: life[0], at: 0 } : titleOpeningNews(statement)
    },
    namesItsKind: (statement) => titleLife.test(statement.text),
  },
  { attribute: 'relationship', cues: relationshipCues, value: statusOf, involvesOthers: true },
  { attribute: 'partner', cues: partnerCues, value: partnerOf, involvesOthers: true },
  {
    attribute: 'pet',
    cues: petCues,
    value: (statement) => {
      // "The hamster passed away, so now we have two rabbits": the pets the speaker has now.
      const kind = ownedLexiconValue(statement, petKinds, petBefore, petAfter, true)
      if (!kind) return null
      const named =
        /\b(?:named|called|(?:his|her|its) name(?: is|['’]s))\s+(?:(?:him|her|it|them)\s+)?(?<name>\p{Lu}[\p{L}'-]+)/u.exec(
          statement.text,
        ) ??
        new RegExp(`\\b(?:${alternation(petKinds.join(' | '))}),?\\s+(?<name>\\p{Lu}[\\p{Ll}'-]+)`, 'u').exec(
          statement.text,
        )
      return named?.groups?.name ? { value: named.groups.name, at: kind.at } : kind
    },
  },
  { attribute: 'school', cues: schoolCues, value: schoolOf },
  {
    attribute: 'car',
    cues: carCues,
    value: (statement) => makeOrModel(statement, carMakes, carModels),
    namesItsKind: (statement) =>
      capitalizedLexiconValue(statement, carMakes) || writtenModel(statement, carModels),
  },
  {
    attribute: 'diet',
    cues: dietCues,
    value: (statement) => ownedLexiconValue(statement, diets, dietBefore, dietAfter, false, dietThingAfter),
    namesItsKind: (statement) =>
      ownedLexiconValue(statement, diets, dietBefore, dietAfter, false, dietThingAfter) !== null,
  },
  {
    attribute: 'phone',
    cues: phoneCues,
    value: (statement, lenient) =>
      makeOrModel(statement, phoneMakes, phoneModels) ??
      (presumesTopic(lenient) ? upgradedModel(statement) : null),
    namesItsKind: (statement) =>
      capitalizedLexiconValue(statement, phoneMakes) || writtenModel(statement, phoneModels),
  },
  {
    attribute: 'sport',
    cues: sportCues,
    value: (statement) => ownedLexiconValue(statement, sports, sportBefore, sportAfter),
  },
]

/** Words with which people tell that something is new: the moment of a change, or the time since it. */
const announcesNews =
  /\b(?:now|new|since|just|finally|officially|first (?:day|week|month|semester|quarter|year|christmas|time)|\d+ (?:days|weeks|months) (?:in|now)|(?:a|one|two|three|four|five|six) (?:days?|weeks?|months?) in|switched|swapped|moved|started|joined|got|upgraded|picked up|adopted|settled|landed|update)\b/i

/**
 * What a clause says something is no longer, when it says it after what is: "officially a solicitor and not a trainee
 * anymore" states the solicitor, and its "anymore" must not make the whole clause a thing of the past.
 */
const negatedContrast =
  /(?:,\s*|\s+(?:and|but)\s+)not\s+(?:an?\s+|the\s+)?[\p{L}-]+(?:\s+[\p{L}-]+)?\s+(?:anymore|any more|any longer)\b.*$/iu
const withoutNegatedContrast = (clause: string) => clause.replace(negatedContrast, '')

/** A clause that asks states nothing: "is cycling in Milan a death wish?" */
const asks = /\?/
/** Words a question opens with (a contraction, "can't", opens none). */
const questionOpeners = 'is|are|am|do|does|did|can|could|would|should|what|where|when|why|how|who|whom|which'
/** Nor does one that opens as a question or a request, rewritten without its question mark: "How does Ana write…". */
const opensAsQuestionOrRequest = new RegExp(
  `^(?:${questionOpeners}|help|give|tell|show|write|make)\\b(?!['’])`,
  'i',
)
/**
 * Words about the listener state nothing of the speaker's life: advice and praise ("You can use dairy-free
 * margarine instead of butter", "You should move to Lisbon"). "You know, I moved…" is a filler, not the subject.
 */
const addressesListener =
  /^(?:(?:oh|so|well|and|but|honestly|seriously|sure|yes|yeah|yep|wow),?\s+)*(?:you|your|you['’](?:re|ve|ll|d))\b(?!,?\s+know\b)/i

/** Anywhere in a clause: what was, what is visited, what ended. */
const notCurrent =
  /\b(?:no longer|anymore|(?<!\b(?:getting|get|got|gotten)\s)used to|trip|holiday|vacation|visit(?:ing|ed|s)?|for (?:a|the) (?:few days|week|weekend|conference|wedding)|interview(?:ed|ing)?|final round|(?:made|gave|got|received|extended)\s+(?:\w+\s+)?(?:an?\s+)?(?:job\s+)?offer|turned (?:it )?down|declined)\b/i
/**
 * Before the value: a negation, a modal, a wish or a plan makes it not (yet) true — "I'm not vegan", "we'd love to
 * live in Lisbon", "thinking about joining Google". After it they belong to another clause ("vegan for 3 years and
 * my grandma still asks if I eat chicken").
 */
const notYet =
  /\b(?:never|not|would|could|might|maybe|perhaps|if|plan(?:s|ning)? (?:to|on)|want(?:s|ed)? to|hop(?:e|es|ing) to|thinking (?:about|of)|consider(?:s|ing)?|going to|gonna|will|wish|dream|someday|one day|tempted|not sure|debating|offer(?:ed)?)\b|n['’]t\b|['’](?:d|ll)\b/i

/** Other people whose news a speaker tells: their fact is not the speaker's. */
const someoneElse =
  /\b(?:sister|brother|sibling|mom|mum|mother|dad|father|parents?|son|daughter|kids?|children|friend|friends|mate|buddy|colleague|coworker|co-worker|boss|manager|neighbou?r|cousin|aunt|uncle|niece|nephew|grandma|grandpa|grandmother|grandfather|roommate|flatmate|housemate|classmate|bestie|in-laws?|teammate|wife|husband|boyfriend|girlfriend|partner)s?\b/gi

/**
 * Whether the clause tells someone else's fact: before the value it names a relative, friend or colleague as its
 * subject ("Lukas's sister moved to Leeds", "a friend of mine joined Google"), tells the listener something
 * ("You can use dairy-free margarine"), or opens with another person's name.
 * A statement without a subject of its own is the speaker's: they are the one talking about their life.
 */
function isSomeoneElses(
  clause: string,
  speaker: string,
  valueAt: number,
  people: readonly EntityMention[],
): boolean {
  const head = clause.slice(0, valueAt)
  for (const match of head.matchAll(someoneElse)) {
    const before = head.slice(Math.max(0, match.index - 12), match.index)
    // "Product manager at Decathlon" is a title; someone else's manager is told with a determiner ("my manager").
    if (/^managers?$/i.test(match[0]) && !/\b(?:my|our|his|her|their|the|a|\p{L}+['’]s)\s+$/iu.test(before))
      continue
    // "moved in with their boyfriend", "Sid and I": a companion, not the subject.
    if (
      !/\b(?:with|and|&|to|for|from|by|about)\s+(?:\w+['’]s\s+|my\s+|their\s+|our\s+|his\s+|her\s+|a\s+)?$/i.test(
        before,
      )
    )
      return true
  }
  // "You can use dairy-free margarine…": advice to the listener, about their life, unless the speaker is named too.
  const namesSpeaker = new RegExp(`(?<![\\p{L}])(?:${literally(speaker)}|I|we|my|our)(?![\\p{L}])`, 'iu')
  if (addressesListener.test(head) && !namesSpeaker.test(head)) return true
  const speakerKey = entityKey(speaker)
  const first = people.find((person) => person.start < valueAt)
  const opensWithOther =
    first !== undefined &&
    !entityKey(first.name).startsWith(speakerKey) &&
    /^\W*$/.test(clause.slice(0, first.start)) &&
    !/^\s*(?:and|&)\s/i.test(clause.slice(first.end))
  return opensWithOther
}

/** A clause that opens as a question asks all through: "Is cycling in Milan, with the traffic, safe?" */
const opensAsQuestion = new RegExp(
  `^(?:${questionOpeners}|was|were|have|has|will|shall|any|anyone|anybody)\\b(?!['’])`,
  'i',
)

/** A question word anywhere in a clause. */
const questionWord = new RegExp(`\\b(?:${questionOpeners}|any|anyone|anybody|whats|hw)\\b`, 'i')

/**
 * "First semester done and I actually sleep now??", "weirdly I'm fine?!": marks doubled at the end of a clause with no
 * question word in it tell surprise, not a question.
 */
function exclaimsInQuestionMarks(clause: string): boolean {
  return /(?:\?\?|\?!|!\?)[?!]*$/.test(clause) && !questionWord.test(clause)
}

/**
 * A question asked after a statement in one sentence stays apart from it: "being a line cook is no joke, any
 * insoles that work??" states the line cook.
 */
function withQuestionApart(clause: string): string[] {
  if (exclaimsInQuestionMarks(clause)) return [clause.replace(/[?!]+$/, '!')]
  if (!clause.endsWith('?') || opensAsQuestion.test(clause)) return [clause]
  const comma = clause.lastIndexOf(', ')
  return comma > 0 ? [clause.slice(0, comma), clause.slice(comma + 2)] : [clause]
}

/**
 * Clauses of a statement, the reporting prefix ("Lukas said: ") taken off: sentences, parts after " - ", ";", ", so"
 * or an emoji (chat punctuates with them: "…into my new flat's windows 😅 tips for drafty old apartments?"), and a
 * question asked after a comma.
 */
/**
 * Where clauses break: a sentence's end, a dash (except before one name set off and told of after it, "seeing
 * someone new - Halima, we met…"), a semicolon, ", so", an emoji.
 */
const clauseBreak = new RegExp(
  String.raw`(?<=[.!?])\s+|\s+[-–—]\s+(?!\p{Lu}[\p{Ll}'’-]+${toldOfAfterName})|;\s+|,\s+(?=so\s)|\s*\p{Extended_Pictographic}[\p{Extended_Pictographic}\u{FE0F}\u{200D}]*\s*`,
  'u',
)

function clausesOf(content: string): string[] {
  return content
    .replace(/^[^:]{1,60}\b(?:said|asked):\s*/, '')
    .split(clauseBreak)
    .flatMap((clause) => withQuestionApart(clause.trim()))
    .map((clause) => clause.trim())
    .filter(Boolean)
}

/**
 * The attribute readings a clause may state, likeliest first: those whose words it uses or whose value kind it
 * names (a car make, a diet), or that the embedder finds it close to — and nearer than to a trip, a plan or someone
 * else's news.
 */
function likelyReadings(
  clause: string,
  view: StatementView,
  similarities: AttributeSimilarities,
): { reading: AttributeReading; lenience: Lenience }[] {
  const not = similarities.not ?? 0
  const nearest = Math.max(...meaningAttributes.map((attribute) => similarities[attribute] ?? 0))
  return readings
    .map((reading) => {
      const similarity = similarities[reading.attribute] ?? 0
      const cued = reading.cues.test(clause) || (reading.namesItsKind?.(view) ?? false)
      // The embedder alone names an attribute only when it is the nearest, sure, and nearer than "no fact"; with
      // the attribute's words in the clause, being the nearest and nearer than "no fact" is enough.
      const nearestAndNotOther = similarity === nearest && similarity > not && similarity > 0
      // News of a change is told with words of novelty ("now", "since April", "first week at", "3 months in"): with
      // them, being the likeliest attribute is enough to take a name of its kind as its value.
      const sure = nearestAndNotOther && (similarity >= attributeCertainty || announcesNews.test(clause))
      const likely = sure || cued
      return { reading, sure, likely, rank: similarity + (cued ? 1 : 0) + (nearestAndNotOther ? 0.5 : 0) }
    })
    .filter(({ likely }) => likely)
    .sort((a, b) => b.rank - a.rank)
    .map(({ reading, sure }) => ({ reading, lenience: sure ? ('sure' as const) : ('no' as const) }))
}

/**
 * Whether the classifier reads a statement as about this attribute: likelier than any other attribute and than "no
 * fact". An older statement is read as a version of a newly stated fact only then (factSupersession.ts).
 */
export function readsAsAbout(attribute: MeaningAttribute, similarities: AttributeSimilarities): boolean {
  const similarity = similarities[attribute] ?? 0
  const nearest = Math.max(...meaningAttributes.map((name) => similarities[name] ?? 0))
  return similarity > 0 && similarity === nearest && similarity > (similarities.not ?? 0)
}

/** Whether the classifier finds "no fact" likelier than any attribute: small talk, a meal out, a question. */
export function readsAsNoFact(similarities: AttributeSimilarities): boolean {
  const nearest = Math.max(...meaningAttributes.map((name) => similarities[name] ?? 0))
  return (similarities.not ?? 0) >= nearest
}

/**
 * Attributes people have several of at once (pets, sports): a new one is no newer version of the last, so they are
 * read (a question about them gets the newest first) but never supersede.
 */
export const additiveAttributes: readonly MeaningAttribute[] = ['pet', 'sport']

/** Whether a fact's attribute is one people have several of at once (additiveAttributes). */
export const isAdditiveAttribute = (attribute: string): boolean =>
  (additiveAttributes as readonly string[]).includes(attribute)

/**
 * Whether a fact's key depends on what else its message says: a favourite read without its kind takes the kind of the
 * one it replaced, a pet or a sport versions only the one the message says ended. Where nothing else is told (an
 * edit of one memory), such a reading states no fact.
 */
export const needsItsMessageToSettle = (attribute: string): boolean =>
  attribute === 'favorite' || isAdditiveAttribute(attribute)

export interface RecognitionOptions {
  /**
   * Read the statement as a version of this attribute only, needing no cue word: a newer statement of the attribute
   * exists, and the question is whether this older one stated another value of it ("Accra heat today is something
   * else" once "I moved to Toronto" arrived).
   */
  asVersionOf?: MeaningAttribute
  /**
   * With asVersionOf, when the reader does not find the statement about that attribute: only a value whose role the
   * words around it show ("hotfix at CD Projekt", "Vodacom team building") is read, not any name of its kind.
   */
  evidentOnly?: boolean
}

/**
 * The changing fact a statement states, or null: first the phrase rules (factSlotOf), then the meaning of each
 * clause about the speaker. `similarities` are the statement's similarities to the attributes' examples
 * (factPrototypes.ts), when an embedder gave them.
 */
export function recognizeFact(
  content: string,
  speaker: string | null,
  similarities: AttributeSimilarities = {},
  options: RecognitionOptions = {},
): FactSlot | null {
  const forced = options.asVersionOf
  // An assistant's explanations state no fact of its own life.
  if (isAssistantSpeaker(speaker)) return null
  const byPhrase = factSlotOf(content, speaker)
  if (byPhrase && (!forced || byPhrase.attribute === forced)) return byPhrase
  if (speaker === null) return null
  const subject = speaker.toLowerCase()
  for (const whole of clausesOf(content)) {
    const clause = withoutNegatedContrast(whole)
    if (asks.test(clause) || opensAsQuestionOrRequest.test(clause) || notCurrent.test(clause)) continue
    const view: StatementView = {
      text: clause,
      lower: clause.toLowerCase(),
      speaker,
      mentions: recognizeMentions(clause, { speaker }),
    }
    const considered = forced
      ? readings
          .filter((reading) => reading.attribute === forced)
          .map((reading) => ({
            reading,
            lenience: options.evidentOnly ? ('evident' as const) : ('version' as const),
          }))
      : likelyReadings(clause, view, similarities)
    for (const { reading, lenience } of considered) {
      const found = reading.value(view, lenience)
      if (!found) continue
      if (notYet.test(clause.slice(0, found.at))) continue
      const people = view.mentions.filter((mention) => mention.type === 'person')
      if (isSomeoneElses(clause, speaker, found.at, reading.involvesOthers ? [] : people)) continue
      const normalized = normalizedFactValue(found.value)
      if (normalized === '' || normalized === subject) continue
      return {
        subject,
        attribute: reading.attribute,
        value: normalized,
        key: `${subject}|${reading.attribute}`,
      }
    }
  }
  return null
}

/** A value a statement says its speaker ended: "left Shopee", "sold the Gol", "Project Hail Mary has overtaken the hobbit". */
const endedBeforeValue =
  /\b(?:left|quit|resigned from|moved (?:away )?from|moved out of|said goodbye to|broke up with|split (?:up )?(?:with|from)|divorced|sold|traded in|upgraded from|switched from|graduated from|dropped out of|transferred from|fired from|laid off from|overtaken|dethroned|replaced|rip|gave up|ditched|swapped|retired from|hung up)\s+(?:my\s+|our\s+|the\s+|their\s+|his\s+|her\s+)?(\p{L}[\p{L}\d'’-]*)/giu
/**
 * Where sports are played and what they are played with: "retired from the court", "swapped the pitch for bouldering",
 * "hung up the boots", "the squash racket is collecting dust" end the sports played there or so.
 */
const sportsByVenue: Record<string, readonly string[]> = {
  boots: words('football | soccer | rugby'),
  cleats: words('football | soccer | baseball | softball'),
  racket: words('tennis | squash | badminton | padel'),
  racquet: words('tennis | squash | badminton | padel'),
  gloves: words('boxing | kickboxing | muay thai'),
  skis: words('skiing'),
  skates: words('skating | ice skating | hockey | ice hockey'),
  clubs: words('golf'),
  court: words(
    'tennis | basketball | padel | squash | volleyball | badminton | pickleball | netball | handball',
  ),
  pitch: words('football | soccer | rugby | cricket | hockey'),
  field: words('football | soccer | rugby | baseball | softball | hockey | lacrosse'),
  pool: words('swimming | water polo | diving'),
  mat: words('yoga | judo | wrestling | bjj | jiu-jitsu | jiu jitsu | pilates'),
  rink: words('hockey | ice hockey | skating | ice skating'),
  track: words('running | athletics | cycling'),
  slopes: words('skiing | snowboarding'),
  wall: words('climbing | bouldering'),
  ring: words('boxing | kickboxing | muay thai'),
  dojo: words('karate | judo | taekwondo | aikido'),
  links: words('golf'),
  greens: words('golf'),
  waves: words('surfing'),
}

/**
 * The words an older statement may use for a value a message says ended: the value itself, and for a sport ended by
 * where it is played ("retired from the court") the sports played there ("pickup basketball tonight").
 */
export function wordsForEndedValue(attribute: string, value: string): string[] {
  const place = value.toLowerCase()
  // "the courts", "the mats": a venue in the plural is the same venue.
  const venue =
    attribute === 'sport' ? (sportsByVenue[place] ?? sportsByVenue[place.replace(/s$/, '')]) : undefined
  return [value, ...(venue ?? [])]
}

/** The rest of a name after its first word: "Mercado Libre", "Trinity College" (the verbs above match in any case). */
const nameContinues = /^(?:\s+\p{Lu}[\p{L}\d'’-]*)*/u
/** The same, the value first: "the hamster passed away", "the office has officially been dethroned". */
const endedAfterValue =
  /(\p{L}[\p{L}\d'’-]*)\s+(?:passed(?: away| on)?(?=\s+(?:in|at|on|last|this|over|yesterday|today)\b|\s*[.,!]|\s*$)|died|(?:is|are)\s+(?:now\s+)?(?:collecting|gathering)\s+dust|(?:has|have|was)\s+(?:officially\s+|finally\s+)?(?:been\s+)?dethroned|(?:now\s+)?(?:went to live|goes to live|stays|lives|is living|is staying)\s+with\s+(?:my|our|their|his|her|the|\p{Lu}\p{L}+['’]s)\s+(?:parents|mum|mom|dad|grandparents|gran|grandma|family|ex|sister|brother|cousin|neighbou?rs?)\b)/giu
/** Words that follow such verbs without naming what ended: "left in june", "quit last week", "left work early". */
const notAnEndedValue =
  /^(?:in|at|on|for|to|it|that|this|them|him|her|me|us|you|he|she|they|we|i|who|which|and|but|so|a|an|after|before|last|early|late|work|home|school|town|the|job|jobs|everything|all|behind|out|off|up|over|again|today|yesterday|lol|haha|lmao|omg|first|second|third|new|old|whole|only)$/i

/**
 * What a statement says its speaker ended, left, sold, split from or lost — the value a fact had before the one it
 * states now ("I left Shopee and I've been at Grab for two months", "kemi and I split back in december"). Clauses
 * that ask, plan or deny end nothing ("thinking about leaving Bogotá", "haven't resigned from Zoho yet"); neither do
 * other people's endings. Each value with whether it was written as a name (capitalized in the middle of a clause).
 */
export function endedValuesOf(content: string, speaker: string): { value: string; named: boolean }[] {
  const ended: { value: string; named: boolean }[] = []
  const speakerPattern = literally(speaker)
  const splitWith = new RegExp(
    `(\\p{L}[\\p{L}'’-]*)\\s+and\\s+(?:I|me|${speakerPattern})\\s+(?:split|broke up|separated|divorced)\\b`,
    'gu',
  )
  for (const clause of clausesOf(content)) {
    if (asks.test(clause)) continue
    const found = [
      ...[...clause.matchAll(endedBeforeValue)].map((match) => ({
        match,
        value:
          (match[1] ?? '') + (nameContinues.exec(clause.slice(match.index + match[0].length))?.[0] ?? ''),
      })),
      ...[...clause.matchAll(endedAfterValue)].map((match) => ({ match, value: match[1] ?? '' })),
      ...[...clause.matchAll(splitWith)].map((match) => ({ match, value: match[1] ?? '' })),
    ]
    for (const { match, value } of found) {
      if (notYet.test(clause.slice(0, match.index))) continue
      if (isSomeoneElses(clause, speaker, match.index, [])) continue
      const words = value.split(/\s+/).filter((word) => !notAnEndedValue.test(word))
      if (words.length === 0 || words.join(' ').toLowerCase() === speaker.toLowerCase()) continue
      // A capital at the start of a clause says nothing; one inside it marks a name.
      const named = /^\p{Lu}/u.test(words[0] ?? '') && match.index + match[0].indexOf(value) > 0
      ended.push({ value: words.join(' '), named })
    }
  }
  return ended
}

/** A softmax classifier over statement vectors: one weight row (and bias) per label. */
export interface AttributeClassifier {
  labels: (MeaningAttribute | 'not')[]
  /** labels.length rows of dimension + 1 numbers (the bias last). */
  weights: number[][]
}

/**
 * Trains the classifier on labelled example vectors: multinomial logistic regression by full-batch gradient descent,
 * each label weighted by the inverse of its count (the examples of "no fact" outnumber any attribute's), from zero
 * weights for a fixed number of epochs, so the same examples always give the same weights.
 */
export function trainAttributeClassifier(
  examples: readonly LabelledVector[],
  options: { epochs?: number; learningRate?: number; l2?: number } = {},
): AttributeClassifier {
  const epochs = options.epochs ?? 500
  const learningRate = options.learningRate ?? 5
  const l2 = options.l2 ?? 1e-4
  const labels = [...new Set(examples.map(({ label }) => label))].sort()
  const dimension = examples[0]?.vector.length ?? 0
  const width = dimension + 1
  const weights = labels.map(() => new Float64Array(width))
  const target = examples.map(({ label }) => labels.indexOf(label))
  const counts = labels.map((_, index) => target.filter((value) => value === index).length)
  const exampleWeight = target.map((index) => 1 / (counts[index] ?? 1))
  const totalWeight = exampleWeight.reduce((sum, value) => sum + value, 0)
  const vectors = examples.map(({ vector }) => Float64Array.from(vector))
  const scores = new Float64Array(labels.length)
  for (let epoch = 0; epoch < epochs; epoch++) {
    const gradients = labels.map(() => new Float64Array(width))
    vectors.forEach((vector, position) => {
      softmaxInto(scores, weights, vector)
      const weight = exampleWeight[position] ?? 0
      for (let label = 0; label < labels.length; label++) {
        const gradient = ((scores[label] ?? 0) - (target[position] === label ? 1 : 0)) * weight
        const row = gradients[label] as Float64Array
        for (let index = 0; index < dimension; index++)
          row[index] = (row[index] ?? 0) + gradient * (vector[index] ?? 0)
        row[dimension] = (row[dimension] ?? 0) + gradient
      }
    })
    for (let label = 0; label < labels.length; label++) {
      const row = weights[label] as Float64Array
      const gradient = gradients[label] as Float64Array
      for (let index = 0; index < width; index++) {
        const decay = index < dimension ? l2 * (row[index] ?? 0) : 0
        row[index] = (row[index] ?? 0) - learningRate * ((gradient[index] ?? 0) / totalWeight + decay)
      }
    }
  }
  return { labels, weights: weights.map((row) => Array.from(row, (value) => Number(value.toFixed(6)))) }
}

function softmaxInto(
  into: Float64Array,
  weights: readonly ArrayLike<number>[],
  vector: ArrayLike<number>,
): void {
  let highest = -Infinity
  weights.forEach((row, label) => {
    let sum = row[vector.length] ?? 0
    for (let index = 0; index < vector.length; index++) sum += (row[index] ?? 0) * (vector[index] ?? 0)
    into[label] = sum
    highest = Math.max(highest, sum)
  })
  let total = 0
  for (let label = 0; label < weights.length; label++) {
    const value = Math.exp((into[label] ?? 0) - highest)
    into[label] = value
    total += value
  }
  for (let label = 0; label < weights.length; label++) into[label] = (into[label] ?? 0) / total
}

/** The classifier's probability of each label for a statement's vector. */
export function classifyAttribute(
  classifier: AttributeClassifier,
  vector: readonly number[],
): AttributeSimilarities {
  const probabilities = new Float64Array(classifier.labels.length)
  softmaxInto(probabilities, classifier.weights, vector)
  return Object.fromEntries(classifier.labels.map((label, index) => [label, probabilities[index] ?? 0]))
}
