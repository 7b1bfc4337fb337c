/**
 * A process of its own that opens the in-process ClickHouse on a directory (argv[2]), prints `open` or the error,
 * and holds it for argv[3] ms: two such processes show what a second process on one directory gets.
 */
import { createClickhouseClient, createClickhouseStore } from '@memory-service/engines'

const [directory = '', holdMs = '0'] = process.argv.slice(2)
try {
  const store = createClickhouseStore(
    await createClickhouseClient({ dataPath: directory, database: 'fixture' } as never),
    'fixture',
  )
  await store.version()
  console.log('open')
  await new Promise((resolve) => setTimeout(resolve, Number(holdMs)))
  await store.close()
} catch (error) {
  console.log(`refused: ${error instanceof Error ? error.message : String(error)}`)
}
