/** Names a turn addresses as vocatives ("Thanks, Melanie!", "Jon, look at this"): they are not its speaker. */

/** Labels that introduce a field or a section ("Note: …", "Action items:"): neither a speaker nor a name addressed. */
export const fieldLabels = new Set(
  'note|notes|subject|re|fwd|fw|from|to|cc|bcc|date|sent|time|when|where|location|venue|agenda|summary|attendees|participants|present|absent|action items|action item|next steps|decisions|decision|todo|to do|warning|caution|update|ps|p.s|p.s.|nb|question|answer|q|a|tip|tips|example|important|reminder|result|results|status|title|topic|total|price|cost|address|phone|email|e-mail|tel|fax|website|url|link|source|category|tags|tag|type|name|description|details|deadline|due|owner|priority|goal|goals|objective|objectives|outcome|background|context|conclusion|overview|highlights|key points|remember|bonus|edit|fyi|btw|ingredients|directions|instructions|pros|cons|disclaimer|translation|transcript|minutes|meeting|step|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|january|february|march|april|may|june|july|august|september|october|november|december'.split(
    '|',
  ),
)

/** Forms of address that are not names ("Thanks, guys!", "Hey buddy"). */
const nonNameAddresses = new Set(
  'god man dude bro bruh guys guy everyone everybody all folks team buddy bud sir madam maam mom dad mum mommy daddy babe baby honey girl girls friend friends mate pal love dear sweetie there you yall'.split(
    ' ',
  ),
)

/** Capitalized at the start of a clause but not names: "Well, …", "Honestly, …". */
const clauseOpeners = new Set(
  'well yes yeah yep no nope oh ah so also anyway anyways besides however meanwhile otherwise overall plus still then now okay ok sure right wow hey hi hello thanks thank sorry congrats congratulations please sadly luckily honestly'.split(
    ' ',
  ),
)

const interjection =
  'hey|hi|hello|hiya|heya|yo|thanks|thank you|thx|congrats|congratulations|bye|goodbye|see ya|see you|cheers|dear|morning|good morning|good night|welcome|sorry|wow|oh|aw+|yeah|yes|yep|nope|no|ok|okay|sure|great|awesome|cool|nice|haha|lol|omg|ah|totally|absolutely|definitely|exactly|true|agreed'
const afterInterjection = new RegExp(
  String.raw`(?:^|[\s,.!?])(?:${interjection})[\s,]+(\p{L}[\p{L}'’-]*)(?=\s*(?:[!,.?;:—–-]|$))`,
  'giu',
)
// After a capitalized word the comma lists places ("Portland, Oregon."), not a vocative ("That's great, Jon!").
const tailVocative = /(?<!\p{Lu}[\p{L}'’-]*),\s*(\p{Lu}[\p{L}'’-]*)\s*(?=[!?.]|$)/gu
const headVocative = /(?:^|[.!?]\s+)(\p{Lu}[\p{L}'’-]*),\s/gu

function isAddressName(word: string): boolean {
  const lower = word.toLowerCase().replace(/['’]s$/, '')
  return (
    /^\p{Lu}\p{Ll}/u.test(word) &&
    !nonNameAddresses.has(lower) &&
    !clauseOpeners.has(lower) &&
    !fieldLabels.has(lower) &&
    !lower.endsWith('ly')
  )
}

/**
 * Names used as vocatives, in order of appearance: "Hey Mel!", "Thanks, Caroline.", "That's great, Jon!",
 * "Maria, look at this".
 */
export function addressedNames(text: string): string[] {
  const found: { name: string; at: number }[] = []
  for (const pattern of [afterInterjection, tailVocative, headVocative]) {
    pattern.lastIndex = 0
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const word = match[1] ?? ''
      if (isAddressName(word)) found.push({ name: word, at: match.index + match[0].indexOf(word) })
    }
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map(({ name }) => name))]
}
