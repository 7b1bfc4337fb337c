/**
 * `npm run test:faults`: the fault suite against the cluster topology (infra/cluster). It runs in a namespace of its
 * own (set here, before any module reads it), so it can run beside `npm start` on the same stack.
 */
import { randomBytes } from 'node:crypto'

process.env.MEMORY_SERVICE_NAMESPACE ??= `faults-${randomBytes(3).toString('hex')}`
process.env.LOG_LEVEL ??= 'info'
const { runFaultSuite } = await import('./faults.js')
process.exit(await runFaultSuite(process.argv.slice(2)))
