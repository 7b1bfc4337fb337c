import { describe, expect, it } from 'vitest'
import { missingPrerequisites } from './stack.js'

describe('missingPrerequisites', () => {
  it('names nothing when Maven, unzip, tar and fitting JDKs are present', () => {
    expect(
      missingPrerequisites({
        commandExists: () => true,
        jdks: [
          { home: '/jvm/17', major: 17 },
          { home: '/jvm/25', major: 25 },
        ],
      }),
    ).toEqual([])
  })

  it('says exactly what is missing on a machine with neither Java nor Maven', () => {
    const missing = missingPrerequisites({ commandExists: (command) => command === 'tar', jdks: [] })
    expect(missing).toEqual([
      'Maven (`mvn`) to download the servers from Maven Central: apt-get install maven',
      '`unzip` to unpack Elasticsearch: apt-get install unzip',
      'a JDK 17 or newer for kafka 4.3.1 (found: none); install one or set JAVA_HOME',
      'a JDK 21 or newer for schema-registry 3.3.3 (found: none); install one or set JAVA_HOME',
      'a JDK 17–21 for neo4j 5.26.31 (found: none); install one or set JAVA_HOME',
      'a JDK 21 or newer for elasticsearch 9.5.4 (found: none); install one or set JAVA_HOME',
    ])
  })

  it('names the servers a Java-17-only machine cannot run', () => {
    const missing = missingPrerequisites({
      commandExists: () => true,
      jdks: [{ home: '/jvm/17', major: 17 }],
    })
    expect(missing).toEqual([
      'a JDK 21 or newer for schema-registry 3.3.3 (found: 17 (/jvm/17)); install one or set JAVA_HOME',
      'a JDK 21 or newer for elasticsearch 9.5.4 (found: 17 (/jvm/17)); install one or set JAVA_HOME',
    ])
  })
})
