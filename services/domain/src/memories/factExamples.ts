/**
 * Labelled chat messages for reading a statement's changing fact by meaning (factMeaning.ts): what people say about
 * where they live, whom they work for, their pets or their diet, mostly without saying it outright, and what only
 * sounds like it (a trip, a plan, someone else's news). Written by an independent writer who saw neither the rules
 * nor the evaluation sets (see docs/decisions.md); `value` is the message's words for it, null when it states none.
 */
import type { MeaningAttribute } from './factMeaning.js'

export interface FactExampleMessage {
  attribute: MeaningAttribute | null
  text: string
  value: string | null
}

export const factExampleMessages: readonly FactExampleMessage[] = [
  {
    attribute: 'residence',
    text: 'kigali traffic is absolutely wild today, 50 mins from kimihurura to town 😩 any podcast recs for the daily commute?',
    value: 'kigali',
  },
  {
    attribute: 'residence',
    text: 'we moved to Porto last month and i still cant figure out the recycling bins. which one is for tetra paks??',
    value: 'Porto',
  },
  {
    attribute: 'residence',
    text: 'our landlord here in Melbourne wants to put the rent up 12%. is that even allowed in victoria? what can i say back',
    value: 'Melbourne',
  },
  {
    attribute: 'residence',
    text: 'snowed in AGAIN. tromsø in january is no joke lol. what can i cook with basically potatoes, eggs and frozen cod',
    value: 'tromsø',
  },
  {
    attribute: 'residence',
    text: "Been in Leeds three years now and I still havent been to the Dales 🙈 where's an easy walk I could do this weekend without a car?",
    value: 'Leeds',
  },
  {
    attribute: 'residence',
    text: 'power cut again in Lagos 🙄 lekki side. how do i keep stuff in my freezer from spoiling for like 10 hours',
    value: 'Lagos',
  },
  {
    attribute: 'residence',
    text: 'Can you help me write a complaint to the council? the bins on my street in Bristol havent been collected in 3 weeks and the foxes are having a party',
    value: 'Bristol',
  },
  {
    attribute: 'residence',
    text: 'living in osaka is great except summer, 36 degrees and so humid. cheapest way to keep a 1K apartment cool without the aircon running all day?',
    value: 'osaka',
  },
  {
    attribute: 'residence',
    text: 'just got my Anmeldung done, officially a Hamburg resident now 🎉 what else do i need to sort, tax id? health insurance?',
    value: 'Hamburg',
  },
  {
    attribute: 'residence',
    text: 'Montreal winters are brutal man, car battery died twice this week. is a block heater worth it or am i overthinking',
    value: 'Montreal',
  },
  {
    attribute: 'residence',
    text: 'been living in Cluj-Napoca since 2021 and still havent found a dentist i trust. how do i find an english speaking one that isnt a rip off?',
    value: 'Cluj-Napoca',
  },
  {
    attribute: 'residence',
    text: 'neighbours upstairs here in Wrocław drill every saturday at 8am. how do i politely ask them in polish to stop?',
    value: 'Wrocław',
  },
  {
    attribute: 'residence',
    text: 'I live in Austin and the pollen is destroying me rn. is cedar fever a real thing?? what antihistamine works best',
    value: 'Austin',
  },
  {
    attribute: 'residence',
    text: 'ferry to the city got cancelled AGAIN. waiheke life lol. how do you stay productive working remote when the plan goes sideways',
    value: 'waiheke',
  },
  {
    attribute: 'residence',
    text: 'since we relocated to Singapore the kids keep asking for snow 😂 any indoor wintery activities here that arent crazy expensive?',
    value: 'Singapore',
  },
  {
    attribute: 'residence',
    text: 'my flat in Edinburgh has the worst damp, black mould creeping up the bedroom wall again. how do I get rid of it for good?',
    value: 'Edinburgh',
  },
  {
    attribute: 'residence',
    text: 'long rains started and Ngong road is literally a river. Nairobi drainage is a joke. what shoes survive this lol',
    value: 'Nairobi',
  },
  {
    attribute: 'residence',
    text: 'rent in Lisbon is eating 60% of my salary now. can u help me budget the rest? i take home 1400',
    value: 'Lisbon',
  },
  {
    attribute: 'residence',
    text: "chinook today in Calgary so it's +12 after -25 yesterday lol. should i wash my car now or will it just freeze",
    value: 'Calgary',
  },
  {
    attribute: 'residence',
    text: 'moved out of my parents place and into a tiny studio in Brooklyn!! what are the must haves for a first apartment, budget is tight',
    value: 'Brooklyn',
  },
  {
    attribute: 'residence',
    text: "quick q, the tap water in Phoenix is super hard and it's wrecking our kettle. vinegar or citric acid?",
    value: 'Phoenix',
  },
  {
    attribute: 'residence',
    text: "i'm from chennai originally but now i live in Pune and i miss proper filter coffee so much. where do i get good decoction powder here",
    value: 'Pune',
  },
  {
    attribute: 'residence',
    text: 'wellington wind took my umbrella again 🙃 are there any actually windproof brands that ship within NZ?',
    value: 'wellington',
  },
  {
    attribute: 'residence',
    text: 'the mosque right next to our flat in Amman does the call at 4am and it wakes the baby every time. white noise machine recs?',
    value: 'Amman',
  },
  {
    attribute: 'residence',
    text: 'Just signed a 2 year lease in Denver! what should I know about the altitude when I start running here?',
    value: 'Denver',
  },
  {
    attribute: 'residence',
    text: "is it normal that our electricity bill in Johannesburg doubled in one month? we're in Randburg, City Power. how do i dispute it",
    value: 'Johannesburg',
  },
  {
    attribute: 'residence',
    text: 'hello, me and wife are in Gothenburg since spring and we want learn swedish faster. SFI is slow, what else we can do?',
    value: 'Gothenburg',
  },
  {
    attribute: 'residence',
    text: 'the cruise ship crowds in Dubrovnik old town in august make me want to stay indoors till october lol. where do us locals even swim anymore',
    value: 'Dubrovnik',
  },
  {
    attribute: 'residence',
    text: 'wifi in our new place in Da Nang keeps dropping, its viettel. should i switch to fpt or is it the router?',
    value: 'Da Nang',
  },
  {
    attribute: 'residence',
    text: '11th day of rain in Glasgow. i need indoor stuff for two toddlers near us on the southside pls, free ideally',
    value: 'Glasgow',
  },
  {
    attribute: 'residence',
    text: 'Our street in Buenos Aires had a cacerolazo last night lol. Anyway how do I pay the ABL tax online as a foreigner who rents?',
    value: 'Buenos Aires',
  },
  {
    attribute: 'residence',
    text: 'after 6 yrs in london we finally moved down to Brighton and the sea air is amazing. any friendly running clubs around hove?',
    value: 'Brighton',
  },
  {
    attribute: 'residence',
    text: 'i live in Houten, tiny town right by utrecht, only 2 trains an hour. is an e-bike worth it for a 14km commute?',
    value: 'Houten',
  },
  {
    attribute: 'residence',
    text: 'seoul apartment ondol heating is making my skin sooo dry. humidifier or just loads of plants?',
    value: 'seoul',
  },
  {
    attribute: 'residence',
    text: 'im a kiwi but ive been based in Perth for 2 years and the summer heat is insane. best sunscreen for being outdoors all day?',
    value: 'Perth',
  },
  {
    attribute: 'residence',
    text: "ok real question: how does anyone in Cairo survive august without AC? ours broke and the technician can't come till sunday. we're in maadi",
    value: 'Cairo',
  },
  {
    attribute: 'residence',
    text: "got my first council tax bill for the new place in Manchester, can i get the single person discount if my partner's still in spain?",
    value: 'Manchester',
  },
  {
    attribute: 'residence',
    text: 'mumbai monsoon + local trains = soaked every single morning. need a waterproof laptop bag under 3k',
    value: 'mumbai',
  },
  {
    attribute: 'residence',
    text: "Living in Reykjavík means it's dark by 3pm rn. does a SAD lamp actually help or is it a scam",
    value: 'Reykjavík',
  },
  {
    attribute: 'residence',
    text: "just realised i've lived in Tbilisi for a whole year now 🥹 write me a short toast for the little party im throwing",
    value: 'Tbilisi',
  },
  {
    attribute: 'residence',
    text: 'The only downside of Vancouver is rent. Our 1BR in Mount Pleasant just went up again — negotiate or move to burnaby?',
    value: 'Vancouver',
  },
  {
    attribute: 'residence',
    text: 'our HOA in Charlotte is threatening a fine over our grass height 🙄 how do i respond without making it worse',
    value: 'Charlotte',
  },
  {
    attribute: 'residence',
    text: 'pigeons built a nest in the plant pot on our balcony here in Barcelona. how do I get them to leave humanely',
    value: 'Barcelona',
  },
  {
    attribute: 'residence',
    text: 'tbh Kraków smog this winter is so bad i check the air app before opening windows. which air purifier for a 40m2 flat?',
    value: 'Kraków',
  },
  {
    attribute: 'residence',
    text: "we're settled in Accra now, East Legon. what's the best way to send money from the UK without crazy fees?",
    value: 'Accra',
  },
  {
    attribute: 'employer',
    text: 'first week at Revolut done!! so many acronyms. can you explain what KYC remediation means in normal words',
    value: 'Revolut',
  },
  {
    attribute: 'employer',
    text: "ramadan campaign at Careem goes live tonight and i'm so nervous. give me a quick breathing exercise pls",
    value: 'Careem',
  },
  {
    attribute: 'employer',
    text: 'been at Spotify 4 years and just got promoted to senior, how do i ask for pay above the band?',
    value: 'Spotify',
  },
  {
    attribute: 'employer',
    text: 'our team at Siemens is moving to a new SAP system and nobody knows how anything works. tips to survive an ERP migration?',
    value: 'Siemens',
  },
  {
    attribute: 'employer',
    text: "I work for the NHS and the december rota just came out, I'm on christmas day AGAIN. how do i ask to swap politely?",
    value: 'NHS',
  },
  {
    attribute: 'employer',
    text: 'third christmas rush at Lidl and my feet are dead. best insoles for standing 9 hours?',
    value: 'Lidl',
  },
  {
    attribute: 'employer',
    text: 'Our all-hands at Shopify is tomorrow and I have to present Q3 numbers. help me make 5 slides punchier?',
    value: 'Shopify',
  },
  {
    attribute: 'employer',
    text: 'joined Infosys as a fresher last month and the bench period is so boring. what certs should i do meanwhile?',
    value: 'Infosys',
  },
  {
    attribute: 'employer',
    text: 'the new return to office policy at Amazon means 5 days a week and i commute 1h each way. how do i make commute time useful',
    value: 'Amazon',
  },
  {
    attribute: 'employer',
    text: 'my badge at Charité stopped working for the third time this month. help me write a short firm email to IT?',
    value: 'Charité',
  },
  {
    attribute: 'employer',
    text: 'Zalando just announced layoffs and my team might be on the list. how do i prepare, mentally and money wise?',
    value: 'Zalando',
  },
  {
    attribute: 'employer',
    text: 'started at the World Bank on monday and the dress code is way more formal than i expected. what do guys wear for business formal in DC summer?',
    value: 'World Bank',
  },
  {
    attribute: 'employer',
    text: 'Working at Nubank means my whole day is in portuguese now 😅 tips to sound less formal in chat messages in PT?',
    value: 'Nubank',
  },
  {
    attribute: 'employer',
    text: 'i do weekend shifts at Tesco and now they want me on nights. is the premium worth wrecking my sleep?',
    value: 'Tesco',
  },
  {
    attribute: 'employer',
    text: 'we at Grab are hosting an internal hackathon in jakarta next month, can u suggest fun team names?',
    value: 'Grab',
  },
  {
    attribute: 'employer',
    text: 'My manager at Deloitte wants me 95% billable. is that normal in audit? how do I push back without looking lazy',
    value: 'Deloitte',
  },
  {
    attribute: 'employer',
    text: '10 years at Toyota this april 🎌 help me write a short thank-you speech for my team',
    value: 'Toyota',
  },
  {
    attribute: 'employer',
    text: "just passed probation at Monzo!! can you help me write a linkedin post that doesn't sound cringe",
    value: 'Monzo',
  },
  {
    attribute: 'employer',
    text: "I'm with Accenture and on a client site 4 days a week, hotel food is killing me. healthy options when you live out of a hotel?",
    value: 'Accenture',
  },
  {
    attribute: 'employer',
    text: "the canteen at CERN changed the menu and it's all quinoa now lol. anyway can u explain the higgs to a 10 year old, my kid asked",
    value: 'CERN',
  },
  {
    attribute: 'employer',
    text: 'work at the BBC is chaos this week with election coverage, I need a 10 min lunch I can eat at my desk',
    value: 'BBC',
  },
  {
    attribute: 'employer',
    text: "hi, my employer is Maersk and they're moving me to the copenhagen HQ. what should I ask for in the relocation package?",
    value: 'Maersk',
  },
  {
    attribute: 'employer',
    text: 'Glovo changed how they pay us per km and its worse now. how do i work out if riding full time is still worth it?',
    value: 'Glovo',
  },
  {
    attribute: 'employer',
    text: 'My internship at Unilever ends in august and they might offer grad roles. how do I signal I really want one?',
    value: 'Unilever',
  },
  {
    attribute: 'employer',
    text: "sundays at our Ikea are insane and i'm stuck on the returns desk. how do i stay calm with angry customers?",
    value: 'Ikea',
  },
  {
    attribute: 'employer',
    text: "the microsoft campus in redmond is so big i got lost finding my new team's building 😂 tips for remembering 15 new coworkers names?",
    value: 'microsoft',
  },
  {
    attribute: 'employer',
    text: 'roster at Emirates just dropped and i have 3 ultra long hauls back to back. jetlag hacks anyone??',
    value: 'Emirates',
  },
  {
    attribute: 'employer',
    text: "I'm at Canva now, left Atlassian in march. how do i explain the switch in a friendly way to old colleagues?",
    value: 'Canva',
  },
  {
    attribute: 'employer',
    text: "overtime at Samsung Electronics this quarter is insane, i'm at the suwon campus till 11 most nights. how do i stay healthy",
    value: 'Samsung Electronics',
  },
  {
    attribute: 'employer',
    text: 'the startup i work for, Typeform, just got acquired and im scared about my stock options. what does a cliff even mean?',
    value: 'Typeform',
  },
  {
    attribute: 'employer',
    text: 'our ING office goes hybrid 3 days a week from june. can you help me plan a gym schedule around it',
    value: 'ING',
  },
  {
    attribute: 'employer',
    text: 'Been at Safaricom since 2019 on the M-Pesa side. thinking of asking for a move to data science, how do i pitch it?',
    value: 'Safaricom',
  },
  {
    attribute: 'employer',
    text: 'first day at Ocado tomorrow!! what should i bring on day one, is it weird to bring lunch',
    value: 'Ocado',
  },
  {
    attribute: 'employer',
    text: 'my company, Bosch, gives us 30 days leave and i never use them lol. help me plan 3 weeks in south america',
    value: 'Bosch',
  },
  {
    attribute: 'employer',
    text: 'Pfizer will pay for my MBA if i stay 2 more years after. is that a good deal or a trap?',
    value: 'Pfizer',
  },
  {
    attribute: 'employer',
    text: "Mercado Libre's end of year party is at a boliche lol, what do i wear that's not too much",
    value: 'Mercado Libre',
  },
  {
    attribute: 'employer',
    text: "Stripe's internal tooling is amazing but the pace is a lot. does it get easier after the first month at a big tech co?",
    value: 'Stripe',
  },
  {
    attribute: 'employer',
    text: 'still at Wipro, 6 yrs now and the hike was only 4% 😑 should i switch or wait for appraisal?',
    value: 'Wipro',
  },
  {
    attribute: 'employer',
    text: "the Ministry of Health where i work now wants us in formal wear even on fridays. what's smart but comfy for women?",
    value: 'Ministry of Health',
  },
  {
    attribute: 'employer',
    text: 'i work at Gucci, the florence office, and all meetings are in italian. how can i improve fast for work vocab?',
    value: 'Gucci',
  },
  {
    attribute: 'employer',
    text: "sooo the Netflix keeper test convo happened today and i'm paranoid 😬 how do i tell if my manager is happy with me?",
    value: 'Netflix',
  },
  {
    attribute: 'employer',
    text: 'at Rakuten english is the official language but meetings still drift into japanese. how do I keep up better?',
    value: 'Rakuten',
  },
  {
    attribute: 'employer',
    text: "Working for Oxfam has its perks but the pay is low. side hustles that don't conflict with charity work?",
    value: 'Oxfam',
  },
  {
    attribute: 'employer',
    text: 'my Starbucks shift got moved to 5am opens, how do i actually fall asleep at 9pm lol',
    value: 'Starbucks',
  },
  {
    attribute: 'employer',
    text: 'Just hit my 1 year at Ericsson 🥳 do swedes do anything for work anniversaries or is that an american thing?',
    value: 'Ericsson',
  },
  {
    attribute: null,
    text: 'back from a week in lisbon and i already miss the pastéis de nata 😭 can you give me a recipe that works in a normal oven?',
    value: null,
  },
  {
    attribute: null,
    text: 'thinking of moving to Berlin next year for the tech scene, is the rent really as bad as people say?',
    value: null,
  },
  {
    attribute: null,
    text: "my sister just started at Google in Zurich, what's a good congrats gift under 50 chf?",
    value: null,
  },
  {
    attribute: null,
    text: "had my second interview with Revolut today, they said they'd get back within a week. should i follow up on friday?",
    value: null,
  },
  {
    attribute: null,
    text: 'i used to live in rome and still dream about supplì. any place in london that does them properly?',
    value: null,
  },
  {
    attribute: null,
    text: 'is Kigali safe for a solo female traveller? planning 10 days in march',
    value: null,
  },
  {
    attribute: null,
    text: 'our client Nike wants the deck by friday and the brief changed twice. how do i push back politely on scope creep?',
    value: null,
  },
  { attribute: null, text: 'Slack is down again lol, is it just us or global?', value: null },
  {
    attribute: null,
    text: "turned down the Deloitte offer because the salary was too low and now i'm second guessing. was that dumb?",
    value: null,
  },
  {
    attribute: null,
    text: "my parents live in Porto and i'm flying over for christmas, what gifts do portuguese families usually exchange?",
    value: null,
  },
  {
    attribute: 'occupation',
    text: '3am finish again, investment banker life 🙃 what can i eat now that wont wreck my sleep',
    value: 'investment banker',
  },
  {
    attribute: 'occupation',
    text: 'as a primary school teacher i catch every single cold going. immune stuff that actually works?',
    value: 'primary school teacher',
  },
  {
    attribute: 'occupation',
    text: "night shift in ICU again, i'm an RN and my sleep schedule is toast. melatonin yes or no?",
    value: 'RN',
  },
  {
    attribute: 'occupation',
    text: 'im a bus driver and my lower back is killing me by the end of the shift. stretches i can do at the terminus?',
    value: 'bus driver',
  },
  {
    attribute: 'occupation',
    text: 'patients keep asking me about ozempic. as a GP how do i explain it in 2 minutes without sounding preachy?',
    value: 'GP',
  },
  {
    attribute: 'occupation',
    text: "freelance graphic designer here, a client hasn't paid in 60 days. how do I write a firm reminder that doesnt burn the bridge?",
    value: 'freelance graphic designer',
  },
  {
    attribute: 'occupation',
    text: 'barista life: my wrists hurt from tamping like 400 shots a day. any tips or braces?',
    value: 'barista',
  },
  {
    attribute: 'occupation',
    text: 'software engineer, 3 yoe. my tech lead keeps rejecting my PRs with zero comments. how do i bring it up?',
    value: 'software engineer',
  },
  {
    attribute: 'occupation',
    text: 'being a paramedic means i see some rough stuff. how do people decompress after a bad call?',
    value: 'paramedic',
  },
  {
    attribute: 'occupation',
    text: "i'm an electrician and want to go self employed in ontario. what insurance do i actually need?",
    value: 'electrician',
  },
  {
    attribute: 'occupation',
    text: 'busy season is worse this year or is it just me? (CPA at a mid size firm) how do i not burn out by march',
    value: 'CPA',
  },
  {
    attribute: 'occupation',
    text: "just got promoted to head chef!! 🎉 how do i manage a sous chef who's 15 years older than me",
    value: 'head chef',
  },
  {
    attribute: 'occupation',
    text: "I'm a full-time yoga instructor now and the studio wants me doing 20 classes a week. too much??",
    value: 'yoga instructor',
  },
  {
    attribute: 'occupation',
    text: 'working as a UX researcher, need a script for interviewing elderly users about a banking app. can u draft one?',
    value: 'UX researcher',
  },
  {
    attribute: 'occupation',
    text: 'im a plumber and customers keep asking for quotes over whatsapp with no photos. template message asking for pics pls',
    value: 'plumber',
  },
  {
    attribute: 'occupation',
    text: "long haul trucker here, 11 hrs on the road most days. healthy snacks that don't need a fridge?",
    value: 'long haul trucker',
  },
  {
    attribute: 'occupation',
    text: "my job as a dental hygienist means i'm hunched over mouths all day lol. good neck stretches?",
    value: 'dental hygienist',
  },
  {
    attribute: 'occupation',
    text: "I'm a high school maths teacher and a kid called me cringe in front of the class. how do i respond without losing respect lol",
    value: 'high school maths teacher',
  },
  {
    attribute: 'occupation',
    text: 'junior lawyer problems: partner dumped a 200 page contract on me at 6pm. fastest way to review it properly?',
    value: 'junior lawyer',
  },
  {
    attribute: 'occupation',
    text: "as a product manager how do I say no to the CEO's pet feature without getting fired",
    value: 'product manager',
  },
  {
    attribute: 'occupation',
    text: "I work as a translator (japanese to english) and my rates haven't moved in 5 yrs. how do I raise them without losing clients?",
    value: 'translator',
  },
  {
    attribute: 'occupation',
    text: 'taxi driver for 20 years and now the headlights at night really bother my eyes. are anti glare glasses legit?',
    value: 'taxi driver',
  },
  {
    attribute: 'occupation',
    text: 'pharmacist here, people keep asking for antibiotics without a prescription. a polite but firm line i can use?',
    value: 'pharmacist',
  },
  {
    attribute: 'occupation',
    text: "i'm a data analyst and my boss wants a dashboard by tomorrow. quickest thing i can build in power bi?",
    value: 'data analyst',
  },
  {
    attribute: 'occupation',
    text: "Im a real estate agent and the market is dead this winter. how do i generate leads when nobody's buying?",
    value: 'real estate agent',
  },
  {
    attribute: 'occupation',
    text: 'vet tech life: cleaned up after 3 sick dogs today 🤢 how do i get the smell out of scrubs',
    value: 'vet tech',
  },
  {
    attribute: 'occupation',
    text: 'as an architect i spend 10h a day in Revit and my eyes are shot. is the 20-20-20 rule legit?',
    value: 'architect',
  },
  {
    attribute: 'occupation',
    text: 'firefighter on 24 on 48 off. how do i plan meals for the crew that dont take forever?',
    value: 'firefighter',
  },
  {
    attribute: 'occupation',
    text: 'postdoc in organic chem and my PI wants results by friday that physically cannot exist by friday. how do i say that',
    value: 'postdoc',
  },
  {
    attribute: 'occupation',
    text: "hairdresser here, client wants balayage over box dyed black hair. how do i explain it'll take 3 sessions?",
    value: 'hairdresser',
  },
  {
    attribute: 'occupation',
    text: 'as a social worker my caseload is 40 families. how do i stop bringing it home emotionally?',
    value: 'social worker',
  },
  {
    attribute: 'occupation',
    text: 'im a welder and want to move into inspection eventually. whats the CSWIP route look like?',
    value: 'welder',
  },
  {
    attribute: 'occupation',
    text: 'flight attendant here, 4 day trip coming up, best way to pack super light?',
    value: 'flight attendant',
  },
  {
    attribute: 'occupation',
    text: "work nights as a security guard in a mall and it's so boring. online courses i can do on my phone?",
    value: 'security guard',
  },
  {
    attribute: 'occupation',
    text: "I'm a journalist covering local politics and a councillor just threatened to sue me. what do i do first?",
    value: 'journalist',
  },
  {
    attribute: 'occupation',
    text: 'finally landed it, junior frontend dev!! how do i not look stupid in standup lol',
    value: 'junior frontend dev',
  },
  {
    attribute: 'occupation',
    text: 'midwife here, 3 births in one shift 😴 ideas for a quick recovery meal i can make half asleep',
    value: 'midwife',
  },
  {
    attribute: 'occupation',
    text: "i'm a house cleaner and my hands are cracked from the chemicals. best gloves and hand cream?",
    value: 'house cleaner',
  },
  {
    attribute: 'occupation',
    text: 'being a sales rep means 80% of my day is rejection lol. how do you stay motivated?',
    value: 'sales rep',
  },
  {
    attribute: 'occupation',
    text: "I'm a physiotherapist and one patient keeps cancelling last minute. cancellation policy wording that's not rude?",
    value: 'physiotherapist',
  },
  {
    attribute: 'occupation',
    text: 'dairy farmer, 120 cows, and milk prices are killing us. diversification ideas that actually make money?',
    value: 'dairy farmer',
  },
  {
    attribute: 'occupation',
    text: 'i work as a cashier and my manager keeps giving me clopens. is that even allowed?',
    value: 'cashier',
  },
  {
    attribute: 'occupation',
    text: "im a copywriter and AI is eating my clients alive. how do i pivot before it's too late?",
    value: 'copywriter',
  },
  {
    attribute: 'occupation',
    text: 'site foreman on a build, need a toolbox talk on heat stress in simple english for my crew',
    value: 'site foreman',
  },
  {
    attribute: 'occupation',
    text: 'Tour guide in peak season, 5 tours a day and my voice is gone. throat remedies that actually work?',
    value: 'Tour guide',
  },
  {
    attribute: 'relationship',
    text: "we got engaged last night!!! 💍 help me pick a wedding month that's not too hot or too expensive",
    value: 'engaged',
  },
  {
    attribute: 'relationship',
    text: 'single again after 6 yrs 🙃 how do i even use hinge, what do i put in the prompts',
    value: 'single',
  },
  {
    attribute: 'relationship',
    text: 'married 10 years this friday and he forgets everything lol. cute low budget anniversary ideas?',
    value: 'married',
  },
  {
    attribute: 'relationship',
    text: 'the paperwork came through yesterday, officially divorced. feel weirdly relieved and sad at the same time. is that normal?',
    value: 'divorced',
  },
  {
    attribute: 'relationship',
    text: 'just started dating someone from my climbing gym, how soon is too soon to introduce them to friends?',
    value: 'dating',
  },
  {
    attribute: 'relationship',
    text: "newlywed here 😊 we're already fighting about whose family gets christmas. how do we split it fairly?",
    value: 'newlywed',
  },
  {
    attribute: 'relationship',
    text: 'my fiancé wants 200 guests and i want 60. help us compromise before we kill each other',
    value: 'fiancé',
  },
  {
    attribute: 'relationship',
    text: 'been single for 3 years and honestly loving it. solo trip ideas for a 35F?',
    value: 'single',
  },
  {
    attribute: 'relationship',
    text: "we're separated but still living together for the kids. how do we set boundaries that actually stick?",
    value: 'separated',
  },
  {
    attribute: 'relationship',
    text: 'got married in june and changing my surname in germany is a bureaucratic nightmare. what are the steps?',
    value: 'married',
  },
  {
    attribute: 'relationship',
    text: "my wife and I are trying for a baby, what vitamins should I take (I'm the guy lol)",
    value: 'wife',
  },
  {
    attribute: 'relationship',
    text: '3 month anniversary with my girlfriend next week, is a gift weird that early?',
    value: 'girlfriend',
  },
  {
    attribute: 'relationship',
    text: 'He asked, I said yes!! Engaged at 41 lol never thought it would happen. where do i start when i hate fuss?',
    value: 'Engaged',
  },
  {
    attribute: 'relationship',
    text: "i'm divorced with 2 kids and getting back into dating. when do i mention the kids on apps?",
    value: 'divorced',
  },
  {
    attribute: 'relationship',
    text: 'newly single, ex moved out last week. how do we split the streaming subscriptions without drama lol',
    value: 'newly single',
  },
  {
    attribute: 'relationship',
    text: 'my boyfriend and i just moved in together and he leaves socks EVERYWHERE. how do i bring it up without a fight',
    value: 'boyfriend',
  },
  {
    attribute: 'relationship',
    text: 'hubby and me have been married 25 years in may. silver anniversary ideas for two people who hate parties?',
    value: 'married',
  },
  {
    attribute: 'relationship',
    text: "i've been a widow for two years now and my friends keep pushing me to try dating. is it too soon?",
    value: 'widow',
  },
  {
    attribute: 'relationship',
    text: 'We got hitched at the registry office on Saturday, no fuss 🥂 now how do we update names on bank stuff in the UK?',
    value: 'hitched',
  },
  {
    attribute: 'relationship',
    text: "i'm in a long distance relationship, 7 hour time difference. how do we keep it from feeling like a chore?",
    value: 'long distance relationship',
  },
  {
    attribute: 'relationship',
    text: '6 weeks till the wedding and my fiancée and I still havent done the seating chart. any easy method??',
    value: 'fiancée',
  },
  {
    attribute: 'relationship',
    text: "ace and happily single, but my mum keeps asking when i'll marry. how do i answer nicely?",
    value: 'happily single',
  },
  {
    attribute: 'relationship',
    text: 'im in a situationship and i hate it lol. how do i ask what we are without scaring him off',
    value: 'situationship',
  },
  {
    attribute: 'relationship',
    text: "newly engaged and everyone's asking about the date already 😅 how do we politely say we don't know yet",
    value: 'newly engaged',
  },
  {
    attribute: 'relationship',
    text: 'as a married guy with a wife who works nights, how do we actually get quality time together?',
    value: 'married',
  },
  {
    attribute: 'relationship',
    text: "we've been together 8 years but never married, and now her parents keep asking. how do I respond?",
    value: 'never married',
  },
  {
    attribute: 'relationship',
    text: 'my husband snores like a tractor. is separate bedrooms a bad sign or normal after 15 years?',
    value: 'husband',
  },
  {
    attribute: 'relationship',
    text: 'ok so im officially seeing someone 🙈 first time in ages. what do you even do on a 4th date',
    value: 'seeing someone',
  },
  {
    attribute: 'relationship',
    text: 'divorced since last spring and the holidays are hitting hard this year. tips for spending christmas alone?',
    value: 'divorced',
  },
  {
    attribute: 'relationship',
    text: 'me and my partner got engaged in Paris last week, so cliche i know 😂 help me write the announcement post',
    value: 'engaged',
  },
  {
    attribute: 'relationship',
    text: "I'm single and 29 and my whole friend group is getting married. how do i stop feeling behind?",
    value: 'single',
  },
  {
    attribute: 'relationship',
    text: "just celebrated 1 year of marriage 🥹 what's the traditional 1st anniversary gift? paper?",
    value: 'marriage',
  },
  {
    attribute: 'relationship',
    text: 'my girlfriend and I are arguing about where to spend christmas, her family or mine. fair way to decide?',
    value: 'girlfriend',
  },
  {
    attribute: 'relationship',
    text: "we're engaged but want a tiny elopement instead of a wedding. how do we tell our parents?",
    value: 'engaged',
  },
  {
    attribute: 'relationship',
    text: 'recently separated from my husband after 12 yrs. how do i explain it to our 7 year old?',
    value: 'separated',
  },
  {
    attribute: 'relationship',
    text: "still single lol, my 30th is next month. give me ideas for a fun birthday that's not depressing",
    value: 'single',
  },
  {
    attribute: 'relationship',
    text: 'My wife keeps saying I never plan date nights. 5 easy ideas for a married couple with a toddler?',
    value: 'married couple',
  },
  {
    attribute: 'relationship',
    text: 'boyfriend of 2 yrs wants to move in, im not sure im ready. how do i tell him without hurting him',
    value: 'boyfriend',
  },
  {
    attribute: 'relationship',
    text: 'just got engaged to my high school sweetheart!!! wedding budget tips for broke 24 year olds pls',
    value: 'engaged',
  },
  {
    attribute: 'relationship',
    text: "It's been 5 months since the divorce and I'm finally ready to get back out there. which app is best for 40+?",
    value: 'divorce',
  },
  {
    attribute: 'relationship',
    text: 'casually dating two people rn and idk how to choose 😭 how do people decide',
    value: 'casually dating',
  },
  {
    attribute: 'relationship',
    text: 'we tied the knot last month!! now the thank you cards are haunting me. template pls',
    value: 'tied the knot',
  },
  {
    attribute: 'relationship',
    text: 'newlyweds on a budget here — honeymoon ideas in europe under 2k for two?',
    value: 'newlyweds',
  },
  {
    attribute: 'relationship',
    text: 'my wife of 30 years wants to learn salsa together. I have two left feet. how do i not embarrass myself',
    value: 'wife',
  },
  {
    attribute: 'relationship',
    text: "sooo i'm back on the apps, single since march. how do i write a bio that isnt boring",
    value: 'single',
  },
  {
    attribute: null,
    text: 'my best friend just got engaged and asked me to be maid of honour, what are my duties?',
    value: null,
  },
  {
    attribute: null,
    text: 'my ex-colleague got married last weekend and i totally forgot to send a gift, is it too late to send one now?',
    value: null,
  },
  {
    attribute: null,
    text: 'my brother is a pilot and says jet lag never bothers him, is that real or is he lying lol',
    value: null,
  },
  {
    attribute: null,
    text: "i'm not a teacher but my kid's teacher asked me to help with a class presentation on careers. ideas?",
    value: null,
  },
  { attribute: null, text: 'thinking about retraining as a nurse at 35, is it too late?', value: null },
  {
    attribute: null,
    text: "my parents are getting divorced after 30 years and i don't know what to say to either of them",
    value: null,
  },
  {
    attribute: null,
    text: 'had an interview for a junior lawyer role yesterday, how long should i wait before chasing?',
    value: null,
  },
  { attribute: null, text: "what's the difference between an RN and an LPN in the US?", value: null },
  {
    attribute: null,
    text: 'writing a short story where the main character gets dumped at a wedding, can you help me with the dialogue?',
    value: null,
  },
  {
    attribute: null,
    text: 'my coworker is a part time DJ on weekends and wants feedback on his mix, how do i give honest feedback?',
    value: null,
  },
  {
    attribute: 'partner',
    text: "my wife Amara's birthday is sunday and she's said 'nothing big' 3 times which means something big. ideas?",
    value: 'Amara',
  },
  {
    attribute: 'partner',
    text: 'Tomás and I have been together 4 years and he still hates my cooking lol. easy argentine dishes i could surprise him with?',
    value: 'Tomás',
  },
  {
    attribute: 'partner',
    text: 'my boyfriend Kenji snores so loud the neighbours complained 😂 is mouth tape safe?',
    value: 'Kenji',
  },
  {
    attribute: 'partner',
    text: 'help me plan a surprise weekend for my girlfriend Priya, she loves hiking and hates crowds',
    value: 'Priya',
  },
  {
    attribute: 'partner',
    text: "husband (Declan) wants a motorbike for his 40th and I'm terrified. how do I talk him into a safety course at least",
    value: 'Declan',
  },
  {
    attribute: 'partner',
    text: 'me and Fatou are moving in together next month, how do we split bills fairly when she earns more?',
    value: 'Fatou',
  },
  {
    attribute: 'partner',
    text: "my partner Sam is vegan and i'm cooking for his parents who are very much not. menu ideas that work for everyone?",
    value: 'Sam',
  },
  {
    attribute: 'partner',
    text: 'Lukas keeps leaving the cupboard doors open and it drives me insane. is this a relationship dealbreaker lol (jk... mostly)',
    value: 'Lukas',
  },
  {
    attribute: 'partner',
    text: "wife's name is Yasmin and our 5th anniversary is coming up. can you write a short poem that uses her name?",
    value: 'Yasmin',
  },
  {
    attribute: 'partner',
    text: 'my fiancé Oluwaseun wants a traditional wedding in Ibadan and a white wedding in London. how do we budget for both?',
    value: 'Oluwaseun',
  },
  {
    attribute: 'partner',
    text: 'gf Chloé is french and i want to surprise her by ordering in french at dinner. teach me 5 phrases?',
    value: 'Chloé',
  },
  {
    attribute: 'partner',
    text: "Matteo (my bf) got a promotion today!! what's a quick celebratory dinner I can make in 45 min",
    value: 'Matteo',
  },
  {
    attribute: 'partner',
    text: 'my husband Raj has been so stressed with work, how can i help without nagging?',
    value: 'Raj',
  },
  {
    attribute: 'partner',
    text: 'Ingrid and me are arguing about whether to get a dog. she wants a husky, i want a cat. mediate pls',
    value: 'Ingrid',
  },
  {
    attribute: 'partner',
    text: "boyfriend Mateus doesn't speak english well and my parents don't speak portuguese. how do i make the first meeting less awkward?",
    value: 'Mateus',
  },
  {
    attribute: 'partner',
    text: 'my wife Hannah is due in march and she wants a babymoon. somewhere warm but short flight from UK?',
    value: 'Hannah',
  },
  {
    attribute: 'partner',
    text: 'Ji-woo, my girlfriend, is coming to meet my family in Ohio. what should I warn her about lol',
    value: 'Ji-woo',
  },
  {
    attribute: 'partner',
    text: 'my partner Alex gets really quiet when upset and I never know what to do. how do I support him?',
    value: 'Alex',
  },
  {
    attribute: 'partner',
    text: "cooking for my boyfriend Dmitri tonight, he's from Kyiv, can you suggest a borscht recipe that won't embarrass me?",
    value: 'Dmitri',
  },
  {
    attribute: 'partner',
    text: "my husband Mohammed and I want to learn to swim together as adults. how do we find lessons that aren't awkward?",
    value: 'Mohammed',
  },
  {
    attribute: 'partner',
    text: "Isabella said she wants a 'cozy' birthday this year. she's my wife, 34, loves books. ideas?",
    value: 'Isabella',
  },
  {
    attribute: 'partner',
    text: "my girlfriend Zanele starts her new job monday, what's a cute good luck thing i can leave her?",
    value: 'Zanele',
  },
  {
    attribute: 'partner',
    text: 'Ben my hubby has taken up sourdough and our kitchen is a crime scene. how do I encourage it but contain the mess lol',
    value: 'Ben',
  },
  {
    attribute: 'partner',
    text: 'Chiara e io are doing our first big trip together, 2 weeks japan. itinerary help? she loves temples, i love food',
    value: 'Chiara',
  },
  {
    attribute: 'partner',
    text: "my bf Arjun wants to propose I think?? he keeps asking my ring size 'for a friend'. how do I act surprised",
    value: 'Arjun',
  },
  {
    attribute: 'partner',
    text: "my wife Ngozi and I can't agree on a baby name. her list vs mine, can you help us find a middle ground?",
    value: 'Ngozi',
  },
  {
    attribute: 'partner',
    text: 'date night ideas in a small town? me and Tyler have done dinner and a movie like 40 times',
    value: 'Tyler',
  },
  {
    attribute: 'partner',
    text: "Sofía, mi novia, doesn't like spicy food but i do. how do i cook one curry for both of us?",
    value: 'Sofía',
  },
  {
    attribute: 'partner',
    text: 'my husband Pieter is dutch and refuses to eat dinner after 6:30 lol. how do i adjust to this schedule?',
    value: 'Pieter',
  },
  {
    attribute: 'partner',
    text: 'living with my partner Jordan and we have totally different sleep schedules. tips to not wake each other?',
    value: 'Jordan',
  },
  {
    attribute: 'partner',
    text: 'my girlfriend Aiyana is an artist, i want to get her a gift that actually helps her work. ideas under $100?',
    value: 'Aiyana',
  },
  {
    attribute: 'partner',
    text: "my boyfriend Finn snores and we've tried nasal strips, side pillow, no alcohol... what's left before a sleep clinic?",
    value: 'Finn',
  },
  {
    attribute: 'partner',
    text: 'my wife Mei has started running marathons and I want to support her. what do you bring to cheer on race day?',
    value: 'Mei',
  },
  {
    attribute: 'partner',
    text: 'my fiancée Roisin wants a wedding in Donegal in december 😬 is that insane weather-wise?',
    value: 'Roisin',
  },
  {
    attribute: 'partner',
    text: 'Hamza, my husband, is fasting for ramadan and works construction. how can I help him stay hydrated at suhoor?',
    value: 'Hamza',
  },
  {
    attribute: 'partner',
    text: 'my girlfriend Elif is turkish and her mum is visiting us for a month. how do i make a good impression?',
    value: 'Elif',
  },
  {
    attribute: 'partner',
    text: "Carlos (my partner of 6 yrs) wants to move back to mexico, i don't speak spanish. how do i even start thinking about this",
    value: 'Carlos',
  },
  {
    attribute: 'partner',
    text: "my boyfriend Nikhil is obsessed with cricket and i want to understand it for the world cup. explain like i'm 5",
    value: 'Nikhil',
  },
  {
    attribute: 'partner',
    text: 'wifey Thandi just passed her bar exam 🎉 help me throw a surprise party with 3 days notice',
    value: 'Thandi',
  },
  {
    attribute: 'partner',
    text: 'my husband Oscar and I want to do a cheap weekend away from stockholm by train. ideas?',
    value: 'Oscar',
  },
  {
    attribute: 'partner',
    text: "Emma, my wife, hates surprises but I want to mark our 10 years. how do I do something special she's in on?",
    value: 'Emma',
  },
  {
    attribute: 'partner',
    text: 'gotta ask, my bf Ravi wants us to have a joint bank account after 1 year of dating. too early?',
    value: 'Ravi',
  },
  {
    attribute: 'partner',
    text: 'Aleksandra (my gf) says I never listen. how do I actually get better at listening?',
    value: 'Aleksandra',
  },
  {
    attribute: 'partner',
    text: "my husband Kwame is turning 50 and wants to learn guitar. what's a good first acoustic under 300?",
    value: 'Kwame',
  },
  {
    attribute: 'partner',
    text: 'me and my girlfriend Noor just signed our first lease together! what do couples usually fight about when moving in?',
    value: 'Noor',
  },
  {
    attribute: 'pet',
    text: 'Hachi the shiba refuses to walk in the snow, just plants his butt down. do dog boots help?',
    value: 'Hachi',
  },
  {
    attribute: 'pet',
    text: 'my cat Miso keeps knocking glasses off the table at 4am. how do i make her stop',
    value: 'Miso',
  },
  {
    attribute: 'pet',
    text: 'our rescue greyhound Bella is scared of the hoover. any desensitisation tips?',
    value: 'Bella',
  },
  {
    attribute: 'pet',
    text: 'got a bearded dragon last week, what temp should the basking spot be?',
    value: 'bearded dragon',
  },
  {
    attribute: 'pet',
    text: 'Pickle our guinea pig is squeaking all night, is he lonely? should we get a second one?',
    value: 'Pickle',
  },
  {
    attribute: 'pet',
    text: 'my two rats, Salt and Pepper, keep escaping their cage. what cage bar spacing should I get?',
    value: 'Salt and Pepper',
  },
  {
    attribute: 'pet',
    text: 'biscuit (golden retriever, 8 months) eats literally everything on walks. how do i teach leave it?',
    value: 'biscuit',
  },
  {
    attribute: 'pet',
    text: "My parrot Kiko has learned to copy the microwave beep and it's driving me mad lol. can i unteach that?",
    value: 'Kiko',
  },
  {
    attribute: 'pet',
    text: 'the kitten we adopted on saturday hides under the sofa all day. how long until she settles?',
    value: 'kitten',
  },
  {
    attribute: 'pet',
    text: 'my old boy Rocky (labrador, 13) is struggling with stairs now. ramp or carry him?',
    value: 'Rocky',
  },
  {
    attribute: 'pet',
    text: 'Nala my husky has destroyed a third sofa cushion this week 😩 how much exercise does she actually need?',
    value: 'Nala',
  },
  {
    attribute: 'pet',
    text: "our bunny Clover won't eat her pellets anymore, only hay. is that bad?",
    value: 'Clover',
  },
  {
    attribute: 'pet',
    text: "how often should I change the water for my betta? his name's Sushi and he lives in a 20L tank",
    value: 'Sushi',
  },
  {
    attribute: 'pet',
    text: "i have a leopard gecko named Mango and he hasn't pooped in a week. should I worry?",
    value: 'Mango',
  },
  {
    attribute: 'pet',
    text: 'the cat (Luna, 4yo tabby) is suddenly peeing outside the litter box. vet or behavioural?',
    value: 'Luna',
  },
  {
    attribute: 'pet',
    text: 'my corgi Waffles is getting chunky lol. how many treats a day is too many?',
    value: 'Waffles',
  },
  {
    attribute: 'pet',
    text: 'Simba our maine coon sheds like crazy in spring, best brush for long hair?',
    value: 'Simba',
  },
  {
    attribute: 'pet',
    text: "we have a tortoise called Gerald who's 40 years older than me lol. how do I set him up for hibernation?",
    value: 'Gerald',
  },
  {
    attribute: 'pet',
    text: 'my dachshund Oskar barks at every single person walking past the window. how to stop this?',
    value: 'Oskar',
  },
  {
    attribute: 'pet',
    text: "just adopted a street dog here, she's called Chai. what vaccines does she need first?",
    value: 'Chai',
  },
  {
    attribute: 'pet',
    text: 'two budgies, Kiwi and Lemon, and they fight constantly. separate cages or wait it out?',
    value: 'Kiwi and Lemon',
  },
  {
    attribute: 'pet',
    text: 'Pepper my border collie is bored out of her mind in our apartment. brain games for a smart dog?',
    value: 'Pepper',
  },
  {
    attribute: 'pet',
    text: 'our hamster Nugget bites every time we pick him up. is he just grumpy or in pain?',
    value: 'Nugget',
  },
  {
    attribute: 'pet',
    text: 'my cat Bao throws up hairballs twice a week. is that normal or should I change her food?',
    value: 'Bao',
  },
  {
    attribute: 'pet',
    text: 'the axolotl i got for my birthday (his name is Blub lol) has fluffy gills, is that a fungal thing?',
    value: 'Blub',
  },
  {
    attribute: 'pet',
    text: 'Tofu the french bulldog snores louder than my dad. is that a breathing problem?',
    value: 'Tofu',
  },
  {
    attribute: 'pet',
    text: 'my horse Duchess is lame on her front left after jumping yesterday. what do I check before calling the vet?',
    value: 'Duchess',
  },
  {
    attribute: 'pet',
    text: 'our sphynx cat needs a bath every week?? how do you even bathe a cat without losing an arm',
    value: 'sphynx cat',
  },
  {
    attribute: 'pet',
    text: 'Max, our staffy, pulls like a train on the lead. harness or head collar?',
    value: 'Max',
  },
  {
    attribute: 'pet',
    text: 'any tips for flying with a cat? taking Zeus (ragdoll) with us when we fly to see family',
    value: 'Zeus',
  },
  {
    attribute: 'pet',
    text: 'my chickens stopped laying since october. is it the daylight? we have 4 hens',
    value: 'chickens',
  },
  {
    attribute: 'pet',
    text: 'Ollie my cockapoo is terrified of fireworks and diwali is next week. what actually helps?',
    value: 'Ollie',
  },
  {
    attribute: 'pet',
    text: 'Loki, my black cat, bit the vet 🙈 she says he needs sedation next time. is that safe?',
    value: 'Loki',
  },
  {
    attribute: 'pet',
    text: "i've got a ball python called Noodle and she's refusing frozen mice. what do i try?",
    value: 'Noodle',
  },
  {
    attribute: 'pet',
    text: 'new puppy (beagle, 10 weeks) cries all night in the crate. do I go to him or not?',
    value: 'beagle',
  },
  {
    attribute: 'pet',
    text: 'my goldfish Gordon has lived 9 years in a bowl 😬 should i upgrade him to a tank now or would the shock kill him?',
    value: 'Gordon',
  },
  {
    attribute: 'pet',
    text: "two cats, Mochi & Dango, and Dango keeps stealing Mochi's food. separate feeding setups?",
    value: 'Mochi & Dango',
  },
  {
    attribute: 'pet',
    text: 'our rescue podenco Lola is afraid of men, including my husband. how to build trust?',
    value: 'Lola',
  },
  {
    attribute: 'pet',
    text: "coco my poodle needs grooming every 6 weeks and it's £70 each time. can I learn to do it at home?",
    value: 'coco',
  },
  {
    attribute: 'pet',
    text: 'my ferret Bandit stole my car keys and hid them somewhere 😂 where do ferrets usually stash stuff?',
    value: 'Bandit',
  },
  {
    attribute: 'pet',
    text: 'adopted a three-legged cat called Tripod from the shelter, how do i make the flat easier for him?',
    value: 'Tripod',
  },
  {
    attribute: 'pet',
    text: 'Bruno my boxer is 10 and has a lump on his side. how urgent is this?',
    value: 'Bruno',
  },
  {
    attribute: 'pet',
    text: 'we keep bees in the back garden, 2 hives. how do i stop them swarming this spring?',
    value: 'bees',
  },
  {
    attribute: 'pet',
    text: 'Peanut (my chihuahua) shivers all the time even when warm. is that normal for the breed?',
    value: 'Peanut',
  },
  {
    attribute: 'pet',
    text: 'my Akita Yuki is very territorial with other dogs. is doggy daycare a bad idea for her?',
    value: 'Yuki',
  },
  {
    attribute: null,
    text: "my neighbour's cat keeps coming into our flat and my landlord said no pets. how do i politely stop it?",
    value: null,
  },
  {
    attribute: null,
    text: "my colleague's dog just had puppies and she's offering me one, should I? I work long hours",
    value: null,
  },
  {
    attribute: null,
    text: 'we had a cat growing up but he passed years ago, and now my kids want a hamster. good first pet?',
    value: null,
  },
  {
    attribute: null,
    text: 'is a husky a good apartment dog? asking before i commit to anything',
    value: null,
  },
  {
    attribute: null,
    text: "my best friend's boyfriend Jake keeps making jokes about her weight, should i say something?",
    value: null,
  },
  {
    attribute: null,
    text: 'my sister and her husband Andre are visiting for a week, what can we do with them in winter?',
    value: null,
  },
  {
    attribute: null,
    text: "dog sitting my cousin's labrador this weekend, what food do i need to buy?",
    value: null,
  },
  {
    attribute: null,
    text: 'my ex Tom just texted me happy birthday after 2 years no contact. do i reply?',
    value: null,
  },
  {
    attribute: null,
    text: "i'm allergic to cats which sucks because i'd love one. are hypoallergenic breeds a real thing?",
    value: null,
  },
  {
    attribute: null,
    text: "my mum's new partner Geoff seems nice but she's moving fast. how do i bring it up with her?",
    value: null,
  },
  {
    attribute: 'school',
    text: 'the library at Uni Wien closes at 8 and i have an exam on monday 😭 any 24h study spots in vienna?',
    value: 'Uni Wien',
  },
  {
    attribute: 'school',
    text: "freshers week at UCL was a blur lol. how do i actually make friends now that it's over?",
    value: 'UCL',
  },
  {
    attribute: 'school',
    text: 'im in 2nd year at IIT Bombay and placement season is scary. how do i prep for DSA rounds in 8 weeks?',
    value: 'IIT Bombay',
  },
  {
    attribute: 'school',
    text: 'my MIT problem sets take like 20 hours each. is that normal or am I just slow?',
    value: 'MIT',
  },
  {
    attribute: 'school',
    text: 'Sciences Po makes us do a year abroad and I have to pick between Montreal and Tokyo. pros/cons?',
    value: 'Sciences Po',
  },
  {
    attribute: 'school',
    text: "help me email my professor at the University of Toronto asking for an extension without sounding like i'm making excuses",
    value: 'University of Toronto',
  },
  {
    attribute: 'school',
    text: 'the dining hall at Stanford has run out of oat milk AGAIN. ok unrelated, how do I do a literature review quickly?',
    value: 'Stanford',
  },
  {
    attribute: 'school',
    text: 'first semester at TU München and the analysis lectures are brutal. any youtube channels that explain in english?',
    value: 'TU München',
  },
  {
    attribute: 'school',
    text: 'studying law at Trinity College Dublin and the reading list is insane. how do people actually get through it?',
    value: 'Trinity College Dublin',
  },
  {
    attribute: 'school',
    text: "ok so i'm doing my masters at LSE and the rent is destroying me. student discounts in london i should know about?",
    value: 'LSE',
  },
  {
    attribute: 'school',
    text: 'Year 12 at Melbourne High and ATAR stress is real. how many hours should i be studying per day?',
    value: 'Melbourne High',
  },
  {
    attribute: 'school',
    text: 'my dorm at Seoul National University has a 1am curfew lol. how do students here go out at all?',
    value: 'Seoul National University',
  },
  {
    attribute: 'school',
    text: 'Wits exam timetable just dropped and I have 3 papers in 2 days. help me make a revision plan?',
    value: 'Wits',
  },
  {
    attribute: 'school',
    text: 'started my PhD at ETH Zürich this fall and i feel like an impostor. does that ever go away?',
    value: 'ETH Zürich',
  },
  {
    attribute: 'school',
    text: "sophomore at UT Austin, trying to decide between CS and econ. how did you decide?? (i know you're an AI lol)",
    value: 'UT Austin',
  },
  {
    attribute: 'school',
    text: "USP's strike has cancelled classes for 3 weeks now, how do i keep studying on my own?",
    value: 'USP',
  },
  {
    attribute: 'school',
    text: 'the group project at NUS has one guy who does nothing. how do we handle it without the prof?',
    value: 'NUS',
  },
  {
    attribute: 'school',
    text: 'im doing an MBA at INSEAD and the pace is intense. networking tips for an introvert?',
    value: 'INSEAD',
  },
  {
    attribute: 'school',
    text: 'studying medicine at Makerere and our anatomy exams are next week. mnemonics for the brachial plexus please',
    value: 'Makerere',
  },
  {
    attribute: 'school',
    text: 'my uni is KU Leuven and the exam period in january is killing me. best study cafés in leuven?',
    value: 'KU Leuven',
  },
  {
    attribute: 'school',
    text: "tomorrow is my first lecture at Tec de Monterrey and I'm nervous lol, what should I bring?",
    value: 'Tec de Monterrey',
  },
  {
    attribute: 'school',
    text: "I'm a junior at Howard and want to study abroad next spring. how do I convince my parents?",
    value: 'Howard',
  },
  {
    attribute: 'school',
    text: "the wifi at Sorbonne Université is unusable, can't even load moodle. how do i study offline better?",
    value: 'Sorbonne Université',
  },
  {
    attribute: 'school',
    text: "doing my A levels at Hills Road sixth form and i can't focus at home. pomodoro or something else?",
    value: 'Hills Road',
  },
  {
    attribute: 'school',
    text: 'Uni of Cape Town residence food is so bad lol, cheap meals I can cook in a shared kitchen?',
    value: 'Uni of Cape Town',
  },
  {
    attribute: 'school',
    text: 'Bocconi grading is so harsh, got a 24 and feel like dying. is that actually bad?',
    value: 'Bocconi',
  },
  {
    attribute: 'school',
    text: "i'm at McGill doing engineering and the french requirement is stressing me out. fastest way to reach B1?",
    value: 'McGill',
  },
  {
    attribute: 'school',
    text: "waseda's english program has so many group presentations, how do i make better slides?",
    value: 'waseda',
  },
  {
    attribute: 'school',
    text: 'i study at the University of Nairobi and the lecturers never post notes online. how do i organise my own?',
    value: 'University of Nairobi',
  },
  {
    attribute: 'school',
    text: "our dorm at Tsinghua gets so cold in winter, small heater suggestions that won't trip the breaker?",
    value: 'Tsinghua',
  },
  {
    attribute: 'school',
    text: "final year at Edinburgh Napier, dissertation due in 6 weeks and i've written 800 words 😬 plan pls",
    value: 'Edinburgh Napier',
  },
  {
    attribute: 'school',
    text: "apparently at Oxford we can't wear just anything to exams, what is sub fusc exactly??",
    value: 'Oxford',
  },
  {
    attribute: 'school',
    text: 'my community college (Santa Monica College) has a transfer agreement with UCLA. how do I maximise my chances?',
    value: 'Santa Monica College',
  },
  {
    attribute: 'school',
    text: 'lectures at UBA are packed, sometimes i sit on the floor lol. tips for taking notes without a desk?',
    value: 'UBA',
  },
  {
    attribute: 'school',
    text: 'my first year at Uppsala and the nation system confuses me, which nation should i join?',
    value: 'Uppsala',
  },
  {
    attribute: 'school',
    text: 'exchange semester here at Kyoto University, how do I make japanese friends outside class?',
    value: 'Kyoto University',
  },
  {
    attribute: 'school',
    text: "at Monash we have to do 20h of placement and I can't find one. how do I cold email?",
    value: 'Monash',
  },
  {
    attribute: 'school',
    text: "I'm a second year at Universidad de Chile and the professor only teaches from slides. how do i learn better?",
    value: 'Universidad de Chile',
  },
  {
    attribute: 'school',
    text: "Berkeley housing lottery is tomorrow and i'm stressed. how do i choose between co-ops and dorms?",
    value: 'Berkeley',
  },
  {
    attribute: 'school',
    text: 'in my last year at the Lycée Français de Madrid and choosing between bac spécialités, help?',
    value: 'Lycée Français de Madrid',
  },
  {
    attribute: 'school',
    text: 'Politecnico di Milano architecture studio has all nighters every week. how do i survive?',
    value: 'Politecnico di Milano',
  },
  {
    attribute: 'school',
    text: 'the career fair at Georgia Tech is next week, how should i pitch myself in 30 seconds?',
    value: 'Georgia Tech',
  },
  {
    attribute: 'school',
    text: 'part-time student at the Open University, working full time too. how do i find time for TMAs?',
    value: 'Open University',
  },
  {
    attribute: 'school',
    text: 'im in grade 11 at Jakarta Intercultural School and my IB EE topic got rejected. ideas for economics?',
    value: 'Jakarta Intercultural School',
  },
  {
    attribute: 'school',
    text: 'Studying nursing at Deakin and placements start in 2 weeks, what should i pack?',
    value: 'Deakin',
  },
  {
    attribute: 'car',
    text: 'my old Polo failed its MOT on emissions. fix it or finally scrap it?',
    value: 'Polo',
  },
  {
    attribute: 'car',
    text: 'my Civic is making a grinding noise when I brake. how urgent is that?',
    value: 'Civic',
  },
  {
    attribute: 'car',
    text: 'the Tesla Model 3 range drops so much in winter, is preconditioning worth it?',
    value: 'Tesla Model 3',
  },
  {
    attribute: 'car',
    text: 'just bought a 2012 Land Cruiser and the AC blows warm. regas or something worse?',
    value: 'Land Cruiser',
  },
  {
    attribute: 'car',
    text: 'my Fiat Panda is 14 years old and still going lol. what maintenance should i do to keep it alive?',
    value: 'Fiat Panda',
  },
  {
    attribute: 'car',
    text: "how do i clean dog hair out of the back seats of my Outback? it's everywhere",
    value: 'Outback',
  },
  {
    attribute: 'car',
    text: 'Corolla hybrid getting 4.1 l/100km in town, is that good or should it be better?',
    value: 'Corolla hybrid',
  },
  {
    attribute: 'car',
    text: 'the infotainment in my Kia Niro keeps rebooting. is a software update a dealer thing?',
    value: 'Kia Niro',
  },
  {
    attribute: 'car',
    text: 'winter tyres for my Golf GTI, are the pirelli sottozero worth it or go michelin?',
    value: 'Golf GTI',
  },
  {
    attribute: 'car',
    text: 'bought a second-hand Nissan Leaf, battery health is 78%. will it last another 5 years?',
    value: 'Nissan Leaf',
  },
  {
    attribute: 'car',
    text: 'my Hilux has a new rattle from the rear, is it the leaf springs?',
    value: 'Hilux',
  },
  {
    attribute: 'car',
    text: 'squeezing a baby seat into my Mini Cooper is a nightmare. which car seat fits small cars best?',
    value: 'Mini Cooper',
  },
  {
    attribute: 'car',
    text: 'F-150 payload question: can I haul a tonne of gravel in the bed?',
    value: 'F-150',
  },
  {
    attribute: 'car',
    text: "my Swift's check engine light came on after filling up. loose cap maybe?",
    value: 'Swift',
  },
  {
    attribute: 'car',
    text: 'Volvo XC60 wants a 30,000 service that costs £600. can I go to an independent garage without voiding anything?',
    value: 'Volvo XC60',
  },
  {
    attribute: 'car',
    text: 'the paint on my Mazda CX-5 is chipping on the bonnet. touch up or full respray?',
    value: 'Mazda CX-5',
  },
  {
    attribute: 'car',
    text: 'my trusty Hyundai i10 just hit 200k km 🎉 how long can these things actually go?',
    value: 'Hyundai i10',
  },
  {
    attribute: 'car',
    text: 'Jeep Wrangler roof leaks when it rains, classic I know. any permanent fix?',
    value: 'Jeep Wrangler',
  },
  {
    attribute: 'car',
    text: 'Skoda Octavia estate, best roof box for a family trip to france?',
    value: 'Skoda Octavia',
  },
  {
    attribute: 'car',
    text: 'i drive a BMW 320d and the DPF warning keeps coming on. is a motorway run enough?',
    value: 'BMW 320d',
  },
  {
    attribute: 'car',
    text: 'my Prius got its catalytic converter stolen overnight 😤 what do i do first?',
    value: 'Prius',
  },
  {
    attribute: 'car',
    text: 'Renault Clio keeps stalling at lights, what could it be?',
    value: 'Renault Clio',
  },
  {
    attribute: 'car',
    text: 'does my Peugeot 208 need premium fuel or is regular fine?',
    value: 'Peugeot 208',
  },
  {
    attribute: 'car',
    text: "the Model Y's phantom braking scared the life out of me on the highway today. normal?",
    value: 'Model Y',
  },
  { attribute: 'car', text: 'is it worth getting ceramic coating on a brand new RAV4?', value: 'RAV4' },
  {
    attribute: 'car',
    text: "my Dacia Duster's windscreen is fogging from inside constantly. why?",
    value: 'Dacia Duster',
  },
  {
    attribute: 'car',
    text: 'Ford Fiesta gearbox is clunky in 2nd now, clutch or gearbox?',
    value: 'Ford Fiesta',
  },
  {
    attribute: 'car',
    text: 'my BYD Atto 3 charges so slow at home, 7kW wallbox. normal?',
    value: 'BYD Atto 3',
  },
  {
    attribute: 'car',
    text: "Audi A4 Avant, the MMI screen won't retract. any tricks before I go to the dealer?",
    value: 'Audi A4 Avant',
  },
  {
    attribute: 'car',
    text: "how do i stop my Miata from getting so hot inside in summer? it's a soft top",
    value: 'Miata',
  },
  {
    attribute: 'car',
    text: "my Tata Nexon's tyre pressure light keeps flashing, all tyres look fine. why?",
    value: 'Tata Nexon',
  },
  {
    attribute: 'car',
    text: 'VW ID.4 owners, does your heat pump actually help in winter? mine feels useless',
    value: 'VW ID.4',
  },
  {
    attribute: 'car',
    text: 'my Vitz rusted through at the sill, worth welding or let it go?',
    value: 'Vitz',
  },
  {
    attribute: 'car',
    text: 'just got the keys to a used Mercedes C-Class!! what should i check in the first month?',
    value: 'Mercedes C-Class',
  },
  {
    attribute: 'car',
    text: 'Honda Jazz boot seats folded, can I fit a bike in without taking the wheel off?',
    value: 'Honda Jazz',
  },
  {
    attribute: 'car',
    text: 'my Range Rover Evoque air suspension warning came on, am I in for a huge bill?',
    value: 'Range Rover Evoque',
  },
  {
    attribute: 'car',
    text: "Subaru Forester's CVT whines at 60kmh. common issue?",
    value: 'Subaru Forester',
  },
  {
    attribute: 'car',
    text: "the sliding door on my Sienna won't close properly, it bounces back open. fix?",
    value: 'Sienna',
  },
  {
    attribute: 'car',
    text: "my Polestar 2 app won't connect to the car since the update. anyone else?",
    value: 'Polestar 2',
  },
  {
    attribute: 'car',
    text: 'Toyota Innova AC is weak in the back row, our family of 7 is suffering lol. ideas?',
    value: 'Toyota Innova',
  },
  {
    attribute: 'car',
    text: 'i drive an old Citroën C3 Picasso and the heater only blows cold. heater core?',
    value: 'Citroën C3 Picasso',
  },
  {
    attribute: 'car',
    text: 'my Mustang is mostly a summer car, how do i store it for winter properly?',
    value: 'Mustang',
  },
  {
    attribute: 'car',
    text: 'Proton Saga battery keeps dying if I leave it 3 days. parasitic drain?',
    value: 'Proton Saga',
  },
  {
    attribute: 'car',
    text: 'Chevy Bolt battery recall is finally done, do I need to do anything else?',
    value: 'Chevy Bolt',
  },
  {
    attribute: 'car',
    text: 'my ute (Ranger) needs new tyres, all terrain or highway terrain for mostly city driving?',
    value: 'Ranger',
  },
  {
    attribute: null,
    text: "back when i drove a Corolla i never had problems, now i'm thinking of buying a Kia. any experience?",
    value: null,
  },
  {
    attribute: null,
    text: "I'd love a Tesla one day but the insurance prices are crazy. is it ever going to get cheaper?",
    value: null,
  },
  {
    attribute: null,
    text: "my dad's Land Rover broke down again, he refuses to sell it lol. how do i convince him?",
    value: null,
  },
  {
    attribute: null,
    text: "test drove a BMW i4 today, so smooth. what's the real world range like?",
    value: null,
  },
  {
    attribute: null,
    text: 'thinking about applying to Oxford for a masters, is the personal statement important?',
    value: null,
  },
  {
    attribute: null,
    text: 'my little brother just got into McGill!! what should I get him as a going away gift?',
    value: null,
  },
  {
    attribute: null,
    text: 'i graduated from UCL in 2018 and they keep asking me for donations lol. how do i unsubscribe?',
    value: null,
  },
  {
    attribute: null,
    text: 'rented a Fiat 500 in Sicily last summer and it was so fun to drive. are they reliable long-term?',
    value: null,
  },
  {
    attribute: null,
    text: 'got rejected from MIT today. how do i handle this without spiralling?',
    value: null,
  },
  {
    attribute: null,
    text: 'is a Nissan Leaf a good first EV for a student? my friend is considering one',
    value: null,
  },
  {
    attribute: 'diet',
    text: "I'm vegan now, 3 months in, and my b12 came back low. supplement or fortified stuff?",
    value: 'vegan',
  },
  {
    attribute: 'diet',
    text: "keto day 12 and i've got the worst headache lol. is this the keto flu thing?",
    value: 'keto',
  },
  {
    attribute: 'diet',
    text: 'doing intermittent fasting 16:8, is black coffee during the fast ok?',
    value: 'intermittent fasting 16:8',
  },
  {
    attribute: 'diet',
    text: 'vegetarian since january, how do i get enough protein as a guy who lifts?',
    value: 'vegetarian',
  },
  {
    attribute: 'diet',
    text: "gluten free because of coeliac, any pasta brands that don't taste like cardboard?",
    value: 'gluten free',
  },
  {
    attribute: 'diet',
    text: "pescatarian here — what's a quick weeknight dinner with tinned sardines?",
    value: 'pescatarian',
  },
  {
    attribute: 'diet',
    text: 'my doctor put me on a low FODMAP diet for IBS. what can i even eat for breakfast?',
    value: 'low FODMAP',
  },
  {
    attribute: 'diet',
    text: 'carnivore diet week 3, energy is great but i miss fruit lol. is that bad?',
    value: 'carnivore',
  },
  {
    attribute: 'diet',
    text: 'plant-based athlete, need 140g protein a day. meal plan ideas?',
    value: 'plant-based',
  },
  {
    attribute: 'diet',
    text: 'trying to stay halal while in school in korea is hard lol, any convenience store picks that are safe?',
    value: 'halal',
  },
  {
    attribute: 'diet',
    text: 'im on a strict low sodium diet after my heart thing. restaurant tips?',
    value: 'low sodium',
  },
  {
    attribute: 'diet',
    text: 'doing whole30 and my coworkers brought donuts 😭 help me resist',
    value: 'whole30',
  },
  {
    attribute: 'diet',
    text: 'dairy-free since baby was diagnosed with CMPA (breastfeeding). how do I get enough calcium?',
    value: 'dairy-free',
  },
  {
    attribute: 'diet',
    text: 'eating paleo for a month now and my grocery bill doubled. budget paleo tips?',
    value: 'paleo',
  },
  {
    attribute: 'diet',
    text: 'raw vegan for 2 weeks and constantly hungry. am i doing it wrong?',
    value: 'raw vegan',
  },
  {
    attribute: 'diet',
    text: "i keep kosher and my new roommate doesn't. how do we share a kitchen?",
    value: 'kosher',
  },
  {
    attribute: 'diet',
    text: 'been on LCHF for a year now and my cholesterol went up a bit. should i worry or is it the good kind?',
    value: 'LCHF',
  },
  {
    attribute: 'diet',
    text: 'vegan for 6 yrs, my grandma still thinks chicken is vegetable lol. how do i handle christmas dinner?',
    value: 'vegan',
  },
  {
    attribute: 'diet',
    text: "low carb since my diabetes diagnosis, what snacks don't spike blood sugar?",
    value: 'low carb',
  },
  {
    attribute: 'diet',
    text: 'on the mediterranean diet my cardiologist suggested. how much olive oil is too much?',
    value: 'mediterranean diet',
  },
  {
    attribute: 'diet',
    text: 'calorie counting 1800 a day to lose weight, is that too low for a 85kg man?',
    value: 'calorie counting',
  },
  {
    attribute: 'diet',
    text: 'Jain diet means no onion garlic or root veg for me. good protein sources?',
    value: 'Jain',
  },
  {
    attribute: 'diet',
    text: 'as a flexitarian i eat meat like once a week. is that enough for iron?',
    value: 'flexitarian',
  },
  {
    attribute: 'diet',
    text: "OMAD for 2 months now and i've lost 8kg. any risks i should watch out for?",
    value: 'OMAD',
  },
  {
    attribute: 'diet',
    text: "lactose intolerant so i've cut dairy completely, miss cheese so much. alternatives that melt?",
    value: 'cut dairy',
  },
  {
    attribute: 'diet',
    text: "i'm doing the slow carb thing (tim ferriss) and cheat day is saturday. good cheat meal ideas lol",
    value: 'slow carb',
  },
  {
    attribute: 'diet',
    text: "I've been sugar free for 40 days 💪 what sweet things can I eat that aren't sugar?",
    value: 'sugar free',
  },
  {
    attribute: 'diet',
    text: "i went veggie last month and now my mum thinks i'm anaemic. symptoms to watch?",
    value: 'veggie',
  },
  {
    attribute: 'diet',
    text: 'following the DASH diet for blood pressure, is bread allowed?',
    value: 'DASH diet',
  },
  {
    attribute: 'diet',
    text: 'started the GAPS diet for my gut issues, is drinking bone broth every day really necessary?',
    value: 'GAPS diet',
  },
  {
    attribute: 'diet',
    text: 'eating mostly ital since i joined my rasta community, any good recipes for callaloo?',
    value: 'ital',
  },
  {
    attribute: 'diet',
    text: "i'm on a renal diet (kidney disease stage 3), which fruits are lowest in potassium?",
    value: 'renal diet',
  },
  {
    attribute: 'diet',
    text: "strict vegan but my partner isn't. how do we share a fridge without fights?",
    value: 'strict vegan',
  },
  {
    attribute: 'diet',
    text: "i've been on the ketogenic diet for epilepsy since childhood, any new recipes for 4:1 ratio?",
    value: 'ketogenic diet',
  },
  {
    attribute: 'diet',
    text: 'lacto-ovo vegetarian, can i get enough b12 from eggs and milk?',
    value: 'lacto-ovo vegetarian',
  },
  {
    attribute: 'diet',
    text: "doing the 5:2 diet, what can i eat on a 500 calorie day that's filling?",
    value: '5:2 diet',
  },
  {
    attribute: 'diet',
    text: 'no added sugar and no processed food is my rule since january. is honey allowed?',
    value: 'no added sugar',
  },
  {
    attribute: 'diet',
    text: 'nut-free household because of my allergy, what can i use instead of almond flour?',
    value: 'nut-free',
  },
  {
    attribute: 'diet',
    text: 'eating high protein for gains, 180g a day. cheap protein sources in the uk?',
    value: 'high protein',
  },
  {
    attribute: 'diet',
    text: 'went fully plant based after watching a documentary, what should i know before getting bloodwork?',
    value: 'plant based',
  },
  {
    attribute: 'diet',
    text: 'Buddhist vegetarian here, no garlic/onion either. quick stir fry recipes?',
    value: 'Buddhist vegetarian',
  },
  {
    attribute: 'diet',
    text: "i'm doing the anti-inflammatory diet for my arthritis, is coffee allowed?",
    value: 'anti-inflammatory diet',
  },
  {
    attribute: 'diet',
    text: 'been pescetarian for 4 years and now fish prices are insane lol. cheaper protein?',
    value: 'pescetarian',
  },
  {
    attribute: 'diet',
    text: 'i eat zero carb now (well, almost lol). is constipation normal?',
    value: 'zero carb',
  },
  {
    attribute: 'diet',
    text: "gluten-free & dairy-free because of hashimoto's. birthday cake recipe that works?",
    value: 'gluten-free & dairy-free',
  },
  {
    attribute: 'phone',
    text: 'my iPhone 13 battery is at 79% health and dies by 3pm. replace battery or upgrade?',
    value: 'iPhone 13',
  },
  {
    attribute: 'phone',
    text: 'Pixel 8 camera keeps blurring when i zoom, is that a known thing?',
    value: 'Pixel 8',
  },
  {
    attribute: 'phone',
    text: 'my Galaxy S23 gets hot when i charge it overnight. is that dangerous?',
    value: 'Galaxy S23',
  },
  {
    attribute: 'phone',
    text: 'how do i stop whatsapp eating all the storage on my Redmi Note 12?',
    value: 'Redmi Note 12',
  },
  {
    attribute: 'phone',
    text: "just switched from android to an iPhone 15 Pro and i'm lost. how do i close apps??",
    value: 'iPhone 15 Pro',
  },
  {
    attribute: 'phone',
    text: "my OnePlus 11 won't connect to car bluetooth anymore since the update. fix?",
    value: 'OnePlus 11',
  },
  {
    attribute: 'phone',
    text: 'the fold crease on my Galaxy Z Fold5 is getting worse, is this covered under warranty?',
    value: 'Galaxy Z Fold5',
  },
  {
    attribute: 'phone',
    text: 'my old iPhone SE screen cracked, is it worth fixing or just get a new one?',
    value: 'iPhone SE',
  },
  {
    attribute: 'phone',
    text: "Fairphone 5 owners, how do i swap the battery myself? mine's swelling a bit",
    value: 'Fairphone 5',
  },
  {
    attribute: 'phone',
    text: "Pixel 7a says 'no sim' randomly a few times a day. esim any better?",
    value: 'Pixel 7a',
  },
  {
    attribute: 'phone',
    text: 'tecno camon 20 keeps showing ads on the lock screen 😤 how do i turn them off',
    value: 'tecno camon 20',
  },
  {
    attribute: 'phone',
    text: 'how do i get more storage on my iPhone 12 mini without paying for icloud?',
    value: 'iPhone 12 mini',
  },
  {
    attribute: 'phone',
    text: "my Xiaomi 13T's face unlock stopped working, any ideas?",
    value: 'Xiaomi 13T',
  },
  {
    attribute: 'phone',
    text: 'Samsung A54 is slow as hell after 1 year, factory reset or new phone?',
    value: 'Samsung A54',
  },
  {
    attribute: 'phone',
    text: 'is it safe to use a random usb-c cable on my Pixel 6 Pro? it charges slow',
    value: 'Pixel 6 Pro',
  },
  {
    attribute: 'phone',
    text: 'my Nothing Phone (2) glyph lights are cool but what else can they do?',
    value: 'Nothing Phone (2)',
  },
  {
    attribute: 'phone',
    text: 'iPhone 14 Plus owners, does yours also take forever to charge with a 20W brick?',
    value: 'iPhone 14 Plus',
  },
  {
    attribute: 'phone',
    text: 'i still use a Nokia 3310 (the new one lol) and wanna know if whatsapp works on it',
    value: 'Nokia 3310',
  },
  {
    attribute: 'phone',
    text: 'Galaxy S24 Ultra s-pen keeps disconnecting, how to recalibrate?',
    value: 'Galaxy S24 Ultra',
  },
  {
    attribute: 'phone',
    text: 'my Moto G54 keeps rebooting when the battery goes under 20%. dying battery?',
    value: 'Moto G54',
  },
  {
    attribute: 'phone',
    text: 'how do i move my photos from my Huawei P30 to my laptop without google services?',
    value: 'Huawei P30',
  },
  {
    attribute: 'phone',
    text: 'Oppo Reno10 camera is amazing but instagram makes the photos look terrible. fix?',
    value: 'Oppo Reno10',
  },
  {
    attribute: 'phone',
    text: "my iPhone 11 won't update to the latest iOS, says not enough storage but i have 15gb free",
    value: 'iPhone 11',
  },
  {
    attribute: 'phone',
    text: 'Pixel 9 battery drains overnight with the screen off, like 15%. normal?',
    value: 'Pixel 9',
  },
  {
    attribute: 'phone',
    text: "Galaxy A15 speaker is super quiet in calls. any setting I'm missing?",
    value: 'Galaxy A15',
  },
  {
    attribute: 'phone',
    text: 'the back glass on my iPhone 15 cracked from a 30cm drop 🙃 apple care worth it?',
    value: 'iPhone 15',
  },
  {
    attribute: 'phone',
    text: 'Sony Xperia 1 V, is it possible to get the camera to shoot raw by default?',
    value: 'Sony Xperia 1 V',
  },
  {
    attribute: 'phone',
    text: "my Realme 11 Pro won't charge past 80%, did i turn on some setting?",
    value: 'Realme 11 Pro',
  },
  {
    attribute: 'phone',
    text: 'is there a way to make my Galaxy Flip 5 cover screen show full apps?',
    value: 'Galaxy Flip 5',
  },
  {
    attribute: 'phone',
    text: 'my daily driver is a Pixel 8 Pro and the thermometer sensor is useless lol. what else is it good for?',
    value: 'Pixel 8 Pro',
  },
  {
    attribute: 'phone',
    text: 'iPhone XR still going strong after 5 yrs lol but apps getting slow. tips?',
    value: 'iPhone XR',
  },
  {
    attribute: 'phone',
    text: 'on my Honor Magic5 Pro the notifications come late for whatsapp, battery optimisation?',
    value: 'Honor Magic5 Pro',
  },
  {
    attribute: 'phone',
    text: 'Infinix Hot 30 hanging when i open camera, need help',
    value: 'Infinix Hot 30',
  },
  {
    attribute: 'phone',
    text: 'my Asus Zenfone 10 is so small and i love it but the battery is meh. tips to stretch it?',
    value: 'Asus Zenfone 10',
  },
  {
    attribute: 'phone',
    text: 'Galaxy S21 FE overheats during google maps navigation, is that normal?',
    value: 'Galaxy S21 FE',
  },
  {
    attribute: 'phone',
    text: 'just got the iPhone 16 and the camera control button keeps getting pressed in my pocket lol. disable it?',
    value: 'iPhone 16',
  },
  {
    attribute: 'phone',
    text: "Vivo V29's curved screen registers palm touches, any fix?",
    value: 'Vivo V29',
  },
  {
    attribute: 'phone',
    text: "my BlackBerry KEYone is basically dead for apps now, what's the closest phone with a keyboard?",
    value: 'BlackBerry KEYone',
  },
  {
    attribute: 'phone',
    text: 'Pixel 6a fingerprint reader is so bad, do screen protectors make it worse?',
    value: 'Pixel 6a',
  },
  {
    attribute: 'phone',
    text: "iPhone 13 mini owners, what case doesn't make it huge?",
    value: 'iPhone 13 mini',
  },
  {
    attribute: 'phone',
    text: 'my Poco F5 keeps killing spotify in the background. MIUI settings to fix?',
    value: 'Poco F5',
  },
  {
    attribute: 'phone',
    text: "how do i record calls on my Galaxy S22? it's legal here",
    value: 'Galaxy S22',
  },
  {
    attribute: 'phone',
    text: 'Motorola Razr 40 hinge is a bit loose now, normal after 8 months?',
    value: 'Motorola Razr 40',
  },
  {
    attribute: 'phone',
    text: 'iPhone 14 Pro always on display is draining my battery, worth turning off?',
    value: 'iPhone 14 Pro',
  },
  {
    attribute: 'phone',
    text: 'my CAT S62 (rugged phone for site work) has a thermal camera, what cool stuff can i do with it?',
    value: 'CAT S62',
  },
  { attribute: null, text: "i'm not vegan but i'm trying to eat less meat, any easy swaps?", value: null },
  {
    attribute: null,
    text: 'my flatmate is doing keto and the whole fridge is bacon now lol, how do i share space?',
    value: null,
  },
  {
    attribute: null,
    text: "tried keto last year, lasted 2 weeks, never again 😂 anyway what's a good high fibre breakfast?",
    value: null,
  },
  {
    attribute: null,
    text: 'should i get the iPhone 16 or wait for the 17? my budget is flexible',
    value: null,
  },
  {
    attribute: null,
    text: "my dad has a Galaxy S21 and can't figure out how to share photos with us. simple steps?",
    value: null,
  },
  {
    attribute: null,
    text: 'is the Pixel 9 camera really better than iPhone? choosing for my mum',
    value: null,
  },
  {
    attribute: null,
    text: 'i used to have a BlackBerry back in 2010 and miss the keyboard lol. anyone make those anymore?',
    value: null,
  },
  {
    attribute: null,
    text: "cooking for a vegetarian friend tomorrow, what's a good main course?",
    value: null,
  },
  { attribute: null, text: 'is intermittent fasting actually backed by science or just hype?', value: null },
  {
    attribute: null,
    text: "my phone got stolen on the metro and i'm using my old work laptop for everything now. how do i block the sim?",
    value: null,
  },
  {
    attribute: 'sport',
    text: 'bouldering 4x a week and my fingertips are shredded. how do i toughen the skin without tearing?',
    value: 'bouldering',
  },
  {
    attribute: 'sport',
    text: 'marathon training week 9, my left knee hurts going downhill. rest or push through?',
    value: 'marathon',
  },
  {
    attribute: 'sport',
    text: "sunday league footy again tomorrow and i'm the only one who can't head the ball lol. drills?",
    value: 'sunday league footy',
  },
  {
    attribute: 'sport',
    text: 'padel has taken over my life 😂 which racket for an intermediate player who hits hard?',
    value: 'padel',
  },
  {
    attribute: 'sport',
    text: 'jiu jitsu blue belt here, my neck is stiff after every roll. prehab exercises?',
    value: 'jiu jitsu',
  },
  {
    attribute: 'sport',
    text: 'our cricket club nets start next week, how do I fix my bowling action getting no-balled?',
    value: 'cricket',
  },
  {
    attribute: 'sport',
    text: 'surfing every morning before work, how do i stop my ears getting infected?',
    value: 'surfing',
  },
  {
    attribute: 'sport',
    text: 'i swim 3k every morning at the lido and my shoulders ache. technique fixes?',
    value: 'swim',
  },
  {
    attribute: 'sport',
    text: "crossfit box has a competition next month and I can't do double unders yet. tips?",
    value: 'crossfit',
  },
  {
    attribute: 'sport',
    text: 'road cycling 200km a week and my saddle is killing me. what should i look for?',
    value: 'road cycling',
  },
  {
    attribute: 'sport',
    text: "netball season starting and I'm wing attack. how do i get faster off the mark?",
    value: 'netball',
  },
  {
    attribute: 'sport',
    text: 'i row at my uni club and 6am outings are destroying me. how to sleep better?',
    value: 'row',
  },
  {
    attribute: 'sport',
    text: 'powerlifting meet in 8 weeks, how should i peak my deadlift?',
    value: 'powerlifting',
  },
  {
    attribute: 'sport',
    text: 'volleyball league tuesday and my setting is so inconsistent. drills?',
    value: 'volleyball',
  },
  {
    attribute: 'sport',
    text: 'started kickboxing 6 months ago, how do I stop dropping my hands when tired?',
    value: 'kickboxing',
  },
  {
    attribute: 'sport',
    text: 'trail running in the hills every weekend, best shoes for wet rocky terrain?',
    value: 'trail running',
  },
  {
    attribute: 'sport',
    text: 'i play basketball in a rec league and keep rolling my ankle. brace or tape?',
    value: 'basketball',
  },
  {
    attribute: 'sport',
    text: 'ice hockey beer league, my skating backwards is terrible lol. drills I can do alone?',
    value: 'ice hockey',
  },
  {
    attribute: 'sport',
    text: 'judo randori is leaving me with bruised ribs. is that normal?',
    value: 'judo',
  },
  {
    attribute: 'sport',
    text: 'triathlon season is coming up and my transition times suck. how do I practise?',
    value: 'triathlon',
  },
  {
    attribute: 'sport',
    text: 'tennis twice a week at the club, my backhand is so weak. one handed or two?',
    value: 'tennis',
  },
  {
    attribute: 'sport',
    text: 'i play hurling for the local club and my hands get wrecked. best gloves?',
    value: 'hurling',
  },
  {
    attribute: 'sport',
    text: 'kitesurfing in tarifa all summer, how do i jump higher without crashing?',
    value: 'kitesurfing',
  },
  {
    attribute: 'sport',
    text: 'badminton doubles at the sports hall, how do i communicate better with my partner?',
    value: 'badminton',
  },
  {
    attribute: 'sport',
    text: 'Muay Thai fighter, first amateur fight in 10 weeks. diet plan for weight cut?',
    value: 'Muay Thai',
  },
  {
    attribute: 'sport',
    text: "rugby pre-season starting, i'm a prop and need to gain 5kg. meal plan?",
    value: 'rugby',
  },
  {
    attribute: 'sport',
    text: 'ultimate frisbee nationals next month, how do i improve my forehand huck?',
    value: 'ultimate frisbee',
  },
  {
    attribute: 'sport',
    text: 'i fence épée and my lunge is too short. drills to improve range?',
    value: 'épée',
  },
  {
    attribute: 'sport',
    text: 'futsal every wednesday and my touch is rusty. quick drills at home?',
    value: 'futsal',
  },
  {
    attribute: 'sport',
    text: 'golf handicap stuck at 18 for two years, what should i focus on?',
    value: 'golf',
  },
  {
    attribute: 'sport',
    text: 'climbing outdoors mostly, sport routes around 6b. how do I break into 6c?',
    value: 'climbing',
  },
  {
    attribute: 'sport',
    text: 'pickleball is my new obsession lol, is a graphite paddle worth the money?',
    value: 'pickleball',
  },
  {
    attribute: 'sport',
    text: "i'm a competitive sprinter, 100m PB is 11.2. how do i get under 11?",
    value: 'sprinter',
  },
  {
    attribute: 'sport',
    text: 'water polo training is so exhausting, how do i improve eggbeater endurance?',
    value: 'water polo',
  },
  {
    attribute: 'sport',
    text: 'table tennis club tonight, my serve is so predictable. variations to learn?',
    value: 'table tennis',
  },
  {
    attribute: 'sport',
    text: 'ski racing season starting, best way to prep my legs in november?',
    value: 'ski racing',
  },
  {
    attribute: 'sport',
    text: "karate black belt grading is next month and I'm nervous about kata. tips?",
    value: 'karate',
  },
  {
    attribute: 'sport',
    text: 'i run ultras, 100k in august. how do i train my stomach to eat while running?',
    value: 'ultras',
  },
  {
    attribute: 'sport',
    text: 'boxing gym three nights a week, my wrists hurt after heavy bag. wraps wrong?',
    value: 'boxing',
  },
  {
    attribute: 'sport',
    text: 'i play gaelic football and need to improve my solo run. drills?',
    value: 'gaelic football',
  },
  {
    attribute: 'sport',
    text: 'open water swimming in the lake all year, even in winter. safety tips for cold water?',
    value: 'open water swimming',
  },
  {
    attribute: 'sport',
    text: "baseball season and i'm catching this year, knees are shot. stretches?",
    value: 'baseball',
  },
  {
    attribute: 'sport',
    text: 'handball team training 3x a week, my throwing shoulder hurts. rest or physio?',
    value: 'handball',
  },
  {
    attribute: 'sport',
    text: 'skateboarding at 35 lol, how do i not break myself learning kickflips?',
    value: 'skateboarding',
  },
  {
    attribute: 'sport',
    text: 'mountain biking on the weekends, which protective gear is worth it?',
    value: 'mountain biking',
  },
  {
    attribute: null,
    text: 'my son is obsessed with Bluey, any similar shows for a 4 year old?',
    value: null,
  },
  {
    attribute: null,
    text: 'my neighbour plays golf every sunday and invited me along, is it hard for a total beginner?',
    value: null,
  },
  {
    attribute: null,
    text: 'i used to play rugby at school but quit at 18, is it too late to come back at 32?',
    value: null,
  },
  { attribute: null, text: 'thinking of trying bouldering, what do beginners need?', value: null },
  { attribute: null, text: "who's favourite to win the champions league this year?", value: null },
  {
    attribute: null,
    text: "my friend's favourite band is Radiohead and i want to get her a gift, ideas?",
    value: null,
  },
  {
    attribute: null,
    text: 'watched the marathon on TV and felt inspired, maybe one day lol. how long do people train?',
    value: null,
  },
  {
    attribute: null,
    text: 'is padel actually harder than tennis? everyone at work keeps talking about it',
    value: null,
  },
  { attribute: null, text: "i don't really have a favourite food, is that weird? lol", value: null },
  {
    attribute: null,
    text: "went to a Coldplay concert last night with my sister, so good! what's their best album?",
    value: null,
  },
  {
    attribute: null,
    text: "just got back from 10 days in Kyoto and my jet lag is brutal. how long till i'm normal again?",
    value: null,
  },
  {
    attribute: null,
    text: 'thinking about moving to Lisbon next year, is it still worth it with the rent going up?',
    value: null,
  },
  {
    attribute: null,
    text: "my brother got a job at Meta in London, what's the work culture like there?",
    value: null,
  },
  {
    attribute: null,
    text: 'i had a final round with Spotify today and i think i bombed the system design part 😩 what do i do now',
    value: null,
  },
  {
    attribute: null,
    text: 'they offered me a role at Accenture but i said no, the travel was too much. did i make a mistake?',
    value: null,
  },
  {
    attribute: null,
    text: 'i used to live in Nairobi for 3 years, miss it so much. any kenyan restaurants in toronto worth trying?',
    value: null,
  },
  {
    attribute: null,
    text: 'when i drove a Corolla i never had to worry about repairs lol. why are cars so unreliable now?',
    value: null,
  },
  {
    attribute: null,
    text: "i'm not vegetarian, just eat meat maybe twice a week. is that enough protein?",
    value: null,
  },
  {
    attribute: null,
    text: 'is Medellín expensive compared to Bogotá? friend is asking me to come visit',
    value: null,
  },
  {
    attribute: null,
    text: 'our client Heineken wants a new campaign by march and the brief is super vague. how do i ask better questions?',
    value: null,
  },
  { attribute: null, text: 'Jira is so slow today, is atlassian having an outage?', value: null },
  { attribute: null, text: "what's the weather usually like in Cape Town in April?", value: null },
  {
    attribute: null,
    text: 'my cousin just moved to Dubai for work, what should she know about renting there?',
    value: null,
  },
  {
    attribute: null,
    text: "I'd love a Porsche 911 one day lol, how much do older ones cost to maintain?",
    value: null,
  },
  { attribute: null, text: "can you explain how Monzo makes money? it's free to use right?", value: null },
  {
    attribute: null,
    text: "my mum just got a Pixel 8 and can't find the flashlight. how do i explain it over the phone?",
    value: null,
  },
  {
    attribute: null,
    text: "i'm done with dating apps for now, anyway can you recommend a good book for a long flight?",
    value: null,
  },
  {
    attribute: null,
    text: "my friend is getting divorced and i don't know what to say to her. help?",
    value: null,
  },
  {
    attribute: null,
    text: "what does a product manager actually do all day? thinking about whether it'd suit me",
    value: null,
  },
  {
    attribute: null,
    text: 'interview at Deloitte next week for an audit role, what questions should I expect?',
    value: null,
  },
  {
    attribute: null,
    text: "my sister's cat just had kittens, she's giving them away. are cats a lot of work?",
    value: null,
  },
  {
    attribute: null,
    text: "we're visiting Reykjavík in february, is it worth renting a car or just do tours?",
    value: null,
  },
  { attribute: null, text: 'anyone know if Zalando ships to Switzerland? need a coat asap', value: null },
  { attribute: null, text: 'just finished watching The Bear, is season 3 worth it?', value: null },
  {
    attribute: null,
    text: 'used to be super into crossfit before my knee injury, what low impact stuff can i do instead?',
    value: null,
  },
  {
    attribute: null,
    text: 'my dad just retired after 35 years at Shell, how do I help him not feel lost?',
    value: null,
  },
  {
    attribute: null,
    text: 'what are the best universities in the Netherlands for computer science? asking for my niece',
    value: null,
  },
  {
    attribute: null,
    text: "heading to Bali for my friend's wedding, what should i wear as a guest?",
    value: null,
  },
  {
    attribute: null,
    text: 'is it true that the iPhone battery degrades faster if you charge it overnight?',
    value: null,
  },
  {
    attribute: null,
    text: 'my flatmate works at Google and keeps bringing home free snacks lol. is that a thing at all offices?',
    value: null,
  },
  {
    attribute: null,
    text: 'my son starts at the University of Manchester in september, what should we buy for his halls?',
    value: null,
  },
  {
    attribute: null,
    text: 'do you think keto is actually safe long term? my aunt is trying it',
    value: null,
  },
  { attribute: null, text: "what's a good gift for someone who just got a new dog?", value: null },
  {
    attribute: null,
    text: 'the tram strike in Amsterdam is tomorrow, how do tourists usually get around?',
    value: null,
  },
  {
    attribute: null,
    text: 'my manager wants a summary of the Salesforce migration, can you help me write it in 5 bullet points?',
    value: null,
  },
  {
    attribute: null,
    text: 'thinking of switching to a Samsung, is the Galaxy S24 better than iPhone for photos?',
    value: null,
  },
  { attribute: null, text: 'my nephew wants to be a pilot, how long does training take?', value: null },
  {
    attribute: null,
    text: 'can you help me write a cover letter for a teaching position in Seoul?',
    value: null,
  },
  {
    attribute: null,
    text: 'watched the Tour de France on tv all afternoon, why do they shave their legs?',
    value: null,
  },
  {
    attribute: null,
    text: "i don't own a car, but i need to rent one for a weekend in Wales. tips for driving on the left?",
    value: null,
  },
  {
    attribute: null,
    text: 'how do people in Tokyo handle such small apartments? saw a video and was fascinated',
    value: null,
  },
  { attribute: null, text: 'my grandma wants to learn to use WhatsApp, any simple guide?', value: null },
  {
    attribute: null,
    text: 'got an email from Revolut saying my account is under review, is that a scam?',
    value: null,
  },
  {
    attribute: null,
    text: 'is a French bulldog a good breed for someone living alone? just researching for now',
    value: null,
  },
  { attribute: null, text: "what's the difference between a vegan and a plant-based diet?", value: null },
  {
    attribute: null,
    text: "my colleague's husband is a chef and he made the most amazing risotto at the party. how do i make one?",
    value: null,
  },
  {
    attribute: null,
    text: 'spent the weekend in Edinburgh for the fringe, so many shows! which comedians are big right now?',
    value: null,
  },
  {
    attribute: null,
    text: "my best friend is studying at Harvard and I'm visiting her next month. what should we do in boston?",
    value: null,
  },
  {
    attribute: null,
    text: 'the Uber driver today told me he used to be an engineer in Syria. made me think, how do foreign credentials transfer?',
    value: null,
  },
  {
    attribute: null,
    text: 'i applied to Amazon for the 4th time lol. any tips to actually get past the online assessment?',
    value: null,
  },
  {
    attribute: null,
    text: 'help me write a polite no to a recruiter from Goldman Sachs, not interested right now',
    value: null,
  },
  {
    attribute: null,
    text: 'what is the population of Lagos? saw a documentary and got curious',
    value: null,
  },
  {
    attribute: null,
    text: 'we had a dog when i was a kid, a beagle called Sam. do beagles usually live long?',
    value: null,
  },
  {
    attribute: null,
    text: "my mum is vegan now and i'm cooking christmas dinner for her. main dish ideas?",
    value: null,
  },
  {
    attribute: null,
    text: 'can you recommend some good books similar to Dune? my book club is picking next month',
    value: null,
  },
  {
    attribute: null,
    text: 'our supplier in Shenzhen delayed the order again, how do i write a firm email?',
    value: null,
  },
  { attribute: null, text: 'the zoom call keeps freezing when i share my screen, any fix?', value: null },
  {
    attribute: null,
    text: 'is it safe to drive from Tbilisi to Kazbegi in winter? planning a trip',
    value: null,
  },
  {
    attribute: null,
    text: 'considering a masters at LSE but the fees are wild. is it worth it?',
    value: null,
  },
  {
    attribute: null,
    text: "my neighbour's Tesla alarm goes off every night 😤 how do i politely bring it up?",
    value: null,
  },
  {
    attribute: null,
    text: 'what time does the sun set in Helsinki in december? planning a visit',
    value: null,
  },
  {
    attribute: null,
    text: 'my twin sister just got engaged in Paris, how do i make a cute speech for the engagement party?',
    value: null,
  },
  {
    attribute: null,
    text: "what's a good recipe for a birthday cake for a 6 year old? nothing too fancy",
    value: null,
  },
  {
    attribute: null,
    text: 'do you think Arsenal will win the league this year? my mates are arguing',
    value: null,
  },
  {
    attribute: null,
    text: 'i quit my job at the bank last year and took time off to travel. how do people explain a gap on their CV?',
    value: null,
  },
  {
    attribute: null,
    text: "the new Pixel looks nice but I'm not switching, just curious what's new in it?",
    value: null,
  },
  {
    attribute: null,
    text: 'our old house in Leeds finally sold, so weird. anyway, how does capital gains tax work on a sale?',
    value: null,
  },
  { attribute: null, text: "what's the best time of year to visit Patagonia?", value: null },
  {
    attribute: null,
    text: 'can u summarise the key points of the EU AI act for a presentation?',
    value: null,
  },
  {
    attribute: null,
    text: 'saw a golden retriever at the park today and now i want one so bad lol. how much do they cost?',
    value: null,
  },
  {
    attribute: null,
    text: "we're thinking of getting a cat someday, what breeds are chill with kids?",
    value: null,
  },
  {
    attribute: null,
    text: "i'm going to Seoul for a conference, what neighbourhood should i stay in?",
    value: null,
  },
  { attribute: null, text: "explain like i'm 5: how does a mortgage work?", value: null },
  {
    attribute: null,
    text: "my brother-in-law is a plumber and says I shouldn't use drain cleaner. is that right?",
    value: null,
  },
  {
    attribute: null,
    text: 'someone at the gym said creatine is bad for your kidneys, is that true?',
    value: null,
  },
  { attribute: null, text: 'is it rude to bring store-bought dessert to a dinner party?', value: null },
  {
    attribute: null,
    text: "my old school in Mumbai is having a reunion, should I go? haven't seen anyone in 15 yrs",
    value: null,
  },
  {
    attribute: null,
    text: "what's the best way to learn Spanish in 6 months for a trip to Mexico?",
    value: null,
  },
  {
    attribute: null,
    text: "our team's Figma file is a mess, how do i organise components better?",
    value: null,
  },
  {
    attribute: null,
    text: "the Apple store gave me a replacement phone but it's refurbished. is that normal?",
    value: null,
  },
  {
    attribute: null,
    text: "a recruiter from Stripe reached out but i'm not looking right now, how do i keep the door open?",
    value: null,
  },
  {
    attribute: null,
    text: "is it true that people in Norway don't get tired of the dark winters?",
    value: null,
  },
  {
    attribute: null,
    text: 'my roommate keeps eating my food, how do i bring it up without it being awkward?',
    value: null,
  },
  { attribute: null, text: 'best netflix shows to watch with my parents this weekend?', value: null },
  {
    attribute: null,
    text: 'how long does it take to walk the Camino de Santiago? thinking about it for next summer',
    value: null,
  },
  {
    attribute: null,
    text: 'my daughter wants to go vegetarian at 12, should i be worried about nutrition?',
    value: null,
  },
  {
    attribute: null,
    text: 'i sold my motorbike last month and already miss it lol. is it stupid to buy another?',
    value: null,
  },
  { attribute: null, text: 'write me a haiku about monday mornings', value: null },
  {
    attribute: null,
    text: "what's the etiquette for tipping in Japan? going for 2 weeks in april",
    value: null,
  },
  {
    attribute: null,
    text: 'the hotel in Marrakech upgraded us to a suite for free 🤩 what should we not miss in the medina?',
    value: null,
  },
  {
    attribute: null,
    text: "AWS bill for our side project went up 3x this month, how do i find what's costing money?",
    value: null,
  },
  {
    attribute: null,
    text: "my uncle drives a Hilux and swears they're indestructible. true or just a meme?",
    value: null,
  },
  {
    attribute: null,
    text: "can you proofread this email to a landlord for my friend who's renting in Berlin?",
    value: null,
  },
  { attribute: null, text: 'why is everyone suddenly talking about padel? is it just a trend?', value: null },
  {
    attribute: null,
    text: "my housemate's boyfriend basically lives here now and doesn't pay bills. how do i bring it up?",
    value: null,
  },
  {
    attribute: null,
    text: "lol my phone autocorrected 'meeting' to 'meatball' in an email to the whole team. how do i turn off autocorrect?",
    value: null,
  },
  {
    attribute: null,
    text: "i don't have any pets but my kids keep begging for a rabbit. are rabbits good for kids or a myth?",
    value: null,
  },
  {
    attribute: null,
    text: "no car here, never had one. what's the cheapest way to get from Heathrow to Oxford?",
    value: null,
  },
  {
    attribute: null,
    text: "i'm not a student anymore but still have my student email. is it ok to keep using student discounts? lol",
    value: null,
  },
  {
    attribute: null,
    text: "my aunt moved to Vancouver 20 years ago and keeps inviting me. what's a good 5 day itinerary?",
    value: null,
  },
  {
    attribute: null,
    text: 'had a job offer from Careem in Dubai but decided to stay put. how do i decline graciously?',
    value: null,
  },
  {
    attribute: null,
    text: "my friend Kofi just got a Tesla Model Y and won't stop talking about it 🙄 is autopilot actually good?",
    value: null,
  },
  {
    attribute: null,
    text: 'we stayed in Porto for 4 nights and loved it, now planning the next trip. Seville or Valencia?',
    value: null,
  },
  {
    attribute: null,
    text: 'is Bocconi hard to get into for international students? my cousin is applying',
    value: null,
  },
  {
    attribute: null,
    text: "my colleague's wife is pregnant with twins, what's a good group gift from the office?",
    value: null,
  },
  {
    attribute: null,
    text: 'used to work at Tesco as a teenager, good times lol. anyway how do self checkout machines detect theft?',
    value: null,
  },
  {
    attribute: null,
    text: 'i gave up trying to be vegan after a month, too hard. what are some easy meatless meals though?',
    value: null,
  },
  {
    attribute: null,
    text: 'someone left a shiba inu tied outside the supermarket for an hour today. should i have called someone?',
    value: null,
  },
  {
    attribute: null,
    text: 'the Premier League table is so tight this year, who do you think gets relegated?',
    value: null,
  },
  {
    attribute: null,
    text: 'my old iPhone 8 is sitting in a drawer, what can i do with it? donate or sell?',
    value: null,
  },
  {
    attribute: null,
    text: "what's the safest area to stay in Johannesburg for a 3 day business trip?",
    value: null,
  },
  {
    attribute: null,
    text: 'is Cluj-Napoca a good place for digital nomads? reading about it for a blog post',
    value: null,
  },
  {
    attribute: null,
    text: 'my little sister is in year 10 and hates maths. how do i help her without sounding like a teacher?',
    value: null,
  },
  {
    attribute: null,
    text: "my friend's boyfriend proposed on a jumbotron 😬 is that romantic or cringe?",
    value: null,
  },
  {
    attribute: null,
    text: "how do I calculate VAT for an invoice to a German client? it's my first one",
    value: null,
  },
  {
    attribute: null,
    text: 'our HR system Workday keeps logging me out every 5 minutes 🙃 any browser fix?',
    value: null,
  },
  {
    attribute: null,
    text: 'i went to one jiu jitsu class last year and got destroyed lol. is it normal to feel like that?',
    value: null,
  },
  {
    attribute: null,
    text: 'my dad still uses a flip phone and refuses to change. how do i convince him to get a smartphone?',
    value: null,
  },
  {
    attribute: null,
    text: 'is it true that Denver is really dry? going for a conference and worried about my skin',
    value: null,
  },
  {
    attribute: null,
    text: "what's a good name for a golden retriever puppy? my neighbours asked me to help choose lol",
    value: null,
  },
  {
    attribute: null,
    text: 'my best mate is a pharmacist and says ibuprofen on an empty stomach is bad. true?',
    value: null,
  },
  {
    attribute: null,
    text: "haven't watched Succession, is it worth starting now that it's over?",
    value: null,
  },
  {
    attribute: null,
    text: 'the interview with Shopify went well i think, they said 2 weeks. can i ask about salary in the next round?',
    value: null,
  },
  {
    attribute: null,
    text: 'back when we lived in Singapore the food was amazing. any singapore style laksa recipe?',
    value: null,
  },
  {
    attribute: null,
    text: 'my housemate is a keto guy and keeps lecturing me about bread lol. how do i shut it down nicely',
    value: null,
  },
  { attribute: null, text: 'is the Fairphone actually ethical or just marketing?', value: null },
  {
    attribute: null,
    text: "i'm thinking of doing a PhD but not sure. how do people decide if it's worth it?",
    value: null,
  },
  {
    attribute: null,
    text: 'my grandad drove buses in Glasgow for 40 years, any good books about the history of scottish transport?',
    value: null,
  },
  { attribute: null, text: 'did you see the Man City game last night? what a comeback', value: null },
  {
    attribute: null,
    text: 'how do i politely tell a client (Unilever) that their feedback contradicts what they said last week?',
    value: null,
  },
  {
    attribute: null,
    text: 'Google Drive says my storage is full but i deleted everything. what else counts?',
    value: null,
  },
  {
    attribute: null,
    text: "my mate's wedding is in Tuscany in june, how do i get from Pisa airport to a villa near Siena?",
    value: null,
  },
  {
    attribute: null,
    text: 'is it weird to go to a concert alone? Tame Impala are playing and nobody wants to come',
    value: null,
  },
  {
    attribute: null,
    text: "the vet said my parents' old cat has kidney problems. what do i tell them to expect?",
    value: null,
  },
  {
    attribute: null,
    text: "what's the best way to ask for a raise? not for now, just want to be prepared",
    value: null,
  },
  {
    attribute: null,
    text: "my nan keeps sending me chain messages on whatsapp 😂 how do i tell her they're fake?",
    value: null,
  },
  {
    attribute: null,
    text: 'we went to a Ghibli exhibition in Tokyo last spring and it was magical. any similar museums in Europe?',
    value: null,
  },
  {
    attribute: null,
    text: 'thinking of doing Whole30 in january with some friends, is it actually healthy?',
    value: null,
  },
  { attribute: null, text: 'what should i pack for a week of skiing in the Alps? first time', value: null },
  { attribute: null, text: 'my ex is moving to my city 🙃 how do i handle bumping into him?', value: null },
  { attribute: null, text: "what's the tallest building in Africa?", value: null },
  { attribute: null, text: 'random q: why do cats knead blankets?', value: null },
  {
    attribute: null,
    text: 'my teenage son wants an iPhone 16 for christmas, is that too much for a 14 year old?',
    value: null,
  },
  {
    attribute: null,
    text: "i left Wipro in 2019 and they still haven't sent my PF transfer. how do i chase it?",
    value: null,
  },
  {
    attribute: null,
    text: 'can you help me plan a road trip through Namibia? 2 weeks, self drive',
    value: null,
  },
  {
    attribute: null,
    text: 'our company Slack has a #pets channel and i have nothing to post lol. fun ideas to join in?',
    value: null,
  },
  {
    attribute: null,
    text: "i never really got into football, what's the offside rule in simple words?",
    value: null,
  },
  {
    attribute: null,
    text: "my manager is going on maternity leave and i'm covering her tasks. how do i not drown?",
    value: null,
  },
  {
    attribute: null,
    text: "my niece just got a place at Oxford to study medicine!! what's a good present?",
    value: null,
  },
  {
    attribute: null,
    text: 'is it true that Glasgow is the friendliest city in the UK? visiting for a gig',
    value: null,
  },
  {
    attribute: null,
    text: 'what are the pros and cons of a Corolla vs a Civic? helping my dad choose',
    value: null,
  },
  {
    attribute: null,
    text: 'hi! just saying thanks for helping with my essay yesterday, got a B+ 😊',
    value: null,
  },
  {
    attribute: null,
    text: "i can't decide what to cook tonight, give me 3 ideas with chicken and rice",
    value: null,
  },
  {
    attribute: null,
    text: "my friend's startup got acquired by Canva, she's rich now lol. should I ask her to invest in my idea?",
    value: null,
  },
  {
    attribute: null,
    text: 'had a great weekend in the Lake District, rained the whole time but still. any waterproof jacket recs for next time?',
    value: null,
  },
  {
    attribute: null,
    text: 'my coworker keeps heating fish in the office microwave. how do i bring it up?',
    value: null,
  },
  {
    attribute: null,
    text: "what's the most fuel efficient car under 20k? not buying yet, just curious",
    value: null,
  },
  {
    attribute: null,
    text: "how do i tell a friend i can't afford her hen do in Ibiza without making it awkward?",
    value: null,
  },
  { attribute: null, text: 'my parents want to retire to Portugal, what visa would they need?', value: null },
  {
    attribute: null,
    text: 'is the Galaxy Fold worth it or is it a gimmick? my boss has one and loves it',
    value: null,
  },
  {
    attribute: null,
    text: "my neighbour's rooster wakes up the whole street at 4am. any legal options in the UK?",
    value: null,
  },
  {
    attribute: null,
    text: 'i failed my driving test for the 2nd time 😭 how do i calm my nerves for the next one?',
    value: null,
  },
  { attribute: null, text: 'what are some good icebreakers for a team offsite?', value: null },
  {
    attribute: null,
    text: 'did a trial class of padel with friends, fun but my arm hurts now. how do i avoid tennis elbow?',
    value: null,
  },
  {
    attribute: null,
    text: 'the Airbnb we booked in Lisbon looks nothing like the photos. how do i get a refund?',
    value: null,
  },
  { attribute: null, text: "why do Brazilians call it 'futebol' and not 'soccer'?", value: null },
  {
    attribute: null,
    text: "i'm not on any diet, just trying to eat more veg. easy ways to sneak them in?",
    value: null,
  },
  {
    attribute: null,
    text: 'my landlord sold the flat and we have to leave by june. how do i start house hunting efficiently?',
    value: null,
  },
  { attribute: null, text: "what's the time difference between Sydney and London right now?", value: null },
  {
    attribute: null,
    text: 'could you explain the difference between a Roth IRA and a traditional one?',
    value: null,
  },
  {
    attribute: null,
    text: "my friend's kid got into Stanford and she won't stop posting about it lol. how do i congratulate without being fake?",
    value: null,
  },
  {
    attribute: null,
    text: "i was a barista all through uni, so i'm picky about coffee lol. which home espresso machine under 500?",
    value: null,
  },
  { attribute: null, text: "ugh monday. give me a motivational quote that isn't cringe", value: null },
  { attribute: null, text: 'is it too late to learn piano at 45?', value: null },
  {
    attribute: null,
    text: 'what do people usually get wrong when visiting Nairobi for the first time?',
    value: null,
  },
  {
    attribute: null,
    text: 'my sister is a vet and says grapes are toxic to dogs, how toxic exactly?',
    value: null,
  },
  {
    attribute: null,
    text: "had a call with a recruiter from Emirates about cabin crew jobs, what's the assessment day like?",
    value: null,
  },
  {
    attribute: null,
    text: 'can you make a packing list for a 3 day hiking trip in the Dolomites?',
    value: null,
  },
  {
    attribute: null,
    text: "my dad's Volvo finally died at 400k km, legend. what's a good reliable replacement for a 70 year old?",
    value: null,
  },
  {
    attribute: null,
    text: 'is it normal for a puppy to sleep 18 hours a day? my friend is worried about hers',
    value: null,
  },
  { attribute: null, text: 'how many calories in a flat white with oat milk?', value: null },
  {
    attribute: null,
    text: 'i rewatched Breaking Bad this week for the first time since 2013, holds up so well. anything similar?',
    value: null,
  },
  {
    attribute: null,
    text: "my brother just moved in with his girlfriend in Kraków, what's a good housewarming gift from abroad?",
    value: null,
  },
  {
    attribute: null,
    text: 'the ferry to Santorini got cancelled because of wind, is that common in summer?',
    value: null,
  },
  {
    attribute: null,
    text: "what's a nice way to say goodbye to a coworker who's leaving for a job at Microsoft?",
    value: null,
  },
  { attribute: null, text: 'tell me a fun fact about octopuses', value: null },
  {
    attribute: null,
    text: "my mum says she wants 'nothing' for her birthday. what do i get her?",
    value: null,
  },
  { attribute: null, text: "can you recommend a beginner's guide to investing in index funds?", value: null },
  {
    attribute: null,
    text: "i've never been to Berlin, is 3 days enough to see the main stuff?",
    value: null,
  },
  {
    attribute: null,
    text: "what's the best way to remove red wine from a white carpet? asking after a party lol",
    value: null,
  },
  // A second round by another independent writer (docs/decisions.md): more of what people say without saying it.
  {
    attribute: 'residence',
    text: 'Rent here in Porto went up again, 80 euros more for the same tiny flat 🙃',
    value: 'Porto',
  },
  {
    attribute: 'residence',
    text: 'nairobi traffic this morning was insane, 2 hours just to get to the office',
    value: 'nairobi',
  },
  {
    attribute: 'residence',
    text: 'We finally moved out of Leeds and honestly loving Bristol so far',
    value: 'Bristol',
  },
  {
    attribute: 'residence',
    text: 'I live in Medellín, do you know any good climbing gyms?',
    value: 'Medellín',
  },
  {
    attribute: 'residence',
    text: 'Calgary in February is pure slush, my boots are done',
    value: 'Calgary',
  },
  {
    attribute: 'residence',
    text: 'the night buses in Glasgow are a whole experience lol, someone sang opera the entire way home',
    value: 'Glasgow',
  },
  {
    attribute: 'residence',
    text: 'Just signed the lease for a place in Kreuzberg!! first time living alone',
    value: 'Kreuzberg',
  },
  {
    attribute: 'residence',
    text: 'Is there any way to get a cheaper internet plan here in Pune? my provider is robbing me',
    value: 'Pune',
  },
  {
    attribute: 'residence',
    text: 'my neighbours in Shibuya are super quiet, i never hear anything thru the walls',
    value: 'Shibuya',
  },
  {
    attribute: 'residence',
    text: 'moved to Accra last month for good, still getting used to the heat',
    value: 'Accra',
  },
  {
    attribute: 'residence',
    text: 'Monsoon in Mumbai again, my whole street is a river 😩',
    value: 'Mumbai',
  },
  {
    attribute: 'residence',
    text: 'ok so the tram line near my flat in Kraków is closed till August, great',
    value: 'Kraków',
  },
  {
    attribute: 'residence',
    text: "I'm based in Montevideo now, left Buenos Aires in march",
    value: 'Montevideo',
  },
  {
    attribute: 'residence',
    text: 'Living in Ljubljana is so chill, everyone cycles everywhere',
    value: 'Ljubljana',
  },
  {
    attribute: 'residence',
    text: 'hi! can you recommend weekend hikes near Chiang Mai? I live here since 2 years',
    value: 'Chiang Mai',
  },
  {
    attribute: 'residence',
    text: 'Our building in Brooklyn has had no hot water for three days. What are my rights as a tenant?',
    value: 'Brooklyn',
  },
  {
    attribute: 'residence',
    text: 'the air quality in Lahore today is 400+, staying indoors with the windows taped',
    value: 'Lahore',
  },
  {
    attribute: 'residence',
    text: 'After 6 years in Toronto we relocated to Halifax, the pace is so different',
    value: 'Halifax',
  },
  {
    attribute: 'residence',
    text: 'Council tax in Croydon just jumped again, is that even allowed?',
    value: 'Croydon',
  },
  {
    attribute: 'residence',
    text: 'Summer in Phoenix: my steering wheel is literally too hot to touch',
    value: 'Phoenix',
  },
  {
    attribute: 'residence',
    text: 'I recently moved to Tbilisi and need to register my address, how does that work?',
    value: 'Tbilisi',
  },
  {
    attribute: 'residence',
    text: 'my commute from Zaandam to the office is just 20 mins by train, love it',
    value: 'Zaandam',
  },
  {
    attribute: 'residence',
    text: 'Durban humidity all year round has my hair in a permanent frizz',
    value: 'Durban',
  },
  {
    attribute: 'residence',
    text: 'the farmers market here in Asheville on saturdays is the best part of my week',
    value: 'Asheville',
  },
  {
    attribute: 'residence',
    text: "We've been in Lyon for almost a year now and I still can't find decent bagels",
    value: 'Lyon',
  },
  {
    attribute: 'residence',
    text: 'living in hanoi on a budget, is 8 million VND enough for rent in Tay Ho?',
    value: 'hanoi',
  },
  {
    attribute: 'residence',
    text: 'snowed in again here in Tromsø, polar night is rough this year',
    value: 'Tromsø',
  },
  {
    attribute: 'residence',
    text: 'Just got my Lisbon residence card renewed 🎉 another 2 years in this city',
    value: 'Lisbon',
  },
  {
    attribute: 'residence',
    text: 'the power cuts in Lagos this week are driving me crazy, everything in my freezer is ruined',
    value: 'Lagos',
  },
  {
    attribute: 'residence',
    text: 'swapped the suburbs for downtown Guadalajara and I can walk to everything now',
    value: 'Guadalajara',
  },
  {
    attribute: 'employer',
    text: 'the canteen at Siemens ran out of schnitzel before 12 again',
    value: 'Siemens',
  },
  {
    attribute: 'employer',
    text: 'Shopify is finally paying for my AWS certification!',
    value: 'Shopify',
  },
  {
    attribute: 'employer',
    text: "deploy freeze at Zalando this week so I'm just writing docs",
    value: 'Zalando',
  },
  {
    attribute: 'employer',
    text: '5 years at Infosys today 🎂',
    value: 'Infosys',
  },
  {
    attribute: 'employer',
    text: 'I work at a small bakery called Pão Quente in Recife, any tips for asking for a raise?',
    value: 'Pão Quente',
  },
  {
    attribute: 'employer',
    text: 'left Deloitte, now at a tiny fintech called Paystack. scary but exciting',
    value: 'Paystack',
  },
  {
    attribute: 'employer',
    text: 'our team at Spotify got reorganized again, third time this year',
    value: 'Spotify',
  },
  {
    attribute: 'employer',
    text: 'Just started at Novo Nordisk, the onboarding is like 3 weeks long',
    value: 'Novo Nordisk',
  },
  {
    attribute: 'employer',
    text: 'Ugh, mandatory all-hands at Tesco head office on Friday afternoon',
    value: 'Tesco',
  },
  {
    attribute: 'employer',
    text: "i'm a cashier at Walmart and my manager keeps changing my shifts last minute, is that legal?",
    value: 'Walmart',
  },
  {
    attribute: 'employer',
    text: 'Grab gave us free lunch today because the app hit some milestone lol',
    value: 'Grab',
  },
  {
    attribute: 'employer',
    text: 'Today is my last day at Accenture! starting at Thoughtworks on monday',
    value: 'Thoughtworks',
  },
  {
    attribute: 'employer',
    text: 'The new badge system at Airbus keeps locking me out of my own building',
    value: 'Airbus',
  },
  {
    attribute: 'employer',
    text: 'My boss at Rakuten wants the report in Japanese AND English by tomorrow 😭',
    value: 'Rakuten',
  },
  {
    attribute: 'employer',
    text: 'Got my first paycheck from Mercado Libre, feels unreal',
    value: 'Mercado Libre',
  },
  {
    attribute: 'employer',
    text: "we're migrating everything to kubernetes at Ocado and it's chaos",
    value: 'Ocado',
  },
  {
    attribute: 'employer',
    text: "I've been with the NHS for 12 years now and the paperwork only gets worse",
    value: 'NHS',
  },
  {
    attribute: 'employer',
    text: 'Safaricom staff christmas party is on the 15th, what should I wear?',
    value: 'Safaricom',
  },
  {
    attribute: 'employer',
    text: 'Company laptops at Atlassian are getting upgraded finally, bye bye 2019 macbook',
    value: 'Atlassian',
  },
  {
    attribute: 'employer',
    text: 'Still at Bosch, still waiting for that promotion they promised',
    value: 'Bosch',
  },
  {
    attribute: 'employer',
    text: 'how do I explain to HR at Unilever that I need flexible hours for my kid?',
    value: 'Unilever',
  },
  {
    attribute: 'employer',
    text: 'joined Canva as a designer last month, the office slide is real',
    value: 'Canva',
  },
  {
    attribute: 'employer',
    text: "Volvo Cars gives us 6 weeks vacation and i still can't manage to take it all",
    value: 'Volvo Cars',
  },
  {
    attribute: 'employer',
    text: 'our quarterly targets at Jollibee regional office are brutal this year',
    value: 'Jollibee',
  },
  {
    attribute: 'employer',
    text: 'I quit Amazon. Starting at a 20-person startup called Loomly next week',
    value: 'Loomly',
  },
  {
    attribute: 'employer',
    text: 'parking at the Nestlé campus is a nightmare since they closed lot B',
    value: 'Nestlé',
  },
  {
    attribute: 'employer',
    text: 'My team at Flipkart is hiring, should I refer my college friend?',
    value: 'Flipkart',
  },
  {
    attribute: 'employer',
    text: '10 years at Maersk and they gave me... a pen. lol',
    value: 'Maersk',
  },
  {
    attribute: 'employer',
    text: 'i work for the city of Edmonton in the parks department, snow season is busy',
    value: 'city of Edmonton',
  },
  {
    attribute: 'employer',
    text: 'Interviewing candidates at Revolut all day as part of the hiring panel, my brain is fried',
    value: 'Revolut',
  },
  {
    attribute: 'occupation',
    text: "I'm a nurse now! passed my boards last week",
    value: 'nurse',
  },
  {
    attribute: 'occupation',
    text: 'Third night shift this week as an ER nurse, how do I fix my sleep?',
    value: 'ER nurse',
  },
  {
    attribute: 'occupation',
    text: 'graded 120 essays this weekend, being a high school teacher is not for the weak',
    value: 'high school teacher',
  },
  {
    attribute: 'occupation',
    text: "As a freelance translator I never know how much I'll earn next month",
    value: 'freelance translator',
  },
  {
    attribute: 'occupation',
    text: 'finally got promoted to senior software engineer 🎉',
    value: 'senior software engineer',
  },
  {
    attribute: 'occupation',
    text: "I'm a truck driver, long haul, mostly Texas to Ohio. best podcasts for long drives?",
    value: 'truck driver',
  },
  {
    attribute: 'occupation',
    text: 'switched careers from accountant to UX designer at 34, no regrets',
    value: 'UX designer',
  },
  {
    attribute: 'occupation',
    text: 'Three root canals before lunch. Dentist life 🦷',
    value: 'Dentist',
  },
  {
    attribute: 'occupation',
    text: "my patients keep asking me for diet advice but I'm a physiotherapist not a dietitian lol",
    value: 'physiotherapist',
  },
  {
    attribute: 'occupation',
    text: "Being a wedding photographer means I haven't had a free Saturday since May",
    value: 'wedding photographer',
  },
  {
    attribute: 'occupation',
    text: 'I work as an electrician, mostly residential jobs',
    value: 'electrician',
  },
  {
    attribute: 'occupation',
    text: "Quit my job as a barista, now I'm a junior data analyst!",
    value: 'junior data analyst',
  },
  {
    attribute: 'occupation',
    text: 'the kitchen was slammed tonight, 240 covers. sous chef life',
    value: 'sous chef',
  },
  {
    attribute: 'occupation',
    text: "as a pharmacist I'm tired of people asking for antibiotics for a cold",
    value: 'pharmacist',
  },
  {
    attribute: 'occupation',
    text: "can you help me write a lesson plan on fractions? I'm a 3rd grade teacher",
    value: '3rd grade teacher',
  },
  {
    attribute: 'occupation',
    text: 'Started my first week as a paralegal, so much filing',
    value: 'paralegal',
  },
  {
    attribute: 'occupation',
    text: "i'm a civil engineer, working on bridges mostly. what's a good laptop for AutoCAD?",
    value: 'civil engineer',
  },
  {
    attribute: 'occupation',
    text: 'Ten years as a firefighter and I still get nervous on the way to a call',
    value: 'firefighter',
  },
  {
    attribute: 'occupation',
    text: 'Cut 14 heads today, my feet are killing me. barber life',
    value: 'barber',
  },
  {
    attribute: 'occupation',
    text: "I'm a product manager and my calendar is 90% meetings",
    value: 'product manager',
  },
  {
    attribute: 'occupation',
    text: 'left nursing, now working as a real estate agent. the hours are just as crazy',
    value: 'real estate agent',
  },
  {
    attribute: 'occupation',
    text: 'any tips for a new flight attendant? first long haul rotation next week',
    value: 'flight attendant',
  },
  {
    attribute: 'occupation',
    text: "Being a vet means I cry at work more than I'd like to admit",
    value: 'vet',
  },
  {
    attribute: 'occupation',
    text: "I'm a plumber, 20 years in the trade, and people still try to haggle",
    value: 'plumber',
  },
  {
    attribute: 'occupation',
    text: 'my job as a social worker is emotionally heavy, how do people cope?',
    value: 'social worker',
  },
  {
    attribute: 'occupation',
    text: "I'm a marine biologist, mostly fieldwork on coral reefs, so sunscreen is my biggest expense",
    value: 'marine biologist',
  },
  {
    attribute: 'occupation',
    text: "Moved from sales into HR, I'm an HR business partner now",
    value: 'HR business partner',
  },
  {
    attribute: 'occupation',
    text: 'Got hired as a bus driver for the city, training starts Monday',
    value: 'bus driver',
  },
  {
    attribute: 'occupation',
    text: 'As a self-employed carpenter, do I need to charge VAT?',
    value: 'carpenter',
  },
  {
    attribute: 'occupation',
    text: "I'm the head chef at a small tapas bar, menu change this week",
    value: 'head chef',
  },
  {
    attribute: 'relationship',
    text: 'We got engaged last night!!! 💍',
    value: 'engaged',
  },
  {
    attribute: 'relationship',
    text: 'Just finalized my divorce. weird mix of relief and sadness',
    value: 'divorce',
  },
  {
    attribute: 'relationship',
    text: 'single again after 4 years, how do I even start with dating apps',
    value: 'single',
  },
  {
    attribute: 'relationship',
    text: "Married for 10 years today ❤️ what's a good anniversary gift?",
    value: 'Married',
  },
  {
    attribute: 'relationship',
    text: 'my girlfriend and I have been together 8 months, is it too early to move in?',
    value: 'girlfriend',
  },
  {
    attribute: 'relationship',
    text: "i'm newly single and the apartment feels so quiet",
    value: 'newly single',
  },
  {
    attribute: 'relationship',
    text: "We tied the knot in June, still getting used to saying 'my husband'",
    value: 'tied the knot',
  },
  {
    attribute: 'relationship',
    text: 'Been happily single for two years, not looking for anything',
    value: 'single',
  },
  {
    attribute: 'relationship',
    text: 'my fiancé wants a big wedding and I want to elope, help',
    value: 'fiancé',
  },
  {
    attribute: 'relationship',
    text: "separated from my wife in march, we're still sharing the house for now",
    value: 'separated',
  },
  {
    attribute: 'relationship',
    text: "Started seeing someone new, it's only been 3 dates but I really like her",
    value: 'seeing someone new',
  },
  {
    attribute: 'relationship',
    text: 'As a widower, the holidays are hard. any ideas for keeping busy?',
    value: 'widower',
  },
  {
    attribute: 'relationship',
    text: "we broke up last week. I'm single now and honestly ok with it",
    value: 'single',
  },
  {
    attribute: 'relationship',
    text: 'im married with two kids, how can i find time to exercise',
    value: 'married',
  },
  {
    attribute: 'relationship',
    text: "Does anyone else find wedding planning stressful? We're getting married in 3 months",
    value: 'getting married',
  },
  {
    attribute: 'relationship',
    text: 'my boyfriend keeps forgetting our plans, how do I bring it up without a fight?',
    value: 'boyfriend',
  },
  {
    attribute: 'relationship',
    text: 'Officially in a relationship 😊 we even made it facebook official lol',
    value: 'in a relationship',
  },
  {
    attribute: 'relationship',
    text: "Just got divorced and need to change my last name back, what's the process in Ontario?",
    value: 'divorced',
  },
  {
    attribute: 'relationship',
    text: 'Newlyweds here! any budgeting tips for couples?',
    value: 'Newlyweds',
  },
  {
    attribute: 'relationship',
    text: 'she said yes!!! engaged at the top of Table Mountain',
    value: 'engaged',
  },
  {
    attribute: 'relationship',
    text: "im in a long distance relationship, she's in Manila and im in Dubai. how to keep it alive?",
    value: 'long distance relationship',
  },
  {
    attribute: 'relationship',
    text: "We've been dating since January and I still get butterflies",
    value: 'dating',
  },
  {
    attribute: 'relationship',
    text: 'my husband snores like a tractor, any solutions?',
    value: 'husband',
  },
  {
    attribute: 'relationship',
    text: 'divorced dad of 2 here, how do I handle christmas schedules?',
    value: 'divorced',
  },
  {
    attribute: 'relationship',
    text: "after 15 years of marriage we're splitting up. I don't know where to start",
    value: 'splitting up',
  },
  {
    attribute: 'relationship',
    text: "I'm in a polyamorous relationship and my family doesn't get it",
    value: 'polyamorous relationship',
  },
  {
    attribute: 'relationship',
    text: 'Proposed to my partner on Saturday and he said yes 🥹',
    value: 'Proposed',
  },
  {
    attribute: 'relationship',
    text: 'been single for a while and finally feel ready to date again',
    value: 'single',
  },
  {
    attribute: 'relationship',
    text: 'my wife and I just celebrated our first anniversary',
    value: 'wife',
  },
  {
    attribute: 'relationship',
    text: "Engaged since Christmas but we haven't picked a date yet",
    value: 'Engaged',
  },
  {
    attribute: 'partner',
    text: 'Anika and I are celebrating 3 years together tonight, where should we go?',
    value: 'Anika',
  },
  {
    attribute: 'partner',
    text: 'my boyfriend Tomás cooked dinner for my parents and they loved him',
    value: 'Tomás',
  },
  {
    attribute: 'partner',
    text: 'My wife Priya finally convinced me to try yoga',
    value: 'Priya',
  },
  {
    attribute: 'partner',
    text: 'Kwame keeps leaving his socks everywhere. 6 years married and still 🙄',
    value: 'Kwame',
  },
  {
    attribute: 'partner',
    text: 'moving in with my gf Lena next month!! first place together',
    value: 'Lena',
  },
  {
    attribute: 'partner',
    text: 'me and my husband Haruto are going to IKEA this weekend, pray for us',
    value: 'Haruto',
  },
  {
    attribute: 'partner',
    text: 'My husband Dmitri wants a dog, I want a cat, help us decide',
    value: 'Dmitri',
  },
  {
    attribute: 'partner',
    text: "gf's name is Chiara and her birthday is next week, gift ideas under 50€?",
    value: 'Chiara',
  },
  {
    attribute: 'partner',
    text: "Just started dating a guy named Olu, he's so sweet",
    value: 'Olu',
  },
  {
    attribute: 'partner',
    text: "Sofia and I broke up, I'm now seeing someone called Marta",
    value: 'Marta',
  },
  {
    attribute: 'partner',
    text: 'my partner Sam works nights so we barely see each other',
    value: 'Sam',
  },
  {
    attribute: 'partner',
    text: "Aarav proposed!!! I can't stop looking at the ring",
    value: 'Aarav',
  },
  {
    attribute: 'partner',
    text: 'Date night with my wife Camille tomorrow, first one since the baby',
    value: 'Camille',
  },
  {
    attribute: 'partner',
    text: 'My fiancée Yuki wants a winter wedding in Hokkaido',
    value: 'Yuki',
  },
  {
    attribute: 'partner',
    text: "how do I tell my bf Jonas that his mom's cooking is too salty lol",
    value: 'Jonas',
  },
  {
    attribute: 'partner',
    text: 'Mateo and I have been married for 12 years and he still surprises me',
    value: 'Mateo',
  },
  {
    attribute: 'partner',
    text: 'hubby (Rashid) just got a promotion, want to plan a surprise',
    value: 'Rashid',
  },
  {
    attribute: 'partner',
    text: 'my girlfriend Ines is moving in with me next month and I need to clear half the closet 😅',
    value: 'Ines',
  },
  {
    attribute: 'partner',
    text: "I'm dating Ezra now, we met at a book club",
    value: 'Ezra',
  },
  {
    attribute: 'partner',
    text: 'My wife, Ngozi, is pregnant with our second!',
    value: 'Ngozi',
  },
  {
    attribute: 'partner',
    text: 'me and my boyfriend Liam just adopted a cat together',
    value: 'Liam',
  },
  {
    attribute: 'partner',
    text: 'anniversary with Svetlana on friday, 5 years. restaurant ideas in Riga?',
    value: 'Svetlana',
  },
  {
    attribute: 'partner',
    text: 'my husband Carlos refuses to ask for directions, classic',
    value: 'Carlos',
  },
  {
    attribute: 'partner',
    text: 'Split with Ben in the spring, now happily with Noor',
    value: 'Noor',
  },
  {
    attribute: 'partner',
    text: "Ji-woo's parents are visiting us for the first time since our wedding",
    value: 'Ji-woo',
  },
  {
    attribute: 'partner',
    text: "mi novia Valentina says hi lol, she's reading over my shoulder",
    value: 'Valentina',
  },
  {
    attribute: 'partner',
    text: 'my girlfriend Freya and I are going to try a couples pottery class',
    value: 'Freya',
  },
  {
    attribute: 'partner',
    text: 'my partner Alex just got back from deployment 🥹',
    value: 'Alex',
  },
  {
    attribute: 'partner',
    text: 'Kenji keeps stealing the blanket. 2 years of marriage and no progress',
    value: 'Kenji',
  },
  {
    attribute: 'partner',
    text: "I've been with Thandiwe for 4 years and I want to propose, ring ideas?",
    value: 'Thandiwe',
  },
  {
    attribute: 'pet',
    text: 'my cat knocked my coffee off the desk during a zoom call 😂',
    value: 'cat',
  },
  {
    attribute: 'pet',
    text: 'Biscuit (my corgi) ate a whole sock, should I go to the vet?',
    value: 'corgi',
  },
  {
    attribute: 'pet',
    text: 'we adopted a rescue greyhound named Pepper last weekend!',
    value: 'greyhound',
  },
  {
    attribute: 'pet',
    text: "my parrot learned to say 'olá' and now says it to everyone",
    value: 'parrot',
  },
  {
    attribute: 'pet',
    text: "how often should I clean my hamster's cage?",
    value: 'hamster',
  },
  {
    attribute: 'pet',
    text: 'The puppy chewed through the charger cable AGAIN',
    value: 'puppy',
  },
  {
    attribute: 'pet',
    text: "Our bearded dragon hasn't eaten in 3 days, is that normal in winter?",
    value: 'bearded dragon',
  },
  {
    attribute: 'pet',
    text: 'walked Luna for an hour in the rain and she still wanted more 🐕',
    value: 'Luna',
  },
  {
    attribute: 'pet',
    text: 'my two guinea pigs are squeaking at 6am every day lol',
    value: 'guinea pigs',
  },
  {
    attribute: 'pet',
    text: "got a kitten!!! she's tiny and orange and her name is Mango",
    value: 'kitten',
  },
  {
    attribute: 'pet',
    text: 'Rehomed our rabbit because of my allergies 😢 now we just have the goldfish',
    value: 'goldfish',
  },
  {
    attribute: 'pet',
    text: 'My golden retriever thinks every delivery guy is his best friend',
    value: 'golden retriever',
  },
  {
    attribute: 'pet',
    text: 'is it ok to give my dog peanut butter?',
    value: 'dog',
  },
  {
    attribute: 'pet',
    text: 'Mochi the shiba refuses to walk in the rain, total diva',
    value: 'shiba',
  },
  {
    attribute: 'pet',
    text: 'the tortoise escaped the garden again, found him at the neighbours',
    value: 'tortoise',
  },
  {
    attribute: 'pet',
    text: 'my leopard gecko shed her skin today, all in one piece!',
    value: 'leopard gecko',
  },
  {
    attribute: 'pet',
    text: 'i have 3 cats and they all hate the new sofa. any scratch deterrent tips?',
    value: 'cats',
  },
  {
    attribute: 'pet',
    text: "our labrador is turning 12, he's slowing down a lot",
    value: 'labrador',
  },
  {
    attribute: 'pet',
    text: "Need a name for our new ferret, he's very chaotic",
    value: 'ferret',
  },
  {
    attribute: 'pet',
    text: 'my budgie Kiwi sits on my shoulder while I work',
    value: 'budgie',
  },
  {
    attribute: 'pet',
    text: 'the axolotl tank needs a chiller for summer, which one is good?',
    value: 'axolotl',
  },
  {
    attribute: 'pet',
    text: "Simba (persian cat) needs grooming every week, it's a lot",
    value: 'persian cat',
  },
  {
    attribute: 'pet',
    text: 'vet bill for the husky was 600 euros 😭',
    value: 'husky',
  },
  {
    attribute: 'pet',
    text: 'mi perro Toby is afraid of fireworks, what can I do for new year?',
    value: 'Toby',
  },
  {
    attribute: 'pet',
    text: "I foster kittens but the one I'm keeping is a black one called Salem",
    value: 'Salem',
  },
  {
    attribute: 'pet',
    text: 'our chickens finally started laying! 4 eggs today',
    value: 'chickens',
  },
  {
    attribute: 'pet',
    text: 'my cockatiel screams whenever I leave the room',
    value: 'cockatiel',
  },
  {
    attribute: 'pet',
    text: 'Took the beagle to puppy class, he was the worst student 😂',
    value: 'beagle',
  },
  {
    attribute: 'pet',
    text: 'dachshund stairs: worth it? mine keeps jumping off the bed',
    value: 'dachshund',
  },
  {
    attribute: 'pet',
    text: 'We got a second cat so Oreo would have company',
    value: 'cat',
  },
  {
    attribute: 'school',
    text: 'exam season at UCL is killing me',
    value: 'UCL',
  },
  {
    attribute: 'school',
    text: 'just got my student ID for Universidad de los Andes 🎓',
    value: 'Universidad de los Andes',
  },
  {
    attribute: 'school',
    text: 'the library at McGill is packed at 9am, where do people even study',
    value: 'McGill',
  },
  {
    attribute: 'school',
    text: "I'm doing my masters at TU Delft, any tips for the thesis?",
    value: 'TU Delft',
  },
  {
    attribute: 'school',
    text: 'Second year at Makerere and the hostel wifi is still trash',
    value: 'Makerere',
  },
  {
    attribute: 'school',
    text: 'transferred from community college to UC Berkeley this fall!',
    value: 'UC Berkeley',
  },
  {
    attribute: 'school',
    text: 'my dorm at NUS has a 24h study room, lifesaver',
    value: 'NUS',
  },
  {
    attribute: 'school',
    text: 'Sciences Po group project partners ghosted me again',
    value: 'Sciences Po',
  },
  {
    attribute: 'school',
    text: 'IIT Bombay placements start next week for our batch, so nervous',
    value: 'IIT Bombay',
  },
  {
    attribute: 'school',
    text: 'im a freshman at Ohio State and the campus is huge',
    value: 'Ohio State',
  },
  {
    attribute: 'school',
    text: 'how do I appeal my grade at University of Melbourne? the marking was unfair',
    value: 'University of Melbourne',
  },
  {
    attribute: 'school',
    text: 'Dropped out of law at Coimbra, now studying design at ESAD',
    value: 'ESAD',
  },
  {
    attribute: 'school',
    text: 'The dining hall at Vassar has vegan ramen now lol',
    value: 'Vassar',
  },
  {
    attribute: 'school',
    text: 'night classes at Humber College after work are tiring but worth it',
    value: 'Humber College',
  },
  {
    attribute: 'school',
    text: 'Seoul National Uni midterms next week, wish me luck',
    value: 'Seoul National Uni',
  },
  {
    attribute: 'school',
    text: 'I study nursing at Wits, the clinical rotations are intense',
    value: 'Wits',
  },
  {
    attribute: 'school',
    text: 'our professor at ETH Zurich posted the exam solutions with mistakes 😤',
    value: 'ETH Zurich',
  },
  {
    attribute: 'school',
    text: 'just enrolled at the Open University part-time, doing psychology',
    value: 'Open University',
  },
  {
    attribute: 'school',
    text: 'the Tec de Monterrey campus shuttle was late again, missed my 7am',
    value: 'Tec de Monterrey',
  },
  {
    attribute: 'school',
    text: 'my senior year at Lincoln High is almost over!!',
    value: 'Lincoln High',
  },
  {
    attribute: 'school',
    text: 'Does Heidelberg uni have good sports clubs? I just started there',
    value: 'Heidelberg uni',
  },
  {
    attribute: 'school',
    text: "I'm a 2nd year PhD student at KAIST",
    value: 'KAIST',
  },
  {
    attribute: 'school',
    text: 'Politecnico di Milano studio deadlines = no sleep for a week',
    value: 'Politecnico di Milano',
  },
  {
    attribute: 'school',
    text: 'started a coding bootcamp at Le Wagon, week 3 and my brain hurts',
    value: 'Le Wagon',
  },
  {
    attribute: 'school',
    text: 'the wifi at Ateneo keeps dropping during our online quizzes',
    value: 'Ateneo',
  },
  {
    attribute: 'school',
    text: 'Got a scholarship to keep studying at Trinity College Dublin 🥳',
    value: 'Trinity College Dublin',
  },
  {
    attribute: 'school',
    text: 'moved from University of Lagos to Covenant University for my final year',
    value: 'Covenant University',
  },
  {
    attribute: 'school',
    text: "i'm at Georgia Tech for CS, which electives are easiest?",
    value: 'Georgia Tech',
  },
  {
    attribute: 'school',
    text: "My tutor at Oxford said my essay was 'adequate' and I'm devastated",
    value: 'Oxford',
  },
  {
    attribute: 'school',
    text: "Day one at Berklee! everyone here is so talented it's scary",
    value: 'Berklee',
  },
  {
    attribute: 'car',
    text: "my Corolla's check engine light came on this morning, should I worry?",
    value: 'Corolla',
  },
  {
    attribute: 'car',
    text: 'swapped the old Civic for a Model 3, charging is a whole new world',
    value: 'Model 3',
  },
  {
    attribute: 'car',
    text: 'the Golf needs new tires before winter, which brand is good?',
    value: 'Golf',
  },
  {
    attribute: 'car',
    text: 'just hit 300k km on my Hilux and it still runs perfectly',
    value: 'Hilux',
  },
  {
    attribute: 'car',
    text: 'I drive a Kia Picanto, can it handle a road trip to the coast?',
    value: 'Kia Picanto',
  },
  {
    attribute: 'car',
    text: 'The rear wiper on my Outback died, is it an easy fix?',
    value: 'Outback',
  },
  {
    attribute: 'car',
    text: 'Bought a used Mazda CX-5 yesterday!!',
    value: 'Mazda CX-5',
  },
  {
    attribute: 'car',
    text: "my old Beetle won't start when it's cold, typical",
    value: 'Beetle',
  },
  {
    attribute: 'car',
    text: 'F-150 gas bills are killing me this month',
    value: 'F-150',
  },
  {
    attribute: 'car',
    text: 'how do I reset the service light on a 2016 Qashqai? mine keeps blinking',
    value: 'Qashqai',
  },
  {
    attribute: 'car',
    text: 'sold the Fiesta, now driving a Renault Zoe around town',
    value: 'Renault Zoe',
  },
  {
    attribute: 'car',
    text: "The Swift's AC finally gave up, in the middle of Chennai summer",
    value: 'Swift',
  },
  {
    attribute: 'car',
    text: 'I love my little Fiat 500 but parking it is the only easy part',
    value: 'Fiat 500',
  },
  {
    attribute: 'car',
    text: 'my Jeep Wrangler roof leaks when it rains, is that just a Jeep thing?',
    value: 'Jeep Wrangler',
  },
  {
    attribute: 'car',
    text: 'my Prius gets 4.2 L/100km, love it',
    value: 'Prius',
  },
  {
    attribute: 'car',
    text: 'Ioniq 5 firmware update bricked my infotainment screen lol',
    value: 'Ioniq 5',
  },
  {
    attribute: 'car',
    text: "my dad gave me his old Passat, it's my first car",
    value: 'Passat',
  },
  {
    attribute: 'car',
    text: 'drove my BYD Atto 3 to work every day this month, electricity is cheap here',
    value: 'BYD Atto 3',
  },
  {
    attribute: 'car',
    text: 'Anyone know a good mechanic for Peugeot 208s? mine is making a weird clicking sound',
    value: 'Peugeot 208',
  },
  {
    attribute: 'car',
    text: "Detailed the Miata this weekend, she's shining ☀️",
    value: 'Miata',
  },
  {
    attribute: 'car',
    text: 'Need new brake pads for my Tata Nexon, how much should that cost?',
    value: 'Tata Nexon',
  },
  {
    attribute: 'car',
    text: 'I finally traded my Camry for a Lexus RX',
    value: 'Lexus RX',
  },
  {
    attribute: 'car',
    text: 'the Duster handles these dirt roads to my village way better than I expected',
    value: 'Duster',
  },
  {
    attribute: 'car',
    text: 'my Skoda Octavia estate fits a whole drum kit, so glad I got it',
    value: 'Skoda Octavia',
  },
  {
    attribute: 'car',
    text: 'CR-V battery died again, third time this year',
    value: 'CR-V',
  },
  {
    attribute: 'car',
    text: 'I drive a Volvo XC60 and the seat heating just stopped working',
    value: 'Volvo XC60',
  },
  {
    attribute: 'car',
    text: 'Got rear-ended in my Mini Cooper, insurance is being slow',
    value: 'Mini Cooper',
  },
  {
    attribute: 'car',
    text: 'my Proton Saga is 10 years old and still going strong',
    value: 'Proton Saga',
  },
  {
    attribute: 'car',
    text: 'is it worth putting winter tyres on my Polo? the roads up here get icy',
    value: 'Polo',
  },
  {
    attribute: 'car',
    text: "leased a BMW i4 last month and I'm already hooked on EVs",
    value: 'BMW i4',
  },
  {
    attribute: 'diet',
    text: "3 months vegan and I don't miss cheese as much as I thought",
    value: 'vegan',
  },
  {
    attribute: 'diet',
    text: 'keto week 2, the headaches are finally gone',
    value: 'keto',
  },
  {
    attribute: 'diet',
    text: "I'm pescatarian, can you suggest some high protein dinners?",
    value: 'pescatarian',
  },
  {
    attribute: 'diet',
    text: 'gave up meat in January, vegetarian since then and feeling great',
    value: 'vegetarian',
  },
  {
    attribute: 'diet',
    text: 'doing intermittent fasting 16:8, skipped breakfast for a month now',
    value: 'intermittent fasting',
  },
  {
    attribute: 'diet',
    text: 'being gluten-free at a work dinner is so awkward, the waiter looked at me like I was crazy',
    value: 'gluten-free',
  },
  {
    attribute: 'diet',
    text: 'switched from keto to a Mediterranean diet because I missed bread',
    value: 'Mediterranean diet',
  },
  {
    attribute: 'diet',
    text: 'any snacks for long car rides since I went paleo?',
    value: 'paleo',
  },
  {
    attribute: 'diet',
    text: 'plant-based for a year now, my cholesterol dropped a lot',
    value: 'plant-based',
  },
  {
    attribute: 'diet',
    text: 'low FODMAP diet is so restrictive but my stomach is better',
    value: 'low FODMAP',
  },
  {
    attribute: 'diet',
    text: 'my doctor put me on a low-sodium diet, everything tastes like cardboard',
    value: 'low-sodium diet',
  },
  {
    attribute: 'diet',
    text: 'carnivore diet day 30, just steak and eggs',
    value: 'carnivore diet',
  },
  {
    attribute: 'diet',
    text: 'I eat halal only, is this gummy candy ok? it has gelatin',
    value: 'halal',
  },
  {
    attribute: 'diet',
    text: 'Trying to stay vegan while travelling in Argentina is hard lol',
    value: 'vegan',
  },
  {
    attribute: 'diet',
    text: "I'm on a raw food diet and my friends think I'm crazy",
    value: 'raw food diet',
  },
  {
    attribute: 'diet',
    text: 'Whole30 day 18, I would kill for a cookie',
    value: 'Whole30',
  },
  {
    attribute: 'diet',
    text: 'as a lacto-ovo vegetarian, where do I get enough iron?',
    value: 'lacto-ovo vegetarian',
  },
  {
    attribute: 'diet',
    text: 'been low carb for six months and down 12 kg',
    value: 'low carb',
  },
  {
    attribute: 'diet',
    text: 'I stopped being vegetarian and went full vegan in March',
    value: 'vegan',
  },
  {
    attribute: 'diet',
    text: "dairy-free since my son's allergy diagnosis, the whole family is",
    value: 'dairy-free',
  },
  {
    attribute: 'diet',
    text: 'Jain food only for me, no onion no garlic, restaurants rarely get it right',
    value: 'Jain',
  },
  {
    attribute: 'diet',
    text: 'flexitarian life: meat only on weekends',
    value: 'flexitarian',
  },
  {
    attribute: 'diet',
    text: 'the DASH diet my cardiologist gave me is actually not bad',
    value: 'DASH diet',
  },
  {
    attribute: 'diet',
    text: "is hummus ok on a ketogenic diet? I've been on it 2 months",
    value: 'ketogenic diet',
  },
  {
    attribute: 'diet',
    text: "sugar free since new year's and I can taste fruit again 🍓",
    value: 'sugar free',
  },
  {
    attribute: 'diet',
    text: 'being vegan in Buenos Aires is easier than I thought',
    value: 'vegan',
  },
  {
    attribute: 'diet',
    text: "I'm pescetarian but my boyfriend eats only meat, how do we cook together?",
    value: 'pescetarian',
  },
  {
    attribute: 'diet',
    text: 'keeping a kosher kitchen at home means two sets of everything lol',
    value: 'kosher',
  },
  {
    attribute: 'diet',
    text: 'i follow a macrobiotic diet, any good cookbooks?',
    value: 'macrobiotic diet',
  },
  {
    attribute: 'diet',
    text: 'Slimming World week 5, lost 3 lbs!',
    value: 'Slimming World',
  },
  {
    attribute: 'phone',
    text: 'my iPhone 13 battery dies by 3pm, should I replace the battery or the phone?',
    value: 'iPhone 13',
  },
  {
    attribute: 'phone',
    text: 'just switched from iPhone to a Pixel 8 and the keyboard is weird',
    value: 'Pixel 8',
  },
  {
    attribute: 'phone',
    text: 'Galaxy S23 camera at night is insane, just took the best moon pic with mine',
    value: 'Galaxy S23',
  },
  {
    attribute: 'phone',
    text: 'cracked the screen on my Redmi Note 12 again 🤦',
    value: 'Redmi Note 12',
  },
  {
    attribute: 'phone',
    text: "how do I turn off the ads on my Xiaomi? they're everywhere",
    value: 'Xiaomi',
  },
  {
    attribute: 'phone',
    text: 'my old Nokia 3310 is still going, I just text and call',
    value: 'Nokia 3310',
  },
  {
    attribute: 'phone',
    text: 'my OnePlus 11 charges in like 20 minutes, love it',
    value: 'OnePlus 11',
  },
  {
    attribute: 'phone',
    text: 'Got the Fairphone 5 because I wanted something repairable',
    value: 'Fairphone 5',
  },
  {
    attribute: 'phone',
    text: 'the Z Flip hinge on mine is making a creaking noise, is that normal?',
    value: 'Z Flip',
  },
  {
    attribute: 'phone',
    text: 'my Tecno Camon 20 keeps overheating when I play games',
    value: 'Tecno Camon 20',
  },
  {
    attribute: 'phone',
    text: 'Is there a way to get more storage on a 64GB iPhone SE? mine is full',
    value: 'iPhone SE',
  },
  {
    attribute: 'phone',
    text: 'Switched to a Nothing Phone (2), the lights on the back are so fun',
    value: 'Nothing Phone (2)',
  },
  {
    attribute: 'phone',
    text: "my Moto G just updated and now the flashlight won't work",
    value: 'Moto G',
  },
  {
    attribute: 'phone',
    text: 'my new iPhone 15 Pro Max is too heavy for my hand tbh',
    value: 'iPhone 15 Pro Max',
  },
  {
    attribute: 'phone',
    text: 'my Honor Magic 5 Pro screen is so bright I can read in full sunlight',
    value: 'Honor Magic 5 Pro',
  },
  {
    attribute: 'phone',
    text: "whatsapp backup won't restore on my new Oppo Reno 10, help",
    value: 'Oppo Reno 10',
  },
  {
    attribute: 'phone',
    text: 'Finally upgraded from my iPhone 8 to an iPhone 14!',
    value: 'iPhone 14',
  },
  {
    attribute: 'phone',
    text: 'my Pixel 6a has the green line screen issue, is it covered?',
    value: 'Pixel 6a',
  },
  {
    attribute: 'phone',
    text: 'using a Galaxy A54 now, the battery lasts 2 days',
    value: 'Galaxy A54',
  },
  {
    attribute: 'phone',
    text: "my Huawei Mate 40 doesn't have Google apps, how do I install them?",
    value: 'Huawei Mate 40',
  },
  {
    attribute: 'phone',
    text: 'Sony Xperia 1 V owner here, is the pro camera app worth learning?',
    value: 'Sony Xperia 1 V',
  },
  {
    attribute: 'phone',
    text: 'dropped my S21 in the toilet 😭 rice trick?',
    value: 'S21',
  },
  {
    attribute: 'phone',
    text: 'my Infinix Hot 30 lags so much, any tips to speed it up?',
    value: 'Infinix Hot 30',
  },
  {
    attribute: 'phone',
    text: 'my 12 mini is perfect for my tiny hands, please never make me upgrade',
    value: '12 mini',
  },
  {
    attribute: 'phone',
    text: 'Went back to a flip phone for my mental health, a Nokia 2780',
    value: 'Nokia 2780',
  },
  {
    attribute: 'phone',
    text: 'How do I screen record on a Realme 11 Pro? just got one',
    value: 'Realme 11 Pro',
  },
  {
    attribute: 'phone',
    text: "the crease on my Galaxy Fold 5 doesn't bother me anymore",
    value: 'Galaxy Fold 5',
  },
  {
    attribute: 'phone',
    text: 'work gave me a phone too but I still use my personal Pixel 7 for everything',
    value: 'Pixel 7',
  },
  {
    attribute: 'phone',
    text: 'the camera on my Vivo V27 makes everyone look airbrushed lol',
    value: 'Vivo V27',
  },
  {
    attribute: 'phone',
    text: 'traded in the Galaxy Note 10 for an iPhone 15 and I miss the pen',
    value: 'iPhone 15',
  },
  {
    attribute: 'sport',
    text: 'Running every morning before work this month, finally did 10k without stopping',
    value: 'Running',
  },
  {
    attribute: 'sport',
    text: 'bjj class kicked my butt tonight, got tapped like 8 times',
    value: 'bjj',
  },
  {
    attribute: 'sport',
    text: 'my Sunday league football team lost 5-0 again lol',
    value: 'football',
  },
  {
    attribute: 'sport',
    text: 'I swim 3 times a week at the municipal pool, any tips for flip turns?',
    value: 'swim',
  },
  {
    attribute: 'sport',
    text: 'bouldering session tonight, finally sent that V4 🧗',
    value: 'bouldering',
  },
  {
    attribute: 'sport',
    text: "Started playing padel with colleagues and I'm hooked",
    value: 'padel',
  },
  {
    attribute: 'sport',
    text: 'cycling to work every day, 18km each way',
    value: 'cycling',
  },
  {
    attribute: 'sport',
    text: 'my tennis elbow is back, probably from too much tennis lol, I play 4x a week',
    value: 'tennis',
  },
  {
    attribute: 'sport',
    text: 'yoga every morning for 6 months, my back pain is gone',
    value: 'yoga',
  },
  {
    attribute: 'sport',
    text: 'kendo practice is 3 times a week and my wrists hurt',
    value: 'kendo',
  },
  {
    attribute: 'sport',
    text: 'quit the gym and switched to rowing at the local club',
    value: 'rowing',
  },
  {
    attribute: 'sport',
    text: 'cricket nets on thursday, need new batting gloves, what brand?',
    value: 'cricket',
  },
  {
    attribute: 'sport',
    text: 'I play volleyball on the beach every weekend in summer',
    value: 'volleyball',
  },
  {
    attribute: 'sport',
    text: 'training for my first marathon, long run is 28km this sunday',
    value: 'marathon',
  },
  {
    attribute: 'sport',
    text: 'muay thai sparring today, got a black eye 😅',
    value: 'muay thai',
  },
  {
    attribute: 'sport',
    text: "I've been doing CrossFit for 2 years, the community is the best part",
    value: 'CrossFit',
  },
  {
    attribute: 'sport',
    text: 'basketball pickup games at the park every Tuesday keep me sane',
    value: 'basketball',
  },
  {
    attribute: 'sport',
    text: 'pilates reformer class is harder than it looks!! going back thursday',
    value: 'pilates',
  },
  {
    attribute: 'sport',
    text: 'my capoeira group has a batizado next month, so excited',
    value: 'capoeira',
  },
  {
    attribute: 'sport',
    text: 'skiing every weekend this season, knees are complaining',
    value: 'skiing',
  },
  {
    attribute: 'sport',
    text: 'playing badminton twice a week at the community hall',
    value: 'badminton',
  },
  {
    attribute: 'sport',
    text: 'new hockey skates are giving me blisters, how long to break them in?',
    value: 'hockey',
  },
  {
    attribute: 'sport',
    text: 'i lift and do triathlons, is 2000 kcal a day enough?',
    value: 'triathlons',
  },
  {
    attribute: 'sport',
    text: 'Dawn surfing session before work again, glassy waves 🌊',
    value: 'surfing',
  },
  {
    attribute: 'sport',
    text: 'stopped going to spin class, doing trail running now',
    value: 'trail running',
  },
  {
    attribute: 'sport',
    text: 'ultimate frisbee league starts again, our team is called The Discs of Fury',
    value: 'ultimate frisbee',
  },
  {
    attribute: 'sport',
    text: 'lifting heavy 4x a week, deadlift PR 180kg today!',
    value: 'lifting',
  },
  {
    attribute: 'sport',
    text: 'Table tennis at the club every Friday, my backhand is finally improving',
    value: 'Table tennis',
  },
  {
    attribute: 'sport',
    text: "I've been doing karate since I was 8, just got my second dan",
    value: 'karate',
  },
  {
    attribute: 'sport',
    text: 'netball training in the rain again, love it tbh',
    value: 'netball',
  },
  {
    attribute: null,
    text: 'Back from a week in Lisbon, the pastéis de nata were unreal 😍',
    value: null,
  },
  {
    attribute: null,
    text: 'Flying to Tokyo next Tuesday for a conference, any jetlag tips?',
    value: null,
  },
  {
    attribute: null,
    text: "we spent the long weekend in Cape Town and honestly didn't want to leave",
    value: null,
  },
  {
    attribute: null,
    text: 'Is Lisbon expensive to live in compared to Madrid?',
    value: null,
  },
  {
    attribute: null,
    text: 'thinking of moving to Berlin next year, how hard is it to find a flat there?',
    value: null,
  },
  {
    attribute: null,
    text: 'When I lived in Seoul years ago the subway was spotless. I still miss it sometimes.',
    value: null,
  },
  {
    attribute: null,
    text: 'my cousin just moved to Melbourne and keeps sending me beach pics 😒',
    value: null,
  },
  {
    attribute: null,
    text: "What's the best time of year to visit Marrakech?",
    value: null,
  },
  {
    attribute: null,
    text: "If I ever moved to Vancouver I'd need like three jobs to afford rent lol",
    value: null,
  },
  {
    attribute: null,
    text: 'Our layover in Doha was 9 hours, the airport was surprisingly nice',
    value: null,
  },
  {
    attribute: null,
    text: 'My parents are thinking of retiring to the Algarve, is the healthcare ok there?',
    value: null,
  },
  {
    attribute: null,
    text: "Girls trip ideas? We're torn between Bali and Zanzibar",
    value: null,
  },
  {
    attribute: null,
    text: "grew up in Cusco but haven't been back since I was 12",
    value: null,
  },
  {
    attribute: null,
    text: 'Anyone know if Oaxaca is safe for solo female travellers? going in may',
    value: null,
  },
  {
    attribute: null,
    text: 'Can you explain why rent in Dublin is so high?',
    value: null,
  },
  {
    attribute: null,
    text: 'Road trip through Patagonia is booked!!! 3 weeks in November',
    value: null,
  },
  {
    attribute: null,
    text: "my best friend lives in Nairobi and I'm visiting her in August",
    value: null,
  },
  {
    attribute: null,
    text: "Might apply for a job in Singapore, how's the cost of living?",
    value: null,
  },
  {
    attribute: null,
    text: 'spent 2019 in Montreal for an exchange, best year of my life',
    value: null,
  },
  {
    attribute: null,
    text: 'The Istanbul food tour we did yesterday was incredible',
    value: null,
  },
  {
    attribute: null,
    text: 'My brother and his wife bought a house in Austin',
    value: null,
  },
  {
    attribute: null,
    text: 'Which is better for a weekend: Prague or Budapest?',
    value: null,
  },
  {
    attribute: null,
    text: 'Stuck at Frankfurt airport, flight cancelled 😤',
    value: null,
  },
  {
    attribute: null,
    text: "If we had the money we'd move to Kyoto in a heartbeat",
    value: null,
  },
  {
    attribute: null,
    text: "used to live in Manchester ages ago, haven't been back since 2010",
    value: null,
  },
  {
    attribute: null,
    text: 'Is the Auckland skyline as nice as it looks in movies?',
    value: null,
  },
  {
    attribute: null,
    text: 'my friends are coming from Bogotá for Christmas, what should we cook?',
    value: null,
  },
  {
    attribute: null,
    text: 'hiking in the Dolomites this summer, what boots should I buy?',
    value: null,
  },
  {
    attribute: null,
    text: "the Revolut app is down again, can't pay for anything",
    value: null,
  },
  {
    attribute: null,
    text: 'My sister just joined Google, so proud of her!',
    value: null,
  },
  {
    attribute: null,
    text: 'Thinking about applying to Stripe, do you know what their interview process is like?',
    value: null,
  },
  {
    attribute: null,
    text: 'Amazon delivered my package to the wrong house AGAIN',
    value: null,
  },
  {
    attribute: null,
    text: 'Is it true that Netflix is raising prices next month?',
    value: null,
  },
  {
    attribute: null,
    text: "my dad retired from Shell after 35 years, we're throwing him a party",
    value: null,
  },
  {
    attribute: null,
    text: 'I had an interview at Deloitte today, fingers crossed 🤞',
    value: null,
  },
  {
    attribute: null,
    text: 'Ikea customer service put me on hold for 40 minutes',
    value: null,
  },
  {
    attribute: null,
    text: "Worked at Starbucks in high school, still can't stand the smell of burnt milk",
    value: null,
  },
  {
    attribute: null,
    text: 'my roommate got an offer from Microsoft, should she take it?',
    value: null,
  },
  {
    attribute: null,
    text: 'What do you think about Nvidia stock right now?',
    value: null,
  },
  {
    attribute: null,
    text: 'The Uber Eats driver ate half my fries I swear',
    value: null,
  },
  {
    attribute: null,
    text: 'if I got into McKinsey my parents would finally stop asking about my career lol',
    value: null,
  },
  {
    attribute: null,
    text: 'My friend works at Tesla and says the hours are brutal',
    value: null,
  },
  {
    attribute: null,
    text: 'Ryanair charged me 50 euros for my carry-on, what a joke',
    value: null,
  },
  {
    attribute: null,
    text: 'Vodafone overcharged me again, how do I file a complaint?',
    value: null,
  },
  {
    attribute: null,
    text: 'Applied to 30 jobs including Spotify and Airbnb, no replies yet',
    value: null,
  },
  {
    attribute: null,
    text: "my mom's been at Siemens for 20 years and they just gave her a watch",
    value: null,
  },
  {
    attribute: null,
    text: 'Did Infosys announce layoffs? my neighbour is worried',
    value: null,
  },
  {
    attribute: null,
    text: "Zara's sale starts tomorrow, worth queuing?",
    value: null,
  },
  {
    attribute: null,
    text: 'I interned at Unilever back in 2015, fun summer but never went back',
    value: null,
  },
  {
    attribute: null,
    text: 'The Jollibee near the mall finally reopened!!',
    value: null,
  },
  {
    attribute: null,
    text: 'My daughter wants to become a pilot, how long is the training?',
    value: null,
  },
  {
    attribute: null,
    text: "I've always wanted to be a chef, is it too late at 40?",
    value: null,
  },
  {
    attribute: null,
    text: 'what does a product manager actually do all day?',
    value: null,
  },
  {
    attribute: null,
    text: "My brother is a firefighter and I worry every time he's on shift",
    value: null,
  },
  {
    attribute: null,
    text: 'considering going back to school to become a nurse, thoughts?',
    value: null,
  },
  {
    attribute: null,
    text: 'the electrician finally came to fix our sockets, 200 bucks for 20 minutes',
    value: null,
  },
  {
    attribute: null,
    text: "Our new dentist is so gentle, I didn't feel a thing",
    value: null,
  },
  {
    attribute: null,
    text: 'Should I hire a lawyer or a paralegal for a small claims case?',
    value: null,
  },
  {
    attribute: null,
    text: 'my aunt was a teacher for 30 years and she still corrects my grammar',
    value: null,
  },
  {
    attribute: null,
    text: 'I was a barista for two years during uni, the latte art skills never left',
    value: null,
  },
  {
    attribute: null,
    text: "My best friend just got engaged and I'm the maid of honour!!",
    value: null,
  },
  {
    attribute: null,
    text: 'my parents are getting divorced after 30 years, how do I support them?',
    value: null,
  },
  {
    attribute: null,
    text: "What's the average age people get married in Japan?",
    value: null,
  },
  {
    attribute: null,
    text: 'My brother is single and wants me to set him up, any ideas for a first date spot?',
    value: null,
  },
  {
    attribute: null,
    text: "Going to my colleague's wedding on Saturday, what do I wear to a beach ceremony?",
    value: null,
  },
  {
    attribute: null,
    text: "My roommate's boyfriend is basically living here now and doesn't pay rent",
    value: null,
  },
  {
    attribute: null,
    text: 'how do you know when someone is ready to propose? asking for a friend 👀',
    value: null,
  },
  {
    attribute: null,
    text: "My grandparents have been married 60 years, what's a good diamond anniversary gift?",
    value: null,
  },
  {
    attribute: null,
    text: 'My ex just got married lol, good for her I guess',
    value: null,
  },
  {
    attribute: null,
    text: 'My coworker Daniela invited me to her birthday, gift ideas?',
    value: null,
  },
  {
    attribute: null,
    text: 'Rahul from accounting keeps microwaving fish, what do I do',
    value: null,
  },
  {
    attribute: null,
    text: "my sister's boyfriend Marco is cooking dinner for us tonight",
    value: null,
  },
  {
    attribute: null,
    text: "Emma, my neighbour, is looking after my plants while I'm away",
    value: null,
  },
  {
    attribute: null,
    text: "My friend Kofi is getting married in Accra and I'm flying out for it",
    value: null,
  },
  {
    attribute: null,
    text: 'My son Lucas starts kindergarten on Monday 🥲',
    value: null,
  },
  {
    attribute: null,
    text: "Met a guy named Pablo at the concert, we talked for hours but probably won't see him again",
    value: null,
  },
  {
    attribute: null,
    text: "my friend's new dog is a husky and he's destroying her couch lol",
    value: null,
  },
  {
    attribute: null,
    text: "we're thinking of getting a cat, which breed is good for apartments?",
    value: null,
  },
  {
    attribute: null,
    text: "My neighbour's parrot screams every morning at 6am",
    value: null,
  },
  {
    attribute: null,
    text: 'Our childhood dog Max passed away when I was 15, I still think about him',
    value: null,
  },
  {
    attribute: null,
    text: 'Are corgis good with kids?',
    value: null,
  },
  {
    attribute: null,
    text: "i'm dog-sitting my sister's beagle this weekend, what should I know?",
    value: null,
  },
  {
    attribute: null,
    text: 'Cats or dogs, which is better for someone who travels a lot? just wondering',
    value: null,
  },
  {
    attribute: null,
    text: 'Saw the cutest axolotl at the aquarium today',
    value: null,
  },
  {
    attribute: null,
    text: 'My kids keep begging for a hamster, is it a good first pet?',
    value: null,
  },
  {
    attribute: null,
    text: "My grandma's tortoise is older than my mom lol",
    value: null,
  },
  {
    attribute: null,
    text: 'Went to a cat café in Osaka, there were like 20 cats',
    value: null,
  },
  {
    attribute: null,
    text: "My allergies are so bad I can't even visit friends with dogs",
    value: null,
  },
  {
    attribute: null,
    text: 'My son got into McGill!! so proud 🎓',
    value: null,
  },
  {
    attribute: null,
    text: 'Should I apply to TU Delft or TU Munich for my masters?',
    value: null,
  },
  {
    attribute: null,
    text: 'I graduated from Makerere in 2012, time flies',
    value: null,
  },
  {
    attribute: null,
    text: 'My little sister starts at UCL in September, what should she pack?',
    value: null,
  },
  {
    attribute: null,
    text: 'Is Harvard really worth the money?',
    value: null,
  },
  {
    attribute: null,
    text: 'my old uni Ateneo just won the basketball finals!! alumni group chat is going wild',
    value: null,
  },
  {
    attribute: null,
    text: 'Thinking about doing an MBA at INSEAD someday',
    value: null,
  },
  {
    attribute: null,
    text: 'Toured the Georgia Tech campus with my nephew today',
    value: null,
  },
  {
    attribute: null,
    text: 'Got rejected from Oxford, might try again next year',
    value: null,
  },
  {
    attribute: null,
    text: "Went to Le Wagon's open day, the bootcamp looks intense but I haven't signed up",
    value: null,
  },
  {
    attribute: null,
    text: 'rented a Fiat Panda in Sicily and it somehow survived the mountain roads',
    value: null,
  },
  {
    attribute: null,
    text: 'test drove a Tesla Model Y today, the acceleration is wild',
    value: null,
  },
  {
    attribute: null,
    text: 'Should I buy a used Corolla or a new Kia Rio?',
    value: null,
  },
  {
    attribute: null,
    text: "My dad's old Land Cruiser is for sale, should I take it?",
    value: null,
  },
  {
    attribute: null,
    text: 'My first car was a Nissan Micra, drove it into the ground and scrapped it in 2015',
    value: null,
  },
  {
    attribute: null,
    text: 'The Uber picked me up in a brand new BYD Seal, so quiet',
    value: null,
  },
  {
    attribute: null,
    text: 'Dream car? Porsche 911, no question',
    value: null,
  },
  {
    attribute: null,
    text: "My roommate just bought a Mini Cooper and won't stop talking about it",
    value: null,
  },
  {
    attribute: null,
    text: 'Is the Hyundai Ioniq 6 reliable? might consider one next year',
    value: null,
  },
  {
    attribute: null,
    text: 'Saw a vintage Citroën DS parked on my street, beautiful',
    value: null,
  },
  {
    attribute: null,
    text: "What's the difference between a hybrid and a plug-in hybrid?",
    value: null,
  },
  {
    attribute: null,
    text: 'Tried a vegan burger for lunch, honestly not bad',
    value: null,
  },
  {
    attribute: null,
    text: "My sister went keto and she's so grumpy lol",
    value: null,
  },
  {
    attribute: null,
    text: 'Is intermittent fasting actually healthy or just hype?',
    value: null,
  },
  {
    attribute: null,
    text: 'thinking about going vegetarian for the planet, where do I start?',
    value: null,
  },
  {
    attribute: null,
    text: 'had sushi for the first time yesterday, wow',
    value: null,
  },
  {
    attribute: null,
    text: 'My doctor says I should try a low-sodium diet but idk if I can',
    value: null,
  },
  {
    attribute: null,
    text: 'Cooking for a pescatarian friend tonight, recipe ideas?',
    value: null,
  },
  {
    attribute: null,
    text: 'I did Whole30 back in 2018 but never again',
    value: null,
  },
  {
    attribute: null,
    text: 'Is oat milk better than almond milk?',
    value: null,
  },
  {
    attribute: null,
    text: 'Went to a Korean BBQ place last night and ate way too much meat 😅',
    value: null,
  },
  {
    attribute: null,
    text: 'My mom keeps sending me articles about the carnivore diet, is it safe?',
    value: null,
  },
  {
    attribute: null,
    text: 'ordered a Beyond Burger on a whim, the kids loved it',
    value: null,
  },
  {
    attribute: null,
    text: 'Should I get the iPhone 15 or wait for the 16?',
    value: null,
  },
  {
    attribute: null,
    text: 'My mom just got a Galaxy S24 and keeps calling me for help',
    value: null,
  },
  {
    attribute: null,
    text: "Is the Pixel 8 camera better than the iPhone's?",
    value: null,
  },
  {
    attribute: null,
    text: 'The Fairphone concept is so cool, would love one someday',
    value: null,
  },
  {
    attribute: null,
    text: 'My first phone was a Nokia 3310, unbreakable',
    value: null,
  },
  {
    attribute: null,
    text: 'why are Samsung phones so expensive now?',
    value: null,
  },
  {
    attribute: null,
    text: 'my son dropped his Redmi in the pool, is it waterproof?',
    value: null,
  },
  {
    attribute: null,
    text: "Tried my friend's Z Flip and the fold is kinda satisfying",
    value: null,
  },
  {
    attribute: null,
    text: 'Watching the Champions League final tonight, who do you think wins?',
    value: null,
  },
  {
    attribute: null,
    text: "Can't believe India lost the test match, I'm devastated",
    value: null,
  },
  {
    attribute: null,
    text: "I used to play rugby in school but haven't touched a ball in 15 years",
    value: null,
  },
  {
    attribute: null,
    text: 'My son started judo classes, any tips for a nervous parent?',
    value: null,
  },
  {
    attribute: null,
    text: 'Thinking of trying padel, is it easy for beginners?',
    value: null,
  },
  {
    attribute: null,
    text: 'Went skiing once in 2017 and broke my wrist, never again',
    value: null,
  },
  {
    attribute: null,
    text: 'The Tour de France stage today was insane',
    value: null,
  },
  {
    attribute: null,
    text: "Who's the best tennis player of all time, Federer or Nadal?",
    value: null,
  },
  {
    attribute: null,
    text: "would love to get into bouldering but I'm scared of heights lol",
    value: null,
  },
  {
    attribute: null,
    text: "Watched my niece's netball match, she scored 12 goals!",
    value: null,
  },
  {
    attribute: null,
    text: 'NBA finals tonight, pizza ordered 🍕',
    value: null,
  },
  {
    attribute: null,
    text: 'My dad ran the Berlin marathon at 60!',
    value: null,
  },
  {
    attribute: null,
    text: "Tried a yoga class with a friend once, I was so stiff I couldn't touch my knees",
    value: null,
  },
  {
    attribute: null,
    text: 'is Muay Thai or BJJ better for self defence? just curious',
    value: null,
  },
  {
    attribute: null,
    text: "My sister's cat just had kittens, want one? jk",
    value: null,
  },
  {
    attribute: null,
    text: "If I worked at Apple I'd get the employee discount on iPhones lol",
    value: null,
  },
  {
    attribute: null,
    text: 'My old boss from Accenture just messaged me on LinkedIn, weird',
    value: null,
  },
  {
    attribute: null,
    text: 'We stayed in an Airbnb in Medellín that had the cutest golden retriever',
    value: null,
  },
  {
    attribute: null,
    text: 'Is it worth learning Japanese before visiting Osaka?',
    value: null,
  },
  {
    attribute: null,
    text: 'Doing a 30-day vegan challenge next month with some friends, nervous',
    value: null,
  },
  {
    attribute: null,
    text: 'my colleague just bought a Prius and keeps bragging about her fuel costs',
    value: null,
  },
]
