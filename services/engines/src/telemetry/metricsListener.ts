import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Logger } from '../logging/createLogger.js'
import { metricsExposition } from './metrics.js'

export interface MetricsListener {
  /** `http://host:port` it listens on. */
  address: string
  close(): Promise<void>
}

/**
 * GET /metrics for a process that has no gateway (a pipeline worker, the projectors run alone). A port in use is
 * not a reason to stop a worker that otherwise runs: it is logged and the process goes on without the listener.
 */
export async function startMetricsListener(
  port: number,
  logger: Logger,
  host = '0.0.0.0',
): Promise<MetricsListener | undefined> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: 'Not found', code: 'NOT_FOUND', details: {} }))
      return
    }
    metricsExposition().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType })
        response.end(body)
      },
      (error: unknown) => {
        logger.error({ err: error }, 'metrics could not be collected')
        response.writeHead(500, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ error: 'Metrics unavailable', code: 'INTERNAL_ERROR', details: {} }))
      },
    )
  })
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (error) {
    logger.warn({ err: error, port }, 'metrics listener not started; set METRICS_PORT to a free port')
    return undefined
  }
  const { port: bound } = server.address() as AddressInfo
  const address = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}`
  logger.info({ address: `${address}/metrics` }, 'metrics listening')
  return {
    address,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
