/**
 * Scores the first-person → third-person rewrite against the gold (thirdPersonGold.ts): accuracy per source and per
 * half (tune: even id hash, held-out: odd), each miss with the output and the preferred rewrite, and the speed.
 *
 *   tsx --conditions=memory-service-source test/eval/thirdPersonScore.ts [--misses]
 */
import { restoreDroppedSubject, speakInThirdPerson } from '@memory-service/domain'
import { accuracy, loadThirdPersonGold, scoreRewrites } from './thirdPersonGold.js'

/** What the extractor's clauseOf does with a sentence once leading interjections and vocatives are gone. */
export const rewriteInThirdPerson = (sentence: string, speaker: string) =>
  speakInThirdPerson(restoreDroppedSubject(sentence), speaker).text

const { cases, skipped, changed } = loadThirdPersonGold()
for (const skip of skipped) console.log(`skipped ${skip.source}: ${skip.reason}`)
if (changed.length > 0) console.log(`sentences changed since the gold was made: ${changed.join(', ')}`)

const { scores, misses } = scoreRewrites(cases, rewriteInThirdPerson)
for (const key of [
  'all',
  'locomo',
  'beam',
  'tune',
  'held-out',
  'locomo/tune',
  'locomo/held-out',
  'beam/tune',
  'beam/held-out',
]) {
  const score = scores.get(key)
  if (score)
    console.log(
      `${key.padEnd(16)} ${(accuracy(score) * 100).toFixed(1).padStart(5)} %  (${String(score.matched)}/${String(score.total)})`,
    )
}

if (process.argv.includes('--misses'))
  for (const { gold, output } of misses) {
    console.log(`\n${gold.id} (${gold.speaker})${gold.note ? `  [${gold.note}]` : ''}`)
    console.log(`  in:   ${gold.sentence}`)
    console.log(`  out:  ${output}`)
    for (const rewrite of gold.rewrites) console.log(`  gold: ${rewrite}`)
  }

const rounds = 50
const started = performance.now()
for (let round = 0; round < rounds; round++)
  for (const gold of cases) rewriteInThirdPerson(gold.sentence, gold.speaker)
const seconds = (performance.now() - started) / 1000
console.log(`speed: ${Math.round((rounds * cases.length) / seconds).toLocaleString('en')} sentences/s`)
