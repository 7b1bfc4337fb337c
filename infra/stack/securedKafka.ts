/**
 * The local stack's secured Kafka listener: SASL over TLS on its own port beside the plaintext one, so the secured
 * path (what every managed Kafka asks for) is tested against the real broker without moving every test onto it.
 * The certificate authority and the broker's certificate are generated on first use with the JDK's keytool (the
 * stack needs a JDK anyway); the credentials are fixed, local development ones.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Jdk } from './environment.js'

export const securedKafkaPort = 9094

/** The local, development-only account of the secured listener (PLAIN and both SCRAM mechanisms). */
export const securedKafkaUser = { username: 'memory-service', password: 'memory-service-local-secret' }

/** A keystore password local to this machine's stack; the keystore never leaves the state directory. */
export const securedKeystorePassword = 'memory-service-local-keystore'
const keystorePassword = securedKeystorePassword

export interface SecuredKafkaFiles {
  /** PEM of the local certificate authority: what a client trusts (KAFKA_SSL_CA_FILE). */
  caFile: string
  /** PKCS12 keystore with the broker's key and certificate (for localhost and 127.0.0.1) and the CA. */
  keystoreFile: string
}

export function securedKafkaFiles(tlsDir: string): SecuredKafkaFiles {
  return { caFile: join(tlsDir, 'ca.pem'), keystoreFile: join(tlsDir, 'kafka-broker.p12') }
}

/** Creates the CA and the broker's certificate when they are not there yet (idempotent; a half-made set is redone). */
export function ensureSecuredKafkaFiles(tlsDir: string, jdk: Jdk): SecuredKafkaFiles {
  const files = securedKafkaFiles(tlsDir)
  if (existsSync(files.caFile) && existsSync(files.keystoreFile)) return files
  const staging = `${tlsDir}.partial`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  const keytool = (...args: string[]) =>
    execFileSync(join(jdk.home, 'bin/keytool'), [...args, '-storepass', keystorePassword], { stdio: 'pipe' })
  const ca = join(staging, 'ca.p12')
  const broker = join(staging, 'kafka-broker.p12')
  const common = ['-storetype', 'PKCS12', '-keyalg', 'RSA', '-keysize', '2048', '-validity', '3650']
  keytool(
    '-genkeypair',
    '-alias',
    'ca',
    '-keystore',
    ca,
    ...common,
    '-dname',
    'CN=memory-service local CA',
    '-ext',
    'bc:c',
  )
  keytool('-exportcert', '-alias', 'ca', '-keystore', ca, '-rfc', '-file', join(staging, 'ca.pem'))
  keytool('-genkeypair', '-alias', 'broker', '-keystore', broker, ...common, '-dname', 'CN=localhost')
  keytool('-certreq', '-alias', 'broker', '-keystore', broker, '-file', join(staging, 'broker.csr'))
  keytool(
    '-gencert',
    '-alias',
    'ca',
    '-keystore',
    ca,
    '-infile',
    join(staging, 'broker.csr'),
    '-outfile',
    join(staging, 'broker.pem'),
    '-rfc',
    '-validity',
    '3650',
    '-ext',
    'SAN=dns:localhost,ip:127.0.0.1',
  )
  keytool('-importcert', '-alias', 'ca', '-keystore', broker, '-file', join(staging, 'ca.pem'), '-noprompt')
  keytool(
    '-importcert',
    '-alias',
    'broker',
    '-keystore',
    broker,
    '-file',
    join(staging, 'broker.pem'),
    '-noprompt',
  )
  rmSync(join(staging, 'broker.csr'))
  rmSync(tlsDir, { recursive: true, force: true })
  renameSync(staging, tlsDir)
  return files
}

/** The broker settings of the secured listener (appended to server.properties). */
export function securedListenerProperties(files: SecuredKafkaFiles): string[] {
  const prefix = 'listener.name.sasl_ssl'
  const { username, password } = securedKafkaUser
  return [
    `${prefix}.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512`,
    `${prefix}.ssl.keystore.type=PKCS12`,
    `${prefix}.ssl.keystore.location=${files.keystoreFile}`,
    `${prefix}.ssl.keystore.password=${keystorePassword}`,
    `${prefix}.ssl.key.password=${keystorePassword}`,
    `${prefix}.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_${username}="${password}";`,
    `${prefix}.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
    `${prefix}.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
  ]
}

/**
 * The SCRAM credentials live in the cluster's metadata, so they are set through the broker once it answers (an
 * upsert: running it at every start is harmless), with Kafka's own config tool over the plaintext listener.
 */
export function ensureScramUser(installDir: string, jdk: Jdk, plaintextBroker: string): void {
  const { username, password } = securedKafkaUser
  // One mechanism per request: the broker refuses two credentials of one user in the same alteration.
  for (const mechanism of ['SCRAM-SHA-256', 'SCRAM-SHA-512']) {
    execFileSync(
      join(jdk.home, 'bin/java'),
      [
        `-Dlog4j2.configurationFile=file:${join(installDir, 'log4j2.properties')}`,
        '-cp',
        `${join(installDir, 'libs')}/*`,
        'kafka.admin.ConfigCommand',
        '--bootstrap-server',
        plaintextBroker,
        '--alter',
        '--add-config',
        `${mechanism}=[password=${password}]`,
        '--entity-type',
        'users',
        '--entity-name',
        username,
      ],
      { stdio: 'pipe' },
    )
  }
}
