/**
 * A turn's text read as blocks: prose paragraphs, lists (with the heading or the "…:" sentence that introduces
 * them), code and tables. Agents' conversations are full of markdown: a list of twelve one-line items is one thing
 * said, not twelve, and a code block is not a statement at all.
 */

export type TextBlock =
  | { kind: 'prose'; text: string }
  /** A list as one unit: what introduces it (a heading, a sentence ending in ":") and its items, nested ones inline. */
  | { kind: 'list'; lead: string | null; items: string[] }
  | { kind: 'heading'; text: string }
  | { kind: 'code'; lines: number }

const fence = /^\s*(?:```|~~~)/
const heading = /^\s*#{1,6}\s+(.*?)\s*#*\s*$/
/** A line that is only emphasis ("**Components:**") reads as a heading. */
const emphasisHeading = /^\s*(?:\*\*|__)([^*_]{1,120}?)(?:\*\*|__)\s*:?\s*$/
const listItem = /^(\s*)(?:[-*+•·▪◦‣–]|\d{1,3}[.)]|[a-z][.)])\s+(.*)$/
const tableRow = /^\s*\|.*\|\s*$/
const tableRule = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/

/** Markdown emphasis, inline code marks and links as plain text; line breaks stay. */
export function withoutInlineMarkup(text: string): string {
  return text
    .replace(/\[([^\]\n]{1,200})\]\((?:[^)\s]{1,500})\)/g, '$1')
    .replace(/(\*\*|__)(?=\S)([^\n]*?\S)\1/g, '$2')
    .replace(/`([^`\n]{1,200})`/g, '$1')
}

/** Markdown emphasis, inline code marks and links as plain text, on one line. */
export function plainText(text: string): string {
  return withoutInlineMarkup(text).replace(/\s+/g, ' ').trim()
}

interface ListItem {
  text: string
  children: string[]
}

function renderItems(items: readonly ListItem[]): string[] {
  return items
    .map(({ text, children }) => {
      const item = plainText(text).replace(/[.;,]+$/, '')
      const nested = children.map((child) => plainText(child).replace(/[.;,]+$/, '')).filter(Boolean)
      if (nested.length === 0) return item
      return item === '' ? nested.join(', ') : `${item.replace(/:$/, '')} (${nested.join(', ')})`
    })
    .filter((item) => /[\p{L}\p{N}]/u.test(item))
}

/** The cells of a table row, without the outer pipes. */
function cellsOf(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => plainText(cell))
}

/**
 * The blocks of a text, in order. A list keeps the heading right before it, or the last sentence of the paragraph
 * right before it when that sentence ends in ":" (the sentence then leaves the paragraph). A table becomes a list of
 * its rows ("cell, cell"), led by its header row.
 */
export function blocksOf(text: string): TextBlock[] {
  const blocks: TextBlock[] = []
  const lines = text.split(/\r?\n|\r/)
  let prose: string[] = []
  let list: { items: ListItem[]; indent: number } | null = null
  let table: string[][] | null = null

  const flushProse = () => {
    const paragraph = prose.join('\n').trim()
    if (paragraph !== '') blocks.push({ kind: 'prose', text: paragraph })
    prose = []
  }
  /** What introduces a list: the heading just before it, or a paragraph's closing sentence that ends in ":". */
  const takeLead = (): string | null => {
    const previous = blocks.at(-1)
    if (previous?.kind === 'heading') {
      blocks.pop()
      return previous.text.replace(/:$/, '')
    }
    if (previous?.kind === 'prose' && /:\s*$/.test(previous.text)) {
      const sentences = previous.text.split(/(?<=[.!?])\s+/)
      const lead = sentences.pop() ?? ''
      if (sentences.length === 0) blocks.pop()
      else previous.text = sentences.join(' ')
      return plainText(lead).replace(/:$/, '')
    }
    return null
  }
  const flushList = () => {
    if (!list) return
    const items = renderItems(list.items)
    list = null
    if (items.length > 0) blocks.push({ kind: 'list', lead: takeLead(), items })
  }
  const flushTable = () => {
    if (!table) return
    const [header, ...rows] = table
    table = null
    const items = rows.map((cells) => cells.filter(Boolean).join(', ')).filter(Boolean)
    if (items.length === 0) return
    const lead = takeLead() ?? (header ? header.filter(Boolean).join(', ') : null)
    blocks.push({ kind: 'list', lead, items })
  }
  const flushAll = () => {
    flushProse()
    flushList()
    flushTable()
  }

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ''
    if (fence.test(line)) {
      flushAll()
      let end = index + 1
      while (end < lines.length && !fence.test(lines[end] ?? '')) end++
      blocks.push({ kind: 'code', lines: end - index - 1 })
      index = end
      continue
    }
    if (tableRow.test(line)) {
      if (!table) {
        flushProse()
        flushList()
        table = []
      }
      if (!tableRule.test(line)) table.push(cellsOf(line))
      continue
    }
    if (table) flushTable()
    if (line.trim() === '') {
      flushProse()
      // A blank line inside a list ends it only when no item follows.
      if (list) {
        const next = lines.slice(index + 1).find((candidate) => candidate.trim() !== '')
        if (next === undefined || !listItem.test(next)) flushList()
      }
      continue
    }
    const headingText = heading.exec(line)?.[1] ?? emphasisHeading.exec(line)?.[1]
    if (headingText !== undefined) {
      flushAll()
      const plain = plainText(headingText)
      if (plain !== '') blocks.push({ kind: 'heading', text: plain })
      continue
    }
    const item = listItem.exec(line)
    if (item) {
      flushProse()
      const indent = (item[1] ?? '').replace(/\t/g, '    ').length
      const content = item[2] ?? ''
      if (!list) {
        list = { items: [], indent }
      }
      const parent = list.items.at(-1)
      if (indent > list.indent && parent) parent.children.push(content)
      else list.items.push({ text: content, children: [] })
      continue
    }
    if (list) {
      // An indented line under an item continues it; anything else ends the list.
      const parent = list.items.at(-1)
      if (/^\s{2,}\S/.test(line) && parent) {
        const last = parent.children.length - 1
        if (last >= 0) parent.children[last] = `${parent.children[last] ?? ''} ${line.trim()}`
        else parent.text += ` ${line.trim()}`
        continue
      }
      flushList()
    }
    prose.push(line)
  }
  flushAll()
  return blocks
}

/**
 * A list as sentences of at most `maxChars`: "lead: item; item; item." Items that do not fit start a new sentence
 * that repeats the lead, so each stands alone.
 */
export function listSentences(block: Extract<TextBlock, { kind: 'list' }>, maxChars: number): string[] {
  const lead = block.lead ? `${block.lead}: ` : ''
  const sentences: string[] = []
  let current: string[] = []
  let length = lead.length
  const flush = () => {
    if (current.length > 0) sentences.push(`${lead}${current.join('; ')}.`)
    current = []
    length = lead.length
  }
  for (const item of block.items) {
    const fitted = item.length > maxChars - lead.length ? item.slice(0, maxChars - lead.length - 1) : item
    if (current.length > 0 && length + fitted.length + 2 > maxChars) flush()
    current.push(fitted)
    length += fitted.length + 2
  }
  flush()
  return sentences.map((sentence) => sentence.replace(/([.!?]);/g, '$1').replace(/([.!?:])\.$/, '$1'))
}
