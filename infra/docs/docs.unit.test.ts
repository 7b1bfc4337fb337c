import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { errorCatalog } from '@memory-service/domain'
import {
  errorDescriptions,
  generatedPages,
  renderConfigurationPage,
  renderErrorsPage,
  repositoryRoot,
  wrap,
} from './generateDocs.js'
import { classifyLink, extractLinks, findLinkProblems, headingAnchors, slug } from './markdownLinks.js'

function readPage(path: string): string | undefined {
  try {
    return readFileSync(join(repositoryRoot, path), 'utf8')
  } catch {
    return undefined
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(join(repositoryRoot, path)).isDirectory()
  } catch {
    return false
  }
}

/** README.md, CHANGELOG.md and every page under docs/, relative to the repository root. */
function documentationPages(): string[] {
  const docs = readdirSync(join(repositoryRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file.split('\\').join('/')}`)
  return ['README.md', 'CHANGELOG.md', ...docs.sort()]
}

describe('generated pages', () => {
  it('are what `npm run docs` writes now', async () => {
    for (const page of await generatedPages()) {
      expect(readPage(page.path), `${page.path} is stale: run npm run docs`).toBe(page.content)
    }
  })

  it('list every x-env variable of the schema, nested ones included', () => {
    const page = renderConfigurationPage({
      type: 'object',
      properties: {
        outer: {
          type: 'object',
          properties: {
            inner: { type: 'integer', minimum: 1, maximum: 9, default: 3, description: 'Why.', 'x-env': 'X_INNER' },
          },
        },
      },
    })
    expect(page).toContain('### `X_INNER`')
    expect(page).toContain('Sets `outer.inner`. Default: `3`. Allowed: an integer from 1 to 9.')
  })

  it('refuse an error code the page does not describe', () => {
    const catalog = { ...errorCatalog, NEW_CODE: { httpStatus: 418, grpcStatus: 3, retryable: false } } as const
    expect(() => renderErrorsPage(catalog, errorDescriptions)).toThrow(/lacks NEW_CODE/)
  })

  it('wrap prose without starting a line as a list item', () => {
    const wrapped = wrap(`${'word '.repeat(22)}a - b`)
    expect(wrapped.split('\n').every((line) => line.length <= 115 && !line.startsWith('-'))).toBe(true)
  })
})

describe('links', () => {
  it('find links outside code, with their line', () => {
    const links = extractLinks('[a](x.md#h)\n`[no](code.md)`\n```\n[no](fenced.md)\n```\n[b]: <y.md>\n<https://e.org>')
    expect(links).toEqual([
      { target: 'x.md#h', line: 1 },
      { target: 'y.md', line: 6 },
      { target: 'https://e.org', line: 7 },
    ])
  })

  it('anchor headings the way GitHub does', () => {
    expect(slug('Tenancy, API keys and permissions')).toBe('tenancy-api-keys-and-permissions')
    expect(slug('queued → processing')).toBe('queued--processing')
    expect([...headingAnchors('# `HTTP_PORT`\n## [Replay](r.md) and rebuild\n## Notes\n## Notes\n')]).toEqual([
      'http_port',
      'replay-and-rebuild',
      'notes',
      'notes-1',
    ])
  })

  it('leave the repository only as public https URLs', () => {
    expect(classifyLink('docs/a.md', 'https://github.com/x').kind).toBe('web')
    for (const target of ['../../shared/spec.md', '/etc/passwd', 'http://example.org', 'file:///x', 'https://127.0.0.1/'])
      expect(classifyLink('docs/a.md', target).kind, target).toBe('outside')
    expect(classifyLink('docs/api/a.md', '../b.md#c')).toEqual({ kind: 'file', path: 'docs/b.md', anchor: 'c' })
  })

  it('report a missing file, a missing heading and a link out of the repository', () => {
    const pages: Record<string, string> = {
      'docs/a.md': '# A\n[ok](b.md#b) [file](nope.md) [anchor](b.md#nope) [out](../../x.md) [self](#a)',
      'docs/b.md': '# B',
    }
    const problems = findLinkProblems(['docs/a.md'], (path) => pages[path])
    expect(problems.map(({ target }) => target)).toEqual(['nope.md', 'b.md#nope', '../../x.md'])
  })

  it('of README.md, CHANGELOG.md and docs/ resolve to files and headings of the repository', () => {
    const problems = findLinkProblems(documentationPages(), readPage, isFolder).filter(
      ({ problem }) => !problem.startsWith('leaves the repository'),
    )
    expect(problems).toEqual([])
  })

  it('of README.md, CHANGELOG.md and docs/ leave the repository only as https URLs', () => {
    const problems = findLinkProblems(documentationPages(), readPage, isFolder).filter(({ problem }) =>
      problem.startsWith('leaves the repository'),
    )
    expect(problems).toEqual([])
  })
})

describe('README.md', () => {
  it('is at most 200 lines, so a newcomer reads it in five minutes', () => {
    const lines = (readPage('README.md') ?? '').trimEnd().split('\n')
    expect(lines.length).toBeGreaterThan(20)
    expect(lines.length).toBeLessThanOrEqual(200)
  })
})
