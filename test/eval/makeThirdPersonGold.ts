/**
 * Turns the editor's gold file (an array of {id, rewrite, alternatives, note}, with the data sets' text in it, kept
 * out of the repository) into thirdPersonGold.json: word edit scripts against the original sentences, which the
 * tests rebuild the rewrites from. Every script is checked to rebuild its rewrite before anything is written.
 *
 *   tsx --conditions=memory-service-source test/eval/makeThirdPersonGold.ts <editor's gold.json>
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { format, resolveConfig } from 'prettier'
import { sentencesById } from './firstPersonSample.js'
import { applyEdits, editsBetween, type GoldEntry, goldPath, hashOf } from './thirdPersonGold.js'

interface EditorGold {
  id: string
  rewrite: string
  alternatives: string[]
  note: string
}

const input = process.argv[2]
if (!input) throw new Error('usage: makeThirdPersonGold.ts <editor gold json>')
const editorGold = JSON.parse(readFileSync(input, 'utf8')) as EditorGold[]
const sentences = sentencesById()

const entries: GoldEntry[] = editorGold.map((gold) => {
  const original = sentences.get(gold.id)
  if (!original) throw new Error(`${gold.id}: no such sentence in the data sets present here`)
  const rewrites = [gold.rewrite, ...gold.alternatives].map((rewrite) => {
    const edits = editsBetween(original.sentence, rewrite, original.speaker)
    const rebuilt = applyEdits(original.sentence, edits, original.speaker)
    if (rebuilt !== rewrite.trim().replace(/\s+/g, ' '))
      throw new Error(`${gold.id}: the edits do not rebuild the rewrite`)
    return edits
  })
  return {
    id: gold.id,
    sentenceHash: hashOf(original.sentence),
    rewrites,
    ...(gold.note ? { note: gold.note } : {}),
  }
})

const json = JSON.stringify(entries)
writeFileSync(goldPath, await format(json, { ...(await resolveConfig(goldPath)), parser: 'json' }))
const insertedWords = entries.flatMap((entry) => entry.rewrites.flat().flatMap((edit) => edit.insert)).length
console.log(`${String(entries.length)} sentences, ${String(insertedWords)} inserted words → ${goldPath}`)
