import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { DependencyName, DependencyProbe } from '@memory-service/engines'
import type { Jdk } from './environment.js'
import { copyArtifact, copyDependencies, type MavenContext } from './maven.js'
import {
  ensureScramUser,
  ensureSecuredKafkaFiles,
  securedKafkaPort,
  securedListenerProperties,
} from './securedKafka.js'
import type { LaunchSpec } from './processes.js'
import {
  configureSecuredElasticsearch,
  securedElasticsearchPort,
  securedElasticsearchProbe,
  securedElasticsearchUrl,
} from './securedElasticsearch.js'
import {
  configureSecuredNeo4j,
  securedNeo4jConfigDir,
  securedNeo4jPort,
  securedNeo4jProbe,
  securedNeo4jUri,
} from './securedNeo4j.js'

export interface ServerContext {
  maven: MavenContext
  /** Where this server version is installed (unpacked or jar directory). */
  installDir: string
  dataDir: string
  /** Directory for the server's own log files; its stdout/stderr go to `<logs>/<name>.log`. */
  logDir: string
  downloadsDir: string
  jdk: Jdk
  /** Certificates the stack generates for its secured listeners (securedKafka.ts). */
  tlsDir: string
  /** Non-root user that runs servers which refuse root. */
  serviceUser: string | undefined
}

export interface ServerDefinition {
  name: string
  /** The readiness probe that answers for this server (a real client call, see connectEngines). */
  dependency: DependencyName
  version: string
  ports: Record<string, number>
  java: { min: number; max?: number }
  startupTimeoutMs: number
  /** Downloads and unpacks into ctx.installDir; only called when that directory is not complete yet. */
  install(ctx: ServerContext): Promise<void>
  /** Writes configuration and prepares data directories; runs before every start (idempotent). */
  configure(ctx: ServerContext): void
  launch(ctx: ServerContext): LaunchSpec
  /** Runs once the server answers after this stack started it: what needs the running server (credentials). */
  afterReady?(ctx: ServerContext): void
  /** The installation it shares with another server (a second node of it), instead of one of its own. */
  installName?: string
  /**
   * A server that no service configuration names (a secured node beside the plaintext one): its fixed local address
   * and its own probe, instead of the configured engine's.
   */
  standalone?: { address: string; probe(tlsDir: string): DependencyProbe }
}

const kafkaVersion = '4.3.1'
const elasticsearchVersion = '9.5.4'
const neo4jVersion = '5.26.31'
const apicurioVersion = '3.3.3'

/** A fixed cluster id keeps the single-node KRaft log reusable across restarts. */
const kafkaClusterId = 'TWVtb3J5U2VydmljZUxjbA'

function writeLines(file: string, lines: string[]): void {
  writeFileSync(file, `${lines.join('\n')}\n`)
}

function unpackSingleDirectory(archive: string, installDir: string, tool: 'unzip' | 'tar'): void {
  const staging = `${installDir}.partial`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  if (tool === 'unzip') execFileSync('unzip', ['-q', archive, '-d', staging])
  else execFileSync('tar', ['-xzf', archive, '-C', staging])
  const entries = readdirSync(staging)
  const inner = entries.length === 1 && entries[0] !== undefined ? join(staging, entries[0]) : staging
  rmSync(installDir, { recursive: true, force: true })
  renameSync(inner, installDir)
  rmSync(staging, { recursive: true, force: true })
}

export const kafka: ServerDefinition = {
  name: 'kafka',
  dependency: 'kafka',
  version: kafkaVersion,
  ports: { broker: 9092, controller: 9093, secured: securedKafkaPort },
  java: { min: 17 },
  startupTimeoutMs: 90_000,
  async install(ctx) {
    // Kafka 4.x logs through slf4j 1.7, so the log4j2 binding is the slf4j-1 one (log4j-slf4j-impl).
    await copyDependencies(
      ctx.maven,
      [
        `org.apache.kafka:kafka_2.13:${kafkaVersion}`,
        'org.apache.logging.log4j:log4j-core:2.25.2',
        'org.apache.logging.log4j:log4j-slf4j-impl:2.25.2',
      ],
      join(ctx.downloadsDir, 'kafka-pom'),
      join(ctx.installDir, 'libs'),
      'kafka',
    )
  },
  configure(ctx) {
    mkdirSync(ctx.dataDir, { recursive: true })
    const secured = ensureSecuredKafkaFiles(ctx.tlsDir, ctx.jdk)
    writeLines(join(ctx.installDir, 'server.properties'), [
      'process.roles=broker,controller',
      'node.id=1',
      'controller.quorum.voters=1@127.0.0.1:9093',
      // The services use the plaintext listener; SASL_SSL beside it is what the secured-connection tests use.
      `listeners=PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093,SASL_SSL://127.0.0.1:${securedKafkaPort}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:9092,SASL_SSL://127.0.0.1:${securedKafkaPort}`,
      'controller.listener.names=CONTROLLER',
      'inter.broker.listener.name=PLAINTEXT',
      'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL',
      ...securedListenerProperties(secured),
      `log.dirs=${ctx.dataDir}`,
      'num.partitions=1',
      // A single broker cannot host internal topics with the default replication factor of 3.
      'offsets.topic.replication.factor=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'share.coordinator.state.topic.replication.factor=1',
      'share.coordinator.state.topic.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      // Topics are declared in infra/kafka/topics.json and created by provisioning; a typo must not create one.
      'auto.create.topics.enable=false',
      'message.max.bytes=8388608',
    ])
    writeLines(join(ctx.installDir, 'log4j2.properties'), [
      'status = warn',
      'appender.out.type = Console',
      'appender.out.name = OUT',
      'appender.out.target = SYSTEM_OUT',
      'appender.out.layout.type = PatternLayout',
      'appender.out.layout.pattern = [%d] %p %m (%c)%n',
      'rootLogger.level = INFO',
      'rootLogger.appenderRef.out.ref = OUT',
      'logger.state.name = state.change.logger',
      'logger.state.level = WARN',
    ])
    execFileSync(
      join(ctx.jdk.home, 'bin/java'),
      [
        `-Dlog4j2.configurationFile=file:${join(ctx.installDir, 'log4j2.properties')}`,
        '-cp',
        `${join(ctx.installDir, 'libs')}/*`,
        'kafka.tools.StorageTool',
        'format',
        '-t',
        kafkaClusterId,
        '-c',
        join(ctx.installDir, 'server.properties'),
        '--ignore-formatted',
      ],
      { stdio: 'ignore' },
    )
  },
  launch(ctx) {
    return {
      executable: join(ctx.jdk.home, 'bin/java'),
      args: [
        '-Xms256m',
        '-Xmx512m',
        '-XX:+UseG1GC',
        '-XX:MaxGCPauseMillis=20',
        '-Djava.awt.headless=true',
        `-Dlog4j2.configurationFile=file:${join(ctx.installDir, 'log4j2.properties')}`,
        '-cp',
        `${join(ctx.installDir, 'libs')}/*`,
        'kafka.Kafka',
        join(ctx.installDir, 'server.properties'),
      ],
    }
  },
  afterReady(ctx) {
    ensureScramUser(ctx.installDir, ctx.jdk, '127.0.0.1:9092')
  },
}

export const elasticsearch: ServerDefinition = {
  name: 'elasticsearch',
  dependency: 'elasticsearch',
  version: elasticsearchVersion,
  ports: { http: 9200, transport: 9300 },
  java: { min: 21 },
  startupTimeoutMs: 180_000,
  async install(ctx) {
    await copyArtifact(
      ctx.maven,
      `org.elasticsearch.distribution.integ-test-zip:elasticsearch:${elasticsearchVersion}:zip`,
      ctx.downloadsDir,
      'elasticsearch',
    )
    unpackSingleDirectory(
      join(ctx.downloadsDir, `elasticsearch-${elasticsearchVersion}.zip`),
      ctx.installDir,
      'unzip',
    )
  },
  configure(ctx) {
    const esLogs = join(ctx.logDir, 'elasticsearch')
    mkdirSync(ctx.dataDir, { recursive: true })
    mkdirSync(esLogs, { recursive: true })
    writeLines(join(ctx.installDir, 'config/elasticsearch.yml'), [
      'cluster.name: memory-service-dev',
      'node.name: dev-1',
      'discovery.type: single-node',
      'network.host: 127.0.0.1',
      'http.port: 9200',
      'transport.port: 9300',
      `path.data: ${ctx.dataDir}`,
      `path.logs: ${esLogs}`,
      'xpack.security.enabled: false',
      // A developer disk that is 90% full must not turn every index read-only.
      'cluster.routing.allocation.disk.threshold_enabled: false',
      'action.destructive_requires_name: false',
    ])
    if (ctx.serviceUser) {
      for (const dir of [ctx.installDir, ctx.dataDir, esLogs]) {
        execFileSync('chown', ['-R', `${ctx.serviceUser}:${ctx.serviceUser}`, dir])
      }
    }
  },
  launch(ctx) {
    return {
      executable: join(ctx.installDir, 'bin/elasticsearch'),
      args: [],
      // The integ-test distribution bundles no JDK: ES_JAVA_HOME is mandatory.
      env: { ES_JAVA_HOME: ctx.jdk.home, ES_JAVA_OPTS: '-Xms1g -Xmx1g' },
      ...(ctx.serviceUser ? { user: ctx.serviceUser } : {}),
    }
  },
}

/** Neo4j's entry point on the JDK, with the flags its own launcher adds, for a configuration directory. */
function neo4jLaunch(ctx: ServerContext, configDir: string, maxHeap: string): LaunchSpec {
  return {
    executable: join(ctx.jdk.home, 'bin/java'),
    args: [
      '-Xms256m',
      `-Xmx${maxHeap}`,
      '-XX:+UseG1GC',
      '-XX:-OmitStackTraceInFastThrow',
      '-Dfile.encoding=UTF-8',
      '-Dio.netty.tryReflectionSetAccessible=true',
      '-Djdk.nio.maxCachedBufferSize=1024',
      // The flags Neo4j's own launcher adds; without them Netty and the page cache fail on module access.
      '--add-opens=java.base/java.nio=ALL-UNNAMED',
      '--add-opens=java.base/java.io=ALL-UNNAMED',
      '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
      '--add-opens=java.base/java.util.concurrent=ALL-UNNAMED',
      '--add-opens=java.base/java.lang=ALL-UNNAMED',
      '--enable-native-access=ALL-UNNAMED',
      '-cp',
      `${join(ctx.installDir, 'lib')}/*:${join(ctx.installDir, 'plugins')}/*`,
      'org.neo4j.server.CommunityEntryPoint',
      `--home-dir=${ctx.installDir}`,
      `--config-dir=${configDir}`,
      '--console-mode',
    ],
  }
}

export const neo4j: ServerDefinition = {
  name: 'neo4j',
  dependency: 'neo4j',
  version: neo4jVersion,
  ports: { bolt: 7687, http: 7474 },
  java: { min: 17, max: 21 },
  startupTimeoutMs: 120_000,
  async install(ctx) {
    await copyDependencies(
      ctx.maven,
      [`org.neo4j:neo4j:${neo4jVersion}`, `org.neo4j.app:neo4j-server:${neo4jVersion}`],
      join(ctx.downloadsDir, 'neo4j-pom'),
      join(ctx.installDir, 'lib'),
      'neo4j',
    )
  },
  configure(ctx) {
    for (const dir of ['conf', 'plugins', 'import', 'run'])
      mkdirSync(join(ctx.installDir, dir), { recursive: true })
    mkdirSync(ctx.dataDir, { recursive: true })
    writeLines(join(ctx.installDir, 'conf/neo4j.conf'), [
      'server.default_listen_address=127.0.0.1',
      'server.bolt.listen_address=127.0.0.1:7687',
      'server.bolt.advertised_address=127.0.0.1:7687',
      'server.http.enabled=true',
      'server.http.listen_address=127.0.0.1:7474',
      'server.https.enabled=false',
      'dbms.security.auth_enabled=false',
      'server.memory.pagecache.size=128m',
      `server.directories.data=${ctx.dataDir}`,
      `server.directories.logs=${join(ctx.logDir, 'neo4j')}`,
      `server.directories.run=${join(ctx.installDir, 'run')}`,
      `server.directories.import=${join(ctx.installDir, 'import')}`,
      `server.directories.plugins=${join(ctx.installDir, 'plugins')}`,
      'dbms.usage_report.enabled=false',
    ])
  },
  launch: (ctx) => neo4jLaunch(ctx, join(ctx.installDir, 'conf'), '512m'),
}

export const schemaRegistry: ServerDefinition = {
  name: 'schema-registry',
  dependency: 'schema_registry',
  version: apicurioVersion,
  ports: { http: 8081, management: 9001 },
  java: { min: 21 },
  startupTimeoutMs: 90_000,
  async install(ctx) {
    await copyArtifact(
      ctx.maven,
      `io.apicurio:apicurio-registry-app:${apicurioVersion}:tar.gz:all`,
      ctx.downloadsDir,
      'schema-registry',
    )
    unpackSingleDirectory(
      join(ctx.downloadsDir, `apicurio-registry-app-${apicurioVersion}-all.tar.gz`),
      ctx.installDir,
      'tar',
    )
    chmodSync(ctx.installDir, 0o755)
  },
  configure(ctx) {
    mkdirSync(ctx.dataDir, { recursive: true })
  },
  launch(ctx) {
    if (!existsSync(join(ctx.installDir, 'quarkus-run.jar')))
      throw new Error('Apicurio install is incomplete')
    return {
      executable: join(ctx.jdk.home, 'bin/java'),
      args: [
        '-Xms128m',
        '-Xmx384m',
        '-Dquarkus.http.host=127.0.0.1',
        '-Dquarkus.http.port=8081',
        // The management port moves off 9000, where a ClickHouse server listens.
        '-Dquarkus.management.host=127.0.0.1',
        '-Dquarkus.management.port=9001',
        // Schema ids are written into every Kafka message; they must survive a restart, so storage is an H2 file.
        `-Dapicurio.datasource.url=jdbc:h2:file:${join(ctx.dataDir, 'registry')};DB_CLOSE_ON_EXIT=FALSE`,
        '-jar',
        join(ctx.installDir, 'quarkus-run.jar'),
      ],
    }
  },
}

/** A second Elasticsearch node with security and TLS on (securedElasticsearch.ts), for `stack:up --secured`. */
export const securedElasticsearch: ServerDefinition = {
  name: 'elasticsearch-secured',
  dependency: 'elasticsearch',
  version: elasticsearchVersion,
  ports: { https: securedElasticsearchPort, transport: 9301 },
  java: { min: 21 },
  startupTimeoutMs: 180_000,
  installName: 'elasticsearch',
  standalone: { address: securedElasticsearchUrl, probe: securedElasticsearchProbe },
  install: (ctx) => elasticsearch.install(ctx),
  configure(ctx) {
    configureSecuredElasticsearch(ctx)
    if (ctx.serviceUser) {
      for (const dir of [ctx.dataDir, join(ctx.logDir, 'elasticsearch-secured')]) {
        execFileSync('chown', ['-R', `${ctx.serviceUser}:${ctx.serviceUser}`, dir])
      }
    }
  },
  launch(ctx) {
    return {
      executable: join(ctx.installDir, 'bin/elasticsearch'),
      args: [],
      env: {
        ES_JAVA_HOME: ctx.jdk.home,
        ES_JAVA_OPTS: '-Xms512m -Xmx512m',
        ES_PATH_CONF: join(ctx.dataDir, 'config'),
      },
      ...(ctx.serviceUser ? { user: ctx.serviceUser } : {}),
    }
  },
}

/** A second Neo4j with authentication and TLS required (securedNeo4j.ts), for `stack:up --secured`. */
export const securedNeo4j: ServerDefinition = {
  name: 'neo4j-secured',
  dependency: 'neo4j',
  version: neo4jVersion,
  ports: { bolt: securedNeo4jPort },
  java: { min: 17, max: 21 },
  startupTimeoutMs: 120_000,
  installName: 'neo4j',
  standalone: { address: securedNeo4jUri, probe: securedNeo4jProbe },
  install: (ctx) => neo4j.install(ctx),
  configure: (ctx) => configureSecuredNeo4j(ctx),
  launch: (ctx) => neo4jLaunch(ctx, securedNeo4jConfigDir(ctx.dataDir), '256m'),
}

/** Start order: fast servers first, so their readiness overlaps with the slow ones' start. */
export const servers: ServerDefinition[] = [kafka, schemaRegistry, neo4j, elasticsearch]

/** What `--secured` starts beside them: the secured node of each engine that has one (Kafka's is a listener). */
export const securedServers: ServerDefinition[] = [securedNeo4j, securedElasticsearch]
