/**
 * A reading of the fact reader (services/language) as the memory event stores it: who it is about, the attribute,
 * the value normalized so that a restatement is recognized as the same value, and the key that makes memories
 * versions of one fact. A value added beside others of an attribute people hold several of ("we also got a cat")
 * is a fact of its own: its key names the value, so it ends no other.
 */
import { normalizedFactValue, type FactSlot } from './factSlots.js'

export interface ReadFact {
  attribute: string
  value: string
  /** It adds a value beside the ones held (an attribute people hold several of). */
  adds: boolean
}

export function factSlotOfReading(reading: ReadFact, speaker: string): FactSlot | null {
  const subject = speaker.toLowerCase()
  const value = normalizedFactValue(reading.value)
  if (value === '' || value === subject) return null
  const key = reading.adds ? `${subject}|${reading.attribute}|${value}` : `${subject}|${reading.attribute}`
  return { subject, attribute: reading.attribute, value, key }
}
