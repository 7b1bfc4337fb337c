/**
 * Who says what: splits chat logs, transcripts and emails into speaker turns, each with the names it addresses.
 */
import { addressedNames, fieldLabels } from './vocatives.js'

export interface SpeakerTurn {
  /** The speaker's name as labelled, or null for text without speaker labels (notes, articles). */
  speaker: string | null
  text: string
  /** Names the turn addresses: email recipients and names used as vocatives ("Thanks, Melanie!"). */
  addressees: string[]
}

/** Document types whose lines are speaker turns even when only one line carries a label. */
const conversationalTypes = new Set([
  'ai-chat-conversation',
  'human-chat-conversation',
  'meeting-transcript',
  'audio',
  'support-ticket',
])

const roleLabels: Record<string, string> = {
  user: 'User',
  assistant: 'Assistant',
  human: 'Human',
  ai: 'AI',
  system: 'System',
  bot: 'Bot',
  agent: 'Agent',
  customer: 'Customer',
}

const nameWord = String.raw`\p{Lu}[\p{L}\p{M}'’.-]*`
const nameParticle = String.raw`(?:van|von|de|der|den|da|del|della|di|du|la|le|bin|al|el)`
const personName = String.raw`${nameWord}(?:\s+(?:${nameWord}|${nameParticle}(?=\s)|\d{1,2}\b)){0,3}`
const roleName = String.raw`(?:[Uu]ser|[Aa]ssistant|[Hh]uman|AI|ai|[Ss]ystem|[Bb]ot|[Aa]gent|[Cc]ustomer)`
const timestamp = String.raw`(?:\[[^\]\n]{0,24}\d[^\]\n]{0,24}\]|\(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?\)|\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?(?:\s*[-–|])?)`
const emphasis = String.raw`(?:\*\*|__)?`
const speakerLine = new RegExp(
  String.raw`^\s*(?:${timestamp}\s*)?${emphasis}(${roleName}|${personName})(?:\s*[([]([^()[\]\n]{1,40})[)\]])?${emphasis}\s*:${emphasis}(?:\s+|$)(.*)$`,
  'u',
)
/** What a label's parenthesis says of a named speaker: "Nova (assistant):", "Max [AI]:" are the assistant. */
const assistantRole = /^(?:an?\s+)?(?:ai|assistant|ai assistant|bot|chatbot|agent|model)$/i

interface SpeakerLabel {
  speaker: string
  rest: string
  /** A role ("User", "Assistant"), not a person's name. */
  isRole: boolean
  /** Written in bold ("**Priya**:"). */
  emphasised: boolean
}

function speakerLabelOf(line: string): SpeakerLabel | null {
  const match = speakerLine.exec(line)
  const label = match?.[1]?.trim()
  if (!match || !label) return null
  const rest = match[3] ?? ''
  const emphasised = /\*\*|__/.test(line.slice(0, line.indexOf(label)))
  const lower = label.toLowerCase()
  const role = roleLabels[lower]
  if (role !== undefined) return { speaker: role, rest, isRole: true, emphasised }
  if (fieldLabels.has(lower) || /^dear\b/i.test(label) || /^\d/.test(label)) return null
  // An assistant with a name of its own is the assistant: its statements are an answer, not a person's life.
  if (assistantRole.test(match[2]?.trim() ?? ''))
    return { speaker: 'Assistant', rest, isRole: true, emphasised }
  return { speaker: label, rest, isRole: false, emphasised }
}

/** Roles on the person's side of a chat with an assistant. */
const userSideRoles = new Set(['User', 'Human', 'Customer'])

/**
 * Which labels start a turn. Where the person's side is a role ("User:"), a "Word: text" line inside a message is a
 * field or a heading of that message ("Action: …", "Solution: …"), not a new speaker. Otherwise a bold name among
 * plainly labelled speakers is a heading; and where the person talks by name to the
 * assistant ("Priya: …" / "Assistant: …"), a name that labels the first labelled line or two lines or more is a
 * speaker, a name labelling one line inside a message stays part of it.
 */
function speakerLabels(all: readonly (SpeakerLabel | null)[]): (SpeakerLabel | null)[] {
  if (all.some((label) => label?.isRole && userSideRoles.has(label.speaker)))
    return all.map((label) => (label?.isRole ? label : null))
  // Where speakers are labelled plainly, a bold label no plain line uses ("**Activity**: …" among "Priya: …" lines)
  // is a heading of the message it sits in, as markdown writes one (a transcript may set its first speaker in bold,
  // never a heading in plain).
  const plainFirst = all.find((label) => label !== null)?.emphasised === false
  const plain = new Set(all.flatMap((label) => (label && !label.emphasised ? [label.speaker] : [])))
  const found = all.map((label) =>
    plainFirst && label && !label.isRole && label.emphasised && !plain.has(label.speaker) ? null : label,
  )
  if (!found.some((label) => label?.isRole)) return found
  const counts = new Map<string, number>()
  for (const label of found) if (label) counts.set(label.speaker, (counts.get(label.speaker) ?? 0) + 1)
  const first = found.find((label) => label !== null)
  return found.map((label) =>
    label && (label.isRole || label === first || (counts.get(label.speaker) ?? 0) >= 2) ? label : null,
  )
}

/**
 * Splits a document into speaker turns. Lines "Name: text" (also "[10:02] Name: text", "**Name**: text",
 * "Name (Role): text") start a turn; unlabelled lines continue the current one. Outside chats and transcripts a
 * single "Word: text" line is more likely a field than a speaker, so labels count only when two lines carry one.
 * Emails become one turn of their sender.
 */
export function splitTurns(text: string, documentType: string): SpeakerTurn[] {
  if (documentType === 'email' || /^\s*From:\s/i.test(text)) {
    const email = parseEmail(text)
    if (email) return [email]
  }
  const lines = text.split(/\r?\n|\r/)
  let inCode = false
  const found = lines.map((line) => {
    // A line of code ("Create Date: …", "Traceback: …") is never a speaker's label.
    if (/^\s*(?:```|~~~)/.test(line)) {
      inCode = !inCode
      return null
    }
    return inCode ? null : speakerLabelOf(line)
  })
  const labels = speakerLabels(found)
  const labelled = labels.filter((label) => label !== null).length
  const trustLabels = conversationalTypes.has(documentType) ? labelled >= 1 : labelled >= 2
  if (!trustLabels) return [{ speaker: null, text: text.trim(), addressees: addressedNames(text) }]

  const turns: { speaker: string | null; lines: string[] }[] = []
  lines.forEach((line, index) => {
    const label = labels[index]
    if (label) turns.push({ speaker: label.speaker, lines: [label.rest] })
    else if (turns.length > 0) turns[turns.length - 1]?.lines.push(line)
    else turns.push({ speaker: null, lines: [line] })
  })
  return turns
    .map(({ speaker, lines: turnLines }) => {
      const turnText = turnLines.join('\n').trim()
      return { speaker, text: turnText, addressees: addressedNames(turnText) }
    })
    .filter((turn) => turn.text !== '')
}

const emailHeader = /^(From|To|Cc|Bcc|Subject|Date|Sent|Reply-To):[ \t]*(.*)$/i
const quotedReplyStart =
  /^(?:On\s.{4,200}\swrote:\s*$|-{2,}\s*(?:Original Message|Forwarded message)\s*-{2,}|_{5,}\s*$|From:\s)/im
const signOff =
  /^(?:best|best regards|best wishes|kind regards|warm regards|regards|cheers|sincerely|yours|yours truly|all the best|take care|talk soon|thanks|thanks again|thank you|many thanks|love|xoxo)[,.!]?\s*$/i

function parseEmail(text: string): SpeakerTurn | null {
  const lines = text.replace(/^\s+/, '').split(/\r?\n|\r/)
  const headers = new Map<string, string>()
  let bodyStart = 0
  for (const [index, line] of lines.entries()) {
    const header = emailHeader.exec(line)
    if (!header) {
      bodyStart = line.trim() === '' ? index + 1 : index
      break
    }
    headers.set((header[1] ?? '').toLowerCase(), (header[2] ?? '').trim())
    bodyStart = index + 1
  }
  if (headers.size === 0) return null

  let body = lines.slice(bodyStart).join('\n')
  const reply = quotedReplyStart.exec(body)
  if (reply) body = body.slice(0, reply.index)
  const bodyLines = body
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('>') && !/^sent from my\b/i.test(line.trim()))
  const signatureAt = bodyLines.findIndex(
    (line, index) => /^--\s*$/.test(line) || (index > 0 && signOff.test(line.trim())),
  )
  const content = (signatureAt >= 0 ? bodyLines.slice(0, signatureAt) : bodyLines).join('\n').trim()

  const sender = senderName(headers.get('from') ?? '')
  const recipients = [headers.get('to'), headers.get('cc')]
    .flatMap((field) => (field ? splitAddressList(field) : []))
    .map(senderName)
    .filter((name): name is string => name !== null && !name.includes('@'))
  const subject = (headers.get('subject') ?? '').replace(/^(?:\s*(?:re|fwd?|aw|sv)\s*:\s*)+/i, '').trim()
  const about = subject === '' ? '' : `${sender ?? 'Someone'} sent an email about ${subject}.\n\n`
  return {
    speaker: sender,
    text: `${about}${content}`.trim(),
    addressees: [...new Set([...recipients, ...addressedNames(content)])],
  }
}

function splitAddressList(field: string): string[] {
  return field.match(/"[^"]*"\s*<[^>]*>|[^,;<"]+<[^>]*>|[^,;]+/g)?.map((part) => part.trim()) ?? []
}

/** "Jane Doe <jane@x.org>" → "Jane Doe"; "\"Doe, Jane\" <…>" → "Jane Doe"; "jane.doe@x.org" → "Jane Doe". */
function senderName(field: string): string | null {
  const display = field
    .replace(/<[^>]*>/g, '')
    .replace(/["']/g, '')
    .trim()
  if (display !== '' && !display.includes('@')) {
    const lastFirst = /^([^,]+),\s*([^,]+)$/.exec(display)
    return lastFirst ? `${lastFirst[2]} ${lastFirst[1]}` : display
  }
  const address = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(field)?.[0]
  if (!address) return null
  const localParts = (address.split('@')[0] ?? '').split(/[._-]+/).filter((part) => /^[a-z]+$/i.test(part))
  if (localParts.length < 2) return address
  return localParts.map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase()).join(' ')
}
