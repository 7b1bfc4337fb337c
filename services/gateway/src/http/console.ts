import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { AppError } from '@memory-service/domain'

/** Where `npm run build` (and `npm start`) put the console's files; null when they were never built. */
export function builtConsoleDirectory(): string | null {
  const packageFile = createRequire(import.meta.url).resolve('@memory-service/console/package.json')
  const directory = join(dirname(packageFile), 'public')
  return existsSync(join(directory, 'index.html')) ? directory : null
}

/**
 * The console's page calls only the public API of this origin; the key lives in the tab's sessionStorage. No
 * framing, no inline script, no third-party origin: what a page holding an admin key should allow.
 */
const consoleHeaders = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
}

/**
 * Serves the console at /console/ (public files: the page asks for a key and every call it makes is authenticated
 * like any client's). Revalidated on every load (ETag), so a new build is seen at once.
 */
export function registerConsole(app: FastifyInstance, directory: string | null): void {
  if (directory === null) {
    const notBuilt = async (): Promise<never> => {
      throw new AppError(
        'NOT_FOUND',
        'The console was not built: run `npm run build` (npm start builds it)',
        {
          path: '/console/',
        },
      )
    }
    app.get('/console', { schema: { hide: true } }, notBuilt)
    app.get('/console/*', { schema: { hide: true } }, notBuilt)
    return
  }
  app.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 301))
  void app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply) => {
      void reply.headers(consoleHeaders)
    })
    await scope.register(fastifyStatic, {
      root: directory,
      prefix: '/console/',
      cacheControl: true,
      maxAge: 0,
      immutable: false,
      index: ['index.html'],
      wildcard: true,
    })
  })
}
