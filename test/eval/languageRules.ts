/**
 * `npm run eval:language-rules [-- <checkout>]`
 *
 * Counts the hand-written language rules of memory formation (issue 55): regular expressions (literals and `new
 * RegExp`) and word lists (array literals of four or more strings, at least four fifths of their elements strings)
 * — and word lists written as one string split into words — in the code that turns a document into memories and facts — extraction and memories in the domain, the language
 * package, the pipeline, the fact commands — and, apart, in search. Tests and generated files are not counted.
 * Given another checkout (a `git worktree` of an older commit), it counts that one, for a before and after.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'

const root = resolve(process.argv[2] ?? '.')
const scopes: Record<string, string[]> = {
  'memory formation': [
    'services/domain/src/extraction',
    'services/domain/src/memories',
    'services/language/src',
    'services/pipeline/src',
    'services/commands/src/memories',
  ],
  search: ['services/read-models/src/memories', 'services/domain/src/search'],
}

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) return name === 'generated' || name === 'test' ? [] : filesUnder(path)
    return path.endsWith('.ts') && !/\.(?:unit|int|e2e)\.test\.ts$/.test(path) && !path.endsWith('.d.ts')
      ? [path]
      : []
  })
}

function rulesOf(file: string): { expressions: number; lists: number } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  let expressions = 0
  let lists = 0
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) expressions += 1
    if (ts.isNewExpression(node) && node.expression.getText(source) === 'RegExp') expressions += 1
    if (ts.isArrayLiteralExpression(node)) {
      const strings = node.elements.filter(
        (element) => ts.isStringLiteral(element) || ts.isNoSubstitutionTemplateLiteral(element),
      ).length
      if (strings >= 4 && strings >= node.elements.length * 0.8) lists += 1
    }
    // 'a b c d'.split(' '): a word list written as one string.
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'split' &&
      (ts.isStringLiteral(node.expression.expression) ||
        ts.isNoSubstitutionTemplateLiteral(node.expression.expression)) &&
      node.expression.expression.text.trim().split(/[\s|,]+/).length >= 4
    )
      lists += 1
    ts.forEachChild(node, visit)
  }
  visit(source)
  return { expressions, lists }
}

console.log(`language rules in ${root}`)
for (const [scope, folders] of Object.entries(scopes)) {
  let expressions = 0
  let lists = 0
  for (const folder of folders) {
    const counts = filesUnder(join(root, folder)).map(rulesOf)
    const inFolder = counts.reduce(
      (sum, next) => ({ expressions: sum.expressions + next.expressions, lists: sum.lists + next.lists }),
      { expressions: 0, lists: 0 },
    )
    expressions += inFolder.expressions
    lists += inFolder.lists
    console.log(
      `  ${relative(root, join(root, folder)).padEnd(36)} ${String(inFolder.expressions).padStart(4)} regular expressions ${String(inFolder.lists).padStart(3)} word lists`,
    )
  }
  console.log(`${scope}: ${String(expressions)} regular expressions, ${String(lists)} word lists`)
}
