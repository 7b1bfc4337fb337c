/**
 * The local stack's secured Neo4j (`stack:up --secured`): a second server of the same installation with
 * authentication on and TLS required on bolt, so the secured path (a user and password, a CA file) is tested against
 * the real engine while every other test keeps the open server. Its certificate is the one the secured Kafka listener
 * uses (the stack's own CA, for localhost and 127.0.0.1), written as PEM (what Neo4j takes) by the JDK; the password
 * is a fixed, local development one, set before the first start with Neo4j's own admin tool.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createNeo4jDriver, createNeo4jStore, type DependencyProbe } from '@memory-service/engines'
import type { Jdk } from './environment.js'
import { ensureSecuredKafkaFiles, securedKafkaFiles, securedKeystorePassword } from './securedKafka.js'

export const securedNeo4jPort = 7688
export const securedNeo4jUri = `bolt://127.0.0.1:${String(securedNeo4jPort)}`
export const securedNeo4jUser = { username: 'neo4j', password: 'memory-service-local-graph' }

const exportPem = join(dirname(fileURLToPath(import.meta.url)), 'java/ExportPem.java')

export function securedNeo4jProbe(tlsDir: string): DependencyProbe {
  return async () => {
    const { caFile } = securedKafkaFiles(tlsDir)
    if (!existsSync(caFile)) throw new Error('the stack has made no certificates yet')
    const store = createNeo4jStore(
      createNeo4jDriver({ uri: securedNeo4jUri, ...securedNeo4jUser, caFile }),
      'neo4j',
    )
    try {
      return await store.version()
    } finally {
      await store.close()
    }
  }
}

/** Where the secured server keeps its configuration (a directory of its own; the installation is shared). */
export const securedNeo4jConfigDir = (dataDir: string) => join(dataDir, 'conf')

/**
 * Writes the server's configuration and certificate, and sets the initial password on a new data directory (the
 * admin tool refuses once the database has users).
 */
export function configureSecuredNeo4j(options: {
  installDir: string
  dataDir: string
  logDir: string
  tlsDir: string
  jdk: Jdk
}): void {
  const configDir = securedNeo4jConfigDir(options.dataDir)
  const certificates = join(options.dataDir, 'certificates/bolt')
  for (const dir of [configDir, certificates, join(options.dataDir, 'data'), join(options.dataDir, 'run')])
    mkdirSync(dir, { recursive: true })
  const files = ensureSecuredKafkaFiles(options.tlsDir, options.jdk)
  execFileSync(
    join(options.jdk.home, 'bin/java'),
    [
      exportPem,
      files.keystoreFile,
      securedKeystorePassword,
      'broker',
      join(certificates, 'private.key'),
      join(certificates, 'public.crt'),
    ],
    { stdio: 'pipe' },
  )
  writeFileSync(
    join(configDir, 'neo4j.conf'),
    [
      'server.default_listen_address=127.0.0.1',
      `server.bolt.listen_address=127.0.0.1:${String(securedNeo4jPort)}`,
      `server.bolt.advertised_address=127.0.0.1:${String(securedNeo4jPort)}`,
      'server.bolt.tls_level=REQUIRED',
      'server.http.enabled=false',
      'server.https.enabled=false',
      'dbms.security.auth_enabled=true',
      'dbms.ssl.policy.bolt.enabled=true',
      `dbms.ssl.policy.bolt.base_directory=${certificates}`,
      'dbms.ssl.policy.bolt.private_key=private.key',
      'dbms.ssl.policy.bolt.public_certificate=public.crt',
      'dbms.ssl.policy.bolt.client_auth=NONE',
      'server.memory.pagecache.size=64m',
      `server.directories.data=${join(options.dataDir, 'data')}`,
      `server.directories.logs=${join(options.logDir, 'neo4j-secured')}`,
      `server.directories.run=${join(options.dataDir, 'run')}`,
      `server.directories.import=${join(options.dataDir, 'import')}`,
      `server.directories.plugins=${join(options.installDir, 'plugins')}`,
      'dbms.usage_report.enabled=false',
      '',
    ].join('\n'),
  )
  if (!existsSync(join(options.dataDir, 'data/dbms/auth.ini'))) {
    execFileSync(
      join(options.jdk.home, 'bin/java'),
      [
        '-cp',
        `${join(options.installDir, 'lib')}/*`,
        'org.neo4j.cli.AdminTool',
        'dbms',
        'set-initial-password',
        securedNeo4jUser.password,
      ],
      { env: { ...process.env, NEO4J_HOME: options.installDir, NEO4J_CONF: configDir }, stdio: 'pipe' },
    )
  }
}
