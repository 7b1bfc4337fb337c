/**
 * The links of a markdown page and whether they hold: a relative link must name a file of the repository (and a
 * heading of it, for `#anchor`); anything else must be a public https URL. Pure functions over text, so the unit
 * test can show each check failing on a page made up for it.
 */

/** GitHub's heading anchor: lower case, punctuation removed (letters, digits, `_`, `-` kept), spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

export interface MarkdownLink {
  target: string
  line: number
}

/** Fenced code blocks and inline code spans, blanked (lengths and line breaks kept), since links there are text. */
function withoutCode(markdown: string): string {
  const blank = (text: string): string => text.replace(/[^\n]/g, ' ')
  return markdown
    .replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n {0,3}\2[^\n]*|$)/gm, blank)
    .replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, blank)
    .replace(/<!--[\s\S]*?-->/g, blank)
}

/** Inline links and images `[text](target "title")`, reference definitions `[id]: target`, autolinks `<scheme:…>`. */
export function extractLinks(markdown: string): MarkdownLink[] {
  const text = withoutCode(markdown)
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length
  const links: MarkdownLink[] = []
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g))
    links.push({ target: match[1] ?? '', line: lineOf(match.index) })
  for (const match of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm))
    links.push({ target: match[1] ?? '', line: lineOf(match.index) })
  for (const match of text.matchAll(/<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>/g))
    links.push({ target: match[1] ?? '', line: lineOf(match.index) })
  return links
}

/** The anchors GitHub gives a page's headings (ATX headings; a repeated heading gets `-1`, `-2`, …). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  const text = markdown.replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n {0,3}\2[^\n]*|$)/gm, '')
  for (const match of text.matchAll(/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    // The anchor comes from the rendered text: link targets and inline code markers do not count.
    const rendered = (match[1] ?? '').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '')
    const base = slug(rendered)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

/** How a link target leaves the page: to the web, to a file of the repository, or to a place it must not go. */
export type LinkKind =
  | { kind: 'web'; url: URL }
  | { kind: 'file'; path: string; anchor?: string }
  | { kind: 'outside'; reason: string }

/**
 * Classifies a target found in the page at `pagePath` (POSIX path relative to the repository root). Only public
 * https URLs may leave the repository: no other scheme, no absolute path, no path above the root, no loopback host.
 */
export function classifyLink(pagePath: string, target: string): LinkKind {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(target)?.[1]?.toLowerCase()
  if (scheme !== undefined) {
    if (scheme !== 'https') return { kind: 'outside', reason: `${scheme}: link (only https may leave the repository)` }
    const url = new URL(target)
    if (/^(localhost|127\.|0\.0\.0\.0|\[::1\])/.test(url.hostname))
      return { kind: 'outside', reason: 'a local address, not a public URL' }
    return { kind: 'web', url }
  }
  if (target.startsWith('//')) return { kind: 'outside', reason: 'a protocol-relative URL' }
  if (target.startsWith('/')) return { kind: 'outside', reason: 'an absolute path' }
  const [rawPath = '', anchor] = target.split('#', 2)
  const path = decodeURIComponent(rawPath)
  const segments = pagePath.split('/').slice(0, -1)
  for (const segment of path.split('/')) {
    if (segment === '..') {
      if (segments.length === 0) return { kind: 'outside', reason: 'a path above the repository root' }
      segments.pop()
    } else if (segment !== '.' && segment !== '') {
      segments.push(segment)
    }
  }
  const resolved = path === '' ? pagePath : segments.join('/')
  return anchor === undefined ? { kind: 'file', path: resolved } : { kind: 'file', path: resolved, anchor }
}

export interface LinkProblem {
  page: string
  line: number
  target: string
  problem: string
}

/**
 * Every broken link of the given pages. `readPage` returns a file's text relative to the repository root, or
 * undefined when there is no such file; a folder counts as existing when `isFolder` says so.
 */
export function findLinkProblems(
  pages: readonly string[],
  readPage: (path: string) => string | undefined,
  isFolder: (path: string) => boolean = () => false,
): LinkProblem[] {
  const problems: LinkProblem[] = []
  for (const page of pages) {
    const text = readPage(page)
    if (text === undefined) {
      problems.push({ page, line: 0, target: page, problem: 'page not found' })
      continue
    }
    for (const { target, line } of extractLinks(text)) {
      const report = (problem: string): void => void problems.push({ page, line, target, problem })
      const link = classifyLink(page, target)
      if (link.kind === 'outside') report(`leaves the repository: ${link.reason}`)
      if (link.kind !== 'file') continue
      if (isFolder(link.path)) {
        if (link.anchor !== undefined) report('an anchor into a folder')
        continue
      }
      const linked = readPage(link.path)
      if (linked === undefined) report(`no file ${link.path}`)
      else if (link.anchor !== undefined && link.path.endsWith('.md') && !headingAnchors(linked).has(link.anchor))
        report(`no heading #${link.anchor} in ${link.path}`)
    }
  }
  return problems
}
