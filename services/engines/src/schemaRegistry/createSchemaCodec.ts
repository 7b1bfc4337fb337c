import { readFileSync } from 'node:fs'
import { get as httpGet, type Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent, get as httpsGet } from 'node:https'
import type { ServiceConfig } from '@memory-service/contracts'
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { useStorableDateTimes } from '@memory-service/domain'

/** A JSON Schema to register under a subject (Confluent's `<topic>-value` naming by default). */
export interface SchemaRegistration {
  subject: string
  schema: Record<string, unknown>
}

/** Thrown when a payload does not match its registered schema; `paths` names every failing location. */
export class SchemaValidationError extends Error {
  constructor(
    readonly subject: string,
    readonly paths: string[],
  ) {
    super(`Payload does not match schema ${subject}: ${paths.join('; ')}`)
    this.name = 'SchemaValidationError'
  }
}

export interface SchemaCodec {
  /** Registers each schema (idempotent: the registry returns the existing id for identical content). */
  register(registrations: SchemaRegistration[]): Promise<Map<string, number>>
  /** Validates and encodes in the Confluent wire format: magic byte 0, 4-byte schema id, JSON payload. */
  encode(subject: string, payload: unknown): Promise<Buffer>
  /** Checks a payload against the subject's schema; throws {@link SchemaValidationError} listing every failure. */
  validate(subject: string, payload: unknown): void
  /**
   * Frames a payload for a subject without checking it: for a payload derived by code from one already checked
   * against another schema (a sealed record from its plaintext).
   */
  frame(subject: string, payload: unknown): Buffer
  /** Decodes any Confluent-framed message, fetching (and caching) the writer's schema by id. */
  decode<T = unknown>(message: Buffer): Promise<T>
  /** The registry's list of subjects; doubles as a readiness call. */
  listSubjects(): Promise<string[]>
}

/**
 * Registers one schema. A subject's first registration creates it and then sets its compatibility, in two calls;
 * a process starting beside another (a cluster's six processes on a new namespace) races the other through them:
 * it reads the subject between the two calls and sees the registry's default instead of BACKWARD (the library
 * refuses), or both see no subject and both set its compatibility (the registry refuses the second: the rule
 * exists). The subject is the same and the other process is finishing it, so either refusal is retried for a few
 * seconds before it counts; the retry finds the subject complete.
 */
async function registerOnce(registry: SchemaRegistry, subject: string, text: string): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const { id } = await registry.register({ type: SchemaType.JSON, schema: text }, { subject })
      return id
    } catch (error) {
      const racing =
        (error as Error).name === 'ConfluentSchemaRegistryCompatibilityError' ||
        isCompatibilityAlreadySet(error)
      if (!racing || attempt >= 20) throw error
      await new Promise((done) => setTimeout(done, 100 + 50 * attempt))
    }
  }
}

/** The registry's answer to a second process setting a new subject's compatibility: 409 on the config route. */
function isCompatibilityAlreadySet(error: unknown): boolean {
  const { name, status, url } = error as { name?: string; status?: number; url?: string }
  return name === 'ResponseError' && status === 409 && typeof url === 'string' && url.includes('/config/')
}

/** Where the registry is and how to authenticate; a bare URL is an open registry. */
export interface SchemaRegistryConnection {
  url: string
  username?: string
  password?: string
  /** PEM of the authorities to trust for an https registry (default: the system's). */
  ca?: string
}

/** The connection the configuration describes, with its CA file read (loadConfig checked it is readable). */
export function schemaRegistryConnectionOf(
  registry: ServiceConfig['schemaRegistry'],
): SchemaRegistryConnection {
  return {
    url: registry.url,
    ...(registry.username !== undefined && registry.password !== undefined
      ? { username: registry.username, password: registry.password }
      : {}),
    ...(registry.caFile !== undefined ? { ca: readFileSync(registry.caFile, 'utf8') } : {}),
  }
}

/** GET of a JSON document from the registry, through the same agent and credentials as the library's calls. */
function getJson(
  url: string,
  agent: HttpAgent | undefined,
  authorization: string | undefined,
): Promise<unknown> {
  const get = url.startsWith('https:') ? httpsGet : httpGet
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      { agent, timeout: 5000, headers: authorization ? { authorization } : {} },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          if ((response.statusCode ?? 500) >= 300) {
            reject(new Error(`Schema registry answered ${String(response.statusCode)}`))
            return
          }
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')))
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)))
          }
        })
        response.on('error', reject)
      },
    )
    request.on('timeout', () => request.destroy(new Error('Schema registry did not answer within 5000 ms')))
    request.on('error', reject)
  })
}

const subjectsPerPage = 1000

export function createSchemaCodec(connection: string | SchemaRegistryConnection): SchemaCodec {
  const {
    url: registryUrl,
    username,
    password,
    ca,
  } = typeof connection === 'string' ? { url: connection } : connection
  const base = registryUrl.replace(/\/$/, '')
  const agent =
    ca !== undefined && base.startsWith('https:') ? new HttpsAgent({ ca, keepAlive: true }) : undefined
  const auth = username !== undefined && password !== undefined ? { username, password } : undefined
  const authorization = auth
    ? `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`
    : undefined
  const newAjv = (): Ajv => {
    // Every version of a subject keeps its schema's $id; a process that decodes old and new versions (a replay)
    // must not have them clash, so compiled schemas are not added to the instance by $id.
    const instance = new Ajv({ allErrors: true, strict: false, addUsedSchema: false })
    addFormats.default(instance)
    return instance
  }
  // What is written now must be a date-time the stores take; what was written before (read back on decode) only
  // had to be RFC 3339, and a record in the log must stay readable.
  const ajv = useStorableDateTimes(newAjv())
  // The happy path stops at the first error; a payload that fails is checked again to list every failing path.
  const firstErrorAjv = new Ajv({ allErrors: false, strict: false, addUsedSchema: false })
  addFormats.default(firstErrorAjv)
  useStorableDateTimes(firstErrorAjv)
  // The library compiles schemas with the Ajv it is given (its own rejects `format`); ours runs first on encode
  // because it reports every failing path. Both are Ajv 8; only the nested copies' types differ.
  const registry = new SchemaRegistry(
    { host: base, ...(auth ? { auth } : {}), ...(agent ? { agent } : {}) },
    { [SchemaType.JSON]: { ajvInstance: newAjv() as never } },
  )
  const ids = new Map<string, number>()
  const registered = new Map<string, string>()
  const validators = new Map<
    string,
    { quick: ReturnType<Ajv['compile']>; full: ReturnType<Ajv['compile']> }
  >()
  const prefixes = new Map<string, Buffer>()

  function validate(subject: string, payload: unknown): void {
    const compiled = validators.get(subject)
    if (compiled === undefined) {
      throw new Error(`Schema for subject ${subject} is not registered in this process`)
    }
    if (!compiled.quick(payload) && !(compiled.full(payload) as boolean)) {
      const paths = (compiled.full.errors ?? []).map((error) =>
        `${error.instancePath || '/'} ${error.message ?? ''}`.trim(),
      )
      throw new SchemaValidationError(subject, paths)
    }
  }
  function frame(subject: string, payload: unknown): Buffer {
    const prefix = prefixes.get(subject)
    if (prefix === undefined) {
      throw new Error(`Schema for subject ${subject} is not registered in this process`)
    }
    // The wire format: magic byte 0, the schema id (4 bytes, big-endian), the JSON. Framed here rather than by
    // the registry library, whose encode validates the payload a second time (the write path's costliest step).
    // One allocation and one copy of the JSON per record: the write path frames every event it records.
    const json = JSON.stringify(payload)
    const framed = Buffer.allocUnsafe(prefix.length + Buffer.byteLength(json))
    prefix.copy(framed, 0)
    framed.write(json, prefix.length, 'utf8')
    return framed
  }

  return {
    async register(registrations) {
      for (const { subject, schema } of registrations) {
        // Services sharing one process (npm start) share the codec; each registers what it writes.
        const text = JSON.stringify(schema)
        if (registered.get(subject) === text) continue
        const id = await registerOnce(registry, subject, text)
        ids.set(subject, id)
        registered.set(subject, text)
        validators.set(subject, { quick: firstErrorAjv.compile(schema), full: ajv.compile(schema) })
        const prefix = Buffer.alloc(5)
        prefix.writeInt32BE(id, 1)
        prefixes.set(subject, prefix)
      }
      return new Map(ids)
    },
    async encode(subject, payload) {
      validate(subject, payload)
      return frame(subject, payload)
    },
    validate,
    frame,
    decode: <T>(message: Buffer) => registry.decode(message) as Promise<T>,
    async listSubjects() {
      // Page by page: Apicurio answers at most 1 000 subjects per call (a registry shared by many deployments, or
      // by test runs, holds more). A registry that ignores the paging answers the whole list, which ends the loop.
      const subjects = new Set<string>()
      for (;;) {
        const page = (await getJson(
          `${base}/subjects?offset=${String(subjects.size)}&limit=${String(subjectsPerPage)}`,
          agent,
          authorization,
        )) as string[]
        const before = subjects.size
        for (const subject of page) subjects.add(subject)
        if (page.length < subjectsPerPage || subjects.size === before) return [...subjects]
      }
    },
  }
}
