/**
 * The local stack's secured Elasticsearch (`stack:up --secured`): a second node of the same installation with
 * security on, TLS on its HTTP port and the built-in `elastic` user, so the secured path (an API key, a CA) is tested
 * against the real engine while every other test keeps the plaintext node. Its certificate is the one the secured
 * Kafka listener uses (securedKafka.ts: the stack's own CA, for localhost and 127.0.0.1); the password is a fixed,
 * local development one.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@elastic/elasticsearch'
import { elasticsearchVersion as versionOf, type DependencyProbe } from '@memory-service/engines'
import type { Jdk } from './environment.js'
import { ensureSecuredKafkaFiles, securedKafkaFiles, securedKeystorePassword } from './securedKafka.js'

export const securedElasticsearchPort = 9201

/** The built-in superuser of the secured node (its bootstrap password). */
export const securedElasticsearchUser = { username: 'elastic', password: 'memory-service-local-elastic' }

/**
 * The account the services use: a file-realm user with only what they need (every index, and `monitor` for the
 * version check). API keys cannot be made on this node: they live in the security index, whose mapping needs the
 * analysis module that the Maven Central distribution (integ-test-zip) lacks.
 */
export const securedElasticsearchServiceUser = {
  username: 'memory-service',
  password: 'memory-service-local-search',
  role: 'memory_service',
}

export const securedElasticsearchUrl = `https://127.0.0.1:${String(securedElasticsearchPort)}`

/** The node's configuration directory (ES_PATH_CONF): beside its data, so the shared installation stays as it is. */
export const securedElasticsearchConfigDir = (dataDir: string) => join(dataDir, 'config')

/** A client of the secured node as its superuser, trusting the stack's CA. */
export function securedElasticsearchAdmin(tlsDir: string): Client {
  return new Client({
    node: securedElasticsearchUrl,
    auth: securedElasticsearchUser,
    tls: { ca: readFileSync(securedKafkaFiles(tlsDir).caFile, 'utf8') },
  })
}

export function securedElasticsearchProbe(tlsDir: string): DependencyProbe {
  return async () => {
    if (!existsSync(securedKafkaFiles(tlsDir).caFile))
      throw new Error('the stack has made no certificates yet')
    const client = securedElasticsearchAdmin(tlsDir)
    try {
      return await versionOf(client)
    } finally {
      await client.close()
    }
  }
}

/**
 * Writes the node's configuration: the installation's defaults (JVM options, logging), elasticsearch.yml with
 * security and HTTP TLS on, the certificate, and a keystore with the superuser's bootstrap password and the
 * certificate's password (Elasticsearch reads secrets only from its keystore).
 */
export function configureSecuredElasticsearch(options: {
  installDir: string
  dataDir: string
  logDir: string
  tlsDir: string
  jdk: Jdk
}): string {
  const configDir = securedElasticsearchConfigDir(options.dataDir)
  const logs = join(options.logDir, 'elasticsearch-secured')
  mkdirSync(join(options.dataDir, 'data'), { recursive: true })
  mkdirSync(logs, { recursive: true })
  // The installation's defaults, not what the plaintext node writes there as it starts (its keystore, mid-write).
  cpSync(join(options.installDir, 'config'), configDir, {
    recursive: true,
    filter: (source) => !/elasticsearch\.(keystore|yml)/.test(source),
  })
  const files = ensureSecuredKafkaFiles(options.tlsDir, options.jdk)
  copyFileSync(files.keystoreFile, join(configDir, 'http.p12'))
  writeFileSync(
    join(configDir, 'elasticsearch.yml'),
    [
      'cluster.name: memory-service-secured',
      'node.name: secured-1',
      'discovery.type: single-node',
      'network.host: 127.0.0.1',
      `http.port: ${String(securedElasticsearchPort)}`,
      'transport.port: 9301',
      `path.data: ${join(options.dataDir, 'data')}`,
      `path.logs: ${logs}`,
      'xpack.security.enabled: true',
      'xpack.security.http.ssl.enabled: true',
      'xpack.security.http.ssl.keystore.path: http.p12',
      'xpack.security.authc.api_key.enabled: true',
      'cluster.routing.allocation.disk.threshold_enabled: false',
      'action.destructive_requires_name: false',
      '',
    ].join('\n'),
  )
  // Made again at each start (a few seconds): what it holds follows this file, whatever an older stack wrote.
  const keystore = join(configDir, 'elasticsearch.keystore')
  for (const file of [keystore, `${keystore}.tmp`]) rmSync(file, { force: true })
  const tool = (args: string[], input?: string) =>
    execFileSync(join(options.installDir, 'bin/elasticsearch-keystore'), args, {
      env: { ...process.env, ES_JAVA_HOME: options.jdk.home, ES_PATH_CONF: configDir },
      input,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
  tool(['create'])
  tool(['add', '-x', '-f', 'bootstrap.password'], securedElasticsearchUser.password)
  // The certificate's keystore is also read as the truststore (of client certificates, which are not asked for).
  for (const store of ['keystore', 'truststore'])
    tool(['add', '-x', '-f', `xpack.security.http.ssl.${store}.secure_password`], securedKeystorePassword)
  const { username, password, role } = securedElasticsearchServiceUser
  writeFileSync(
    join(configDir, 'roles.yml'),
    [
      `${role}:`,
      '  cluster: [monitor]',
      '  indices:',
      "    - names: ['*']",
      '      privileges: [all]',
      '',
    ].join('\n'),
  )
  writeFileSync(join(configDir, 'users'), '')
  writeFileSync(join(configDir, 'users_roles'), '')
  execFileSync(
    join(options.installDir, 'bin/elasticsearch-users'),
    ['useradd', username, '-p', password, '-r', role],
    {
      env: { ...process.env, ES_JAVA_HOME: options.jdk.home, ES_PATH_CONF: configDir },
      stdio: 'pipe',
    },
  )
  return configDir
}
