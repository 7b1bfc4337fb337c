import { describe, expect, it } from 'vitest'
import {
  classifyAttribute,
  endedValuesOf,
  readsAsAbout,
  recognizeFact,
  trainAttributeClassifier,
  wordsForEndedValue,
} from './factMeaning.js'

const fact = (content: string, speaker: string, options?: Parameters<typeof recognizeFact>[3]) => {
  const found = recognizeFact(content, speaker, {}, options)
  return found ? `${found.attribute}=${found.value}` : null
}

describe('recognizeFact, by the kind of value and the words around it', () => {
  it('reads a change of residence, employer, diet or car however it is worded', () => {
    expect(fact('Priya said: We finally moved to Lisbon last month and the flat is tiny.', 'Priya')).toBe(
      'residence=lisbon',
    )
    expect(fact('Tom left Google and has been at Stripe for a month now.', 'Tom')).toBe('employer=stripe')
    expect(fact('First month at Spotify done, the team is great.', 'Tom')).toBe('employer=spotify')
    expect(fact('Tom went vegan in January.', 'Tom')).toBe('diet=vegan')
    expect(fact('Tom traded in the hatchback for a Tesla Model 3.', 'Tom')).toBe('car=tesla model 3')
    expect(fact('Tom adopted a kitten named Miso.', 'Tom')).toBe('pet=miso')
  })

  it("finds no fact of the speaker's in a visit, a plan, a negation or someone else's news", () => {
    expect(fact("Tom's sister moved to Leeds.", 'Tom')).toBeNull()
    expect(fact('Tom is visiting Paris for the weekend.', 'Tom')).toBeNull()
    expect(fact('Tom is thinking about moving to Berlin.', 'Tom')).toBeNull()
    expect(fact('Tom is not vegan, just trying less meat.', 'Tom')).toBeNull()
    expect(fact('A friend of Tom joined Google.', 'Tom')).toBeNull()
    expect(fact('Is Lisbon expensive?', 'Tom')).toBeNull()
    expect(
      fact('How does Tom write a cover letter for Spotify', 'Tom', { asVersionOf: 'employer' }),
    ).toBeNull()
    expect(fact('Help Tom pick a flat in Porto', 'Tom', { asVersionOf: 'residence' })).toBeNull()
  })

  it("reads advice to the listener as no fact of the speaker's, unless the speaker's own news follows", () => {
    const advice = "Nate said: You can use dairy-free margarine instead of butter, check they're dairy-free."
    expect(recognizeFact(advice, 'Nate', { diet: 0.85 })).toBeNull()
    expect(fact('Your advice helped, Ana moved to Lisbon last month.', 'Ana')).toBe('residence=lisbon')
    expect(fact('You know, Ana moved to Lisbon last month.', 'Ana')).toBe('residence=lisbon')
  })

  it("reads a diet word that tells what a food is for as no diet of the speaker's, and one held for years as one", () => {
    const food =
      "Coconut ice cream is Nate's top pick. Plus, it's dairy-free for people who can't have lactose."
    expect(recognizeFact(food, 'Nate', { diet: 0.8 })).toBeNull()
    expect(fact('Nate has been vegan for 3 years now.', 'Nate')).toBe('diet=vegan')
    // A diet word before a food or a dish names a kind of food.
    expect(
      recognizeFact("Nate said: Let's spread the joy of dairy-free options!", 'Nate', { diet: 0.8 }),
    ).toBeNull()
    expect(recognizeFact('Nate has been eating gluten-free bread lately.', 'Nate', { diet: 0.8 })).toBeNull()
    expect(fact('Nate switched to a vegan diet.', 'Nate')).toBe('diet=vegan')
  })

  it('reads a team one supports as no employer', () => {
    expect(fact("The Wolves are John's team for sure. And LeBron is the man.", 'John')).toBeNull()
    expect(fact('John joined Stripe, the team is great.', 'John')).toBe('employer=stripe')
  })

  it('reads a wedding held as married, and one attended as nothing', () => {
    expect(fact('John said: We had the wedding in a greenhouse!', 'John')).toBe('relationship=married')
    expect(fact('We had a great time at John’s cousin’s wedding.', 'John')).toBeNull()
    // Before the wedding, the word "girlfriend" is no status of its own.
    const wedding = "John's girlfriend and John had an amazing and emotional wedding ceremony last week."
    expect(fact(wedding, 'John')).not.toBe('relationship=in a relationship')
  })

  it('reads a return to a diet, a title after "is a", a job title beside what it no longer is', () => {
    expect(fact('After two years Sam is back to vegan.', 'Sam')).toBe('diet=vegan')
    expect(fact("Sam switched careers - they're a data analyst at a bank now.", 'Sam')).toBe(
      'occupation=data analyst',
    )
    expect(fact('Sam is officially a nurse and not a student anymore.', 'Sam')).toBe('occupation=nurse')
    expect(fact('Sam started as a real estate agent in March.', 'Sam')).toBe('occupation=real estate agent')
    // What a clause says is over stays over: the value is the thing no longer true.
    expect(fact('Sam is not a nurse anymore.', 'Sam')).toBeNull()
  })

  it('reads time served at a workplace, a title opening a clause of news, and a sentence adverb as no name', () => {
    expect(fact('Nine months at Fairmont already and I still love the night shifts.', 'Lena')).toBe(
      'employer=fairmont',
    )
    // The classifier finds it likeliest a job; "now" tells it as news.
    const opening = 'Senior accountant at a furniture chain now, and Lena works from home on fridays.'
    expect(recognizeFact(opening, 'Lena', { occupation: 0.4, employer: 0.3 })?.value).toBe(
      'senior accountant',
    )
    expect(fact('Lena is finally a GP.', 'Lena')).toBe('occupation=gp')
    expect(fact('Lena said: Officially a paramedic with the county service.', 'Lena')).toBe(
      'occupation=paramedic',
    )
    expect(fact('Basically Lena is pescatarian now.', 'Lena')).toBe('diet=pescatarian')
    expect(fact('Back office in logistics now, no more folding jeans.', 'Lena')).toBeNull()
    expect(
      recognizeFact('So Deloitte flew Lena to Paris for the final round and made an offer.', 'Lena', {
        employer: 0.7,
      }),
    ).toBeNull()
    // An opening that is no title, and a title without news, state nothing.
    expect(recognizeFact('Met the manager at Lidl now.', 'Lena', { occupation: 0.6 })).toBeNull()
    expect(
      recognizeFact('Engineer at heart, Lena fixes everything at home.', 'Lena', { occupation: 0.4 }),
    ).toBeNull()
  })

  it('reads a clause that opens with "single" as the status, not a single room or parent', () => {
    expect(fact('Single and 41, and Mira has never been happier.', 'Mira')).toBe('relationship=single')
    expect(fact('Single parent life is hard, Mira needs a break.', 'Mira')).toBeNull()
  })

  it('reads a name after "at" as a workplace, and the place where a team sits as no residence', () => {
    const read = (content: string) => {
      const found = recognizeFact(content, 'Omar', { residence: 0.5, employer: 0.3 })
      return found ? `${found.attribute}=${found.value}` : null
    }
    expect(read('Remote since May, the team is in Berlin.')).toBeNull()
    // Likeliest a residence by the classifier, but a name after "at" the gazetteer does not know is no place to live.
    expect(read('At Bolt since april and loving it.')).toBeNull()
    expect(read('At Bolt since april and the team is great.')).toBe('employer=bolt')
    expect(read('Remote since May, the flat is in Berlin.')).toBe('residence=berlin')
  })

  it('reads a known city told of as a place of everyday life as where the speaker lives, not one seen on a trip', () => {
    expect(fact('Tallinn is so quiet in winter, Ana barely leaves the flat.', 'Ana')).toBe(
      'residence=tallinn',
    )
    expect(fact('Lyon rent is insane.', 'Ana')).toBe('residence=lyon')
    expect(fact('Rome traffic was insane on our trip.', 'Ana')).toBeNull()
    expect(fact('Paris is so beautiful.', 'Ana')).toBeNull()
  })

  it('reads the statement before a question asked after a comma, and nothing in a question from its start', () => {
    expect(fact('Being a bike mechanic at 40 is hard on the back, any stretches that help?', 'Ola')).toBe(
      'occupation=bike mechanic',
    )
    expect(fact('Are the trams in Oslo, with all the snow, running today?', 'Ola')).toBeNull()
  })

  it('reads a statement before an emoji apart from a request after it', () => {
    const sure = { residence: 0.9 }
    expect(
      recognizeFact('First winter in Tromsø in Ola’s new flat 🥶 tips for the dark?', 'Ola', sure)?.value,
    ).toBe('tromsø')
  })

  it('reads the pets the speaker has now after one that died, in the clause after ", so"', () => {
    const sure = { pet: 0.8, not: 0.1 }
    expect(
      recognizeFact(
        'The parrot flew off and the kids cried all week, so now Ola has two kittens.',
        'Ola',
        sure,
      ),
    ).toMatchObject({ attribute: 'pet', value: 'kittens' })
    expect(recognizeFact('Our neighbour has two kittens.', 'Ola', sure)).toBeNull()
  })

  it('reads a first name that is also a place as the partner after "seeing" or "my wife"', () => {
    expect(fact('Been seeing this guy Jordan since the spring.', 'Ola', { asVersionOf: 'partner' })).toBe(
      'partner=jordan',
    )
    expect(
      fact('Ola moved in with her boyfriend Florian, not Florence.', 'Ola', { asVersionOf: 'partner' }),
    ).toBe('partner=florian')
    expect(fact('Ola has been dating Georgia since May.', 'Ola', { asVersionOf: 'partner' })).toBe(
      'partner=georgia',
    )
    expect(fact('Ola had a week in Jordan with friends.', 'Ola', { asVersionOf: 'partner' })).toBeNull()
  })

  it('reads a partner named after a dash, a job told as a way of life, and a city one gets used to', () => {
    expect(
      fact('Tomás is seeing somebody new - Ines, we met at a climbing gym.', 'Tomás', {
        asVersionOf: 'partner',
      }),
    ).toBe('partner=ines')
    expect(
      recognizeFact('Seeing someone - Whatever, it is fine.', 'Tomás', { partner: 0.9 }),
    ).not.toMatchObject({
      attribute: 'partner',
    })
    expect(
      recognizeFact('Paramedic life: three night shifts in a row.', 'Tomás', { occupation: 0.5 }),
    ).toMatchObject({ attribute: 'occupation', value: 'paramedic' })
    expect(recognizeFact('Slowly getting used to Oslo, the dark is brutal.', 'Tomás', {})).toMatchObject({
      attribute: 'residence',
      value: 'oslo',
    })
    // "Used to" alone still tells a past.
    expect(recognizeFact('Tomás used to live in Oslo.', 'Tomás', { residence: 0.9 })).toBeNull()
  })

  it('reads titles people give as their job, whole, from the known occupations', () => {
    const aboutWork = { occupation: 0.7, not: 0.1 }
    expect(recognizeFact('Night shifts as a sonographer are killing me.', 'Tomás', aboutWork)).toMatchObject({
      value: 'sonographer',
    })
    expect(recognizeFact('Tomás is a quantity surveyor now.', 'Tomás', aboutWork)).toMatchObject({
      value: 'quantity surveyor',
    })
    // A title word that ends a name ("Potter", "Carpenter") or follows "of" is no job.
    expect(
      recognizeFact('Tomás binged every Harry Potter movie this weekend.', 'Tomás', aboutWork),
    ).toBeNull()
    expect(
      recognizeFact('Tomás is a huge fan of Potter, the books and the films.', 'Tomás', aboutWork),
    ).toBeNull()
    // "first" after "sold" names nothing that ended.
    expect(endedValuesOf('Tomás sold their first house as a realtor!', 'Tomás')).toEqual([])
  })

  it('reads a car or phone by its model alone, and a make with the model after it in any case', () => {
    expect(recognizeFact('Finally drove my new Kodiaq home!', 'Tomás', { car: 0.6 })).toMatchObject({
      attribute: 'car',
      value: 'kodiaq',
    })
    expect(
      recognizeFact("Tomás's renault megane keeps stalling on hills.", 'Tomás', { car: 0.8 }),
    ).toMatchObject({
      value: 'renault megane',
    })
    expect(
      recognizeFact('The screen on my pixel fold cracked again.', 'Tomás', { phone: 0.6 }),
    ).toMatchObject({
      attribute: 'phone',
      value: 'pixel fold',
    })
    // A model's name in someone else's hands, or with nothing owning it, is no car of the speaker's.
    expect(recognizeFact("My brother's Kodiaq broke down.", 'Tomás', { car: 0.8 })).toBeNull()
  })

  it('reads doubled question marks without a question word as surprise, not a question', () => {
    expect(
      recognizeFact('Second term at Politecnico di Torino and I finally get the maths??', 'Tomás', {
        school: 0.8,
      }),
    ).toMatchObject({ attribute: 'school' })
    expect(recognizeFact('Why did I move to Turin??', 'Tomás', { residence: 0.8 })).toBeNull()
  })

  it('reads a company named beside classes as no school', () => {
    expect(
      recognizeFact('Accenture is paying for my spanish classes, at 7am sadly.', 'Tomás', { school: 0.7 }),
    ).not.toMatchObject({ attribute: 'school' })
  })

  it('reads a city before a school word as the school, not a residence', () => {
    expect(
      recognizeFact('Ola is settling in at oslo uni!', 'Ola', { residence: 0.8, school: 0.1 }),
    ).toMatchObject({
      attribute: 'school',
      value: 'oslo uni',
    })
  })

  it('reads a job title with "manager" in it as the speaker\'s, and a workplace by what it pays', () => {
    expect(
      fact('Account manager at Zalando since May, Ola loves it.', 'Ola', { asVersionOf: 'employer' }),
    ).toBe('employer=zalando')
    expect(fact("Ola's manager joined Zalando.", 'Ola', { asVersionOf: 'employer' })).toBeNull()
    expect(
      fact('Account manager at Zalando and Ola gets paid to shop FOR WORK.', 'Ola', {
        asVersionOf: 'employer',
      }),
    ).toBe('employer=zalando')
    expect(
      recognizeFact('Amazon pays way better than the last place.', 'Ola', { employer: 0.8, not: 0.1 }),
    ).toMatchObject({ attribute: 'employer', value: 'amazon' })
  })

  it('reads no workplace, home or school in a venue, an event, a tool, a publication or where a job is', () => {
    const sureOf = (attribute: string) => ({ [attribute]: 0.8, not: 0.1 })
    const read = (content: string, attribute: string) => {
      const found = recognizeFact(content, 'Noor', sureOf(attribute))
      return found ? `${found.attribute}=${found.value}` : null
    }
    expect(
      read('Noor had a team dinner at the Harbour Grill to celebrate the launch.', 'employer'),
    ).toBeNull()
    expect(read('Noor spent the weekend at Kew Gardens with the whole team.', 'employer')).toBeNull()
    expect(read('Noor met two recruiters at the Lagos Tech Summit on Friday.', 'employer')).toBeNull()
    expect(read('Noor met a recruiter at the Fintech Week conference.', 'employer')).toBeNull()
    expect(read('Noor now works on Sprint 4 of the billing rewrite.', 'employer')).toBeNull()
    expect(read('Noor started using Trello and Notion to plan the work.', 'employer')).toBeNull()
    expect(read('Noor is weighing the Berlin role against staying put.', 'employer')).toBeNull()
    expect(read('Noor booked a call with HR about the benefits.', 'employer')).toBeNull()
    expect(read('Noor has a team meeting at 3 PM at Harbour Street.', 'employer')).toBeNull()
    expect(read('Noor moved the Slack call with the new team lead to Monday.', 'employer')).toBeNull()
    expect(read('Noor does volunteer work with Code Club Lagos on Saturdays.', 'employer')).toBeNull()
    expect(read('Noor sent the article to the Journal of Urban Design.', 'school')).toBeNull()
    expect(read('Noor is struggling with CSS selectors in the course project.', 'school')).toBeNull()
    expect(read('Noor finally got into UCL, the campus is huge.', 'school')).toBe('school=ucl')
    expect(read('Noor finally joined Paystack, first week done.', 'employer')).toBe('employer=paystack')
    expect(
      fact('Always keep the replies short when I ask about my classes.', 'Noor', { asVersionOf: 'school' }),
    ).toBeNull()
    expect(
      fact('Goal 2: Grow Team Revenue: Description: Boost team sales by 10%.', 'Noor', {
        asVersionOf: 'employer',
      }),
    ).toBeNull()
  })

  it('takes a model number for the value once the classifier is sure the statement is about a phone', () => {
    expect(recognizeFact('Sam upgraded to the 15 pro max.', 'Sam', { phone: 0.7, not: 0.1 })).toMatchObject({
      attribute: 'phone',
      value: '15 pro max',
    })
    expect(recognizeFact('Sam upgraded to the 15 pro max.', 'Sam', {})).toBeNull()
  })

  it('reads a place after "over and" as current (only a word like "instead of" before it says it was left)', () => {
    expect(
      fact('The holidays are over and Hanoi is so quiet again.', 'Lan', { asVersionOf: 'residence' }),
    ).toBe('residence=hanoi')
    expect(fact('Lan likes Hanoi over Saigon.', 'Lan', { asVersionOf: 'residence' })).toBe('residence=hanoi')
  })

  it('keeps the phrase rules first', () => {
    expect(fact('Caroline moved to Porto.', 'Caroline')).toBe('residence=porto')
  })

  it('reads an older statement as a version of an attribute once that attribute is known', () => {
    expect(fact('Infosys bench period is so boring.', 'Arjun')).toBeNull()
    expect(fact('Accra heat today is something else.', 'Kwame', { asVersionOf: 'residence' })).toBe(
      'residence=accra',
    )
    expect(fact('Infosys bench period is so boring.', 'Arjun', { asVersionOf: 'employer' })).toBe(
      'employer=infosys',
    )
    expect(fact('Arjun went to Goa on holiday.', 'Arjun', { asVersionOf: 'residence' })).toBeNull()
  })

  it("reads an older statement the reader finds about something else only by words that show the value's role", () => {
    const evident = (content: string, asVersionOf: 'residence' | 'employer') =>
      fact(content, 'Arjun', { asVersionOf, evidentOnly: true })
    expect(evident('Release night at Zomato and the build is red.', 'employer')).toBe('employer=zomato')
    expect(evident('Swiggy canteen has the best dosa.', 'employer')).toBe('employer=swiggy')
    expect(evident('The night buses in Hyderabad are always late.', 'residence')).toBe('residence=hyderabad')
    // A name of the right kind without such words is no version: a customer's app, a city talked about.
    expect(evident('The Zomato app is down again.', 'employer')).toBeNull()
    expect(evident('We had a great time at the Holi colour party.', 'employer')).toBeNull()
    expect(
      fact('Arjun went to a robotics conference in the UK.', 'Arjun', { asVersionOf: 'school' }),
    ).toBeNull()
    expect(
      fact('Arjun said: Unconditional love is so important.', 'Arjun', { asVersionOf: 'partner' }),
    ).toBeNull()
    expect(fact('Arjun said: Priya made dinner for us.', 'Arjun', { asVersionOf: 'partner' })).toBe(
      'partner=priya',
    )
    expect(evident('Watched a documentary about Hyderabad.', 'residence')).toBeNull()
    expect(fact('Watched a documentary about Hyderabad.', 'Arjun', { asVersionOf: 'residence' })).toBe(
      'residence=hyderabad',
    )
  })

  it('lets the embedder name the attribute when the words do not', () => {
    const content = 'Tom is settling in at Monzo.'
    expect(recognizeFact(content, 'Tom', {})?.attribute).not.toBe('employer')
    expect(recognizeFact(content, 'Tom', { employer: 0.6, residence: 0.3, not: 0.2 })).toMatchObject({
      attribute: 'employer',
      value: 'monzo',
    })
    // Nearer to a trip or someone else's news than to any attribute: left alone.
    expect(recognizeFact(content, 'Tom', { employer: 0.6, not: 0.7 })?.attribute).not.toBe('employer')
  })
})

describe('the attribute classifier', () => {
  it('learns which label a vector reads as, and gives probabilities that sum to one', () => {
    const examples = [
      { label: 'residence' as const, vector: [1, 0, 0] },
      { label: 'residence' as const, vector: [0.9, 0.1, 0] },
      { label: 'employer' as const, vector: [0, 1, 0] },
      { label: 'employer' as const, vector: [0.1, 0.9, 0] },
      { label: 'not' as const, vector: [0, 0, 1] },
    ]
    const classifier = trainAttributeClassifier(examples, { epochs: 300 })
    const read = classifyAttribute(classifier, [0.95, 0.05, 0])
    expect(Object.values(read).reduce((sum, value) => sum + value, 0)).toBeCloseTo(1)
    expect(readsAsAbout('residence', read)).toBe(true)
    expect(readsAsAbout('employer', classifyAttribute(classifier, [0, 1, 0]))).toBe(true)
    expect(readsAsAbout('employer', classifyAttribute(classifier, [0, 0, 1]))).toBe(false)
    // The same examples always give the same weights.
    expect(trainAttributeClassifier(examples, { epochs: 300 })).toEqual(classifier)
  })
})

describe('what a statement says its speaker ended', () => {
  it('names what was left, sold, split from or replaced, and whether it was written as a name', () => {
    expect(
      endedValuesOf("Mei left Shopee in june and they've been at Grab for two months now.", 'Mei'),
    ).toEqual([{ value: 'Shopee', named: true }])
    expect(endedValuesOf('Kemi and Emeka split back in december.', 'Emeka')).toEqual([
      { value: 'Kemi', named: false },
    ])
    expect(endedValuesOf('Sold the Gol last week, the new one is a Duster.', 'Mirela')).toEqual([
      { value: 'Gol', named: true },
    ])
    expect(
      endedValuesOf('Project Hail Mary has overtaken the hobbit as my all time favourite.', 'Finn'),
    ).toEqual([{ value: 'hobbit', named: false }])
    // An interjection after the verb names nothing.
    expect(endedValuesOf('Ok the office has officially been dethroned lol.', 'Zeynep')).toEqual([
      { value: 'office', named: false },
    ])
    expect(endedValuesOf('RIP Bubbles 🐟 but we got a puppy!!', 'Leilani')).toEqual([
      { value: 'Bubbles', named: true },
    ])
    // A pet that died or went to live elsewhere.
    expect(endedValuesOf('Biscuit passed in may, so now we have a kitten.', 'Ana')).toEqual([
      { value: 'Biscuit', named: false },
    ])
    expect(endedValuesOf("Sadly Rex now lives with Ana's parents on the farm.", 'Ana')).toEqual([
      { value: 'Rex', named: true },
    ])
    expect(endedValuesOf('Ana passed the driving test and he stays with my parents.', 'Ana')).toEqual([])
    // A past form that is an adjective too, after the speaker: "broke up".
    expect(endedValuesOf('So tariq and Lena broke up in the spring.', 'Lena')).toEqual([
      { value: 'tariq', named: false },
    ])
  })

  it('ends a sport by where it is played', () => {
    expect(endedValuesOf("Lena's knees said no, she's retired from the court.", 'Lena')).toEqual([
      { value: 'court', named: false },
    ])
    expect(endedValuesOf('Lena swapped the pool for trail running this year.', 'Lena')).toEqual([
      { value: 'pool', named: false },
    ])
    expect(
      endedValuesOf('The ski boots are gathering dust, Lena is all about the climbing wall now.', 'Lena'),
    ).toEqual([{ value: 'boots', named: false }])
    expect(endedValuesOf('Lena hung up the gloves last year.', 'Lena')).toEqual([
      { value: 'gloves', named: false },
    ])
    expect(wordsForEndedValue('sport', 'gloves')).toContain('boxing')
    expect(wordsForEndedValue('sport', 'court')).toContain('basketball')
    expect(wordsForEndedValue('sport', 'pool')).toContain('swimming')
    // Only a sport ends by its venue: a court of law ends no basketball.
    expect(wordsForEndedValue('employer', 'court')).toEqual(['court'])
  })

  it("finds nothing ended in a plan, a denial, a question, someone else's news, or words that name nothing", () => {
    expect(endedValuesOf('Seriously thinking about leaving Bogotá next year.', 'Camila')).toEqual([])
    expect(endedValuesOf("Ravi hasn't resigned from Zoho yet.", 'Ravi')).toEqual([])
    expect(endedValuesOf('Should I quit Deloitte?', 'Ravi')).toEqual([])
    expect(endedValuesOf('My sister left Infosys last month.', 'Ravi')).toEqual([])
    expect(endedValuesOf('I left work early and quit in june.', 'Ravi')).toEqual([])
  })
})
