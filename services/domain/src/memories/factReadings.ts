/**
 * A reading of the fact reader (services/language) as the memory event stores it: who it is about, the attribute,
 * the value normalized so that a restatement is recognized as the same value, and the key that makes memories
 * versions of one fact. A value that does not replace the attribute's value (added beside others, "we also got a
 * cat", or read without the confidence to end the one before) is a fact of its own: its key names the value, so it
 * ends no other.
 */
import { normalizedFactValue, type FactSlot } from './factSlots.js'

export interface ReadFact {
  attribute: string
  value: string
  /** It replaces the attribute's value; otherwise it adds its value beside the ones held. */
  replaces: boolean
}

export function factSlotOfReading(reading: ReadFact, speaker: string): FactSlot | null {
  const subject = speaker.toLowerCase()
  const value = normalizedFactValue(reading.value)
  if (value === '' || value === subject) return null
  const key = reading.replaces
    ? `${subject}|${reading.attribute}`
    : `${subject}|${reading.attribute}|${value}`
  return { subject, attribute: reading.attribute, value, key }
}
