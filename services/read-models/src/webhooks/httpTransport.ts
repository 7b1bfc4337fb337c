import { lookup as dnsLookup } from 'node:dns/promises'
import { request as httpRequest, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import {
  checkWebhookUrl,
  pickResolvedAddress,
  type AttemptResult,
  type UrlPolicy,
} from '@memory-service/domain'
import type { WebhookTransport } from './webhookSender.js'

/** Resolves a host name to every address it has. */
export type ResolveHost = (host: string) => Promise<string[]>

const resolveWithDns: ResolveHost = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address)

/**
 * POSTs a delivery with node:http(s), under the SSRF policy: the URL is checked again as written, then (for a host
 * not on the allow-list) the name is resolved, every address checked, and the connection made to an address that
 * was checked (a `lookup` that answers only it), so DNS cannot switch to a private address between check and
 * connect. TLS still verifies the certificate against the host name. Redirects are not followed (a 3xx is a failed
 * attempt); the body of the answer is read and dropped, at most 64 KiB of it.
 */
export function createHttpTransport(
  policy: UrlPolicy,
  resolveHost: ResolveHost = resolveWithDns,
): WebhookTransport {
  return {
    async send({ url, headers, body, timeoutMs }): Promise<AttemptResult> {
      const check = checkWebhookUrl(url, policy)
      if (!check.ok) return { error: `target refused: ${check.reason}` }
      let lookup: LookupFunction | undefined
      if (!check.allowListed) {
        const isLiteral = /^[0-9.]+$/.test(check.host) || check.host.includes(':')
        if (!isLiteral) {
          let addresses: string[]
          try {
            addresses = await resolveHost(check.host)
          } catch (error) {
            return { error: `${check.host} did not resolve: ${(error as Error).message}` }
          }
          const picked = pickResolvedAddress(check.host, addresses)
          if (!picked.ok) return { error: `target refused: ${picked.reason}` }
          const family = picked.address.includes(':') ? 6 : 4
          lookup = (_hostname, options, callback) => {
            if (options.all) {
              ;(callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
                { address: picked.address, family },
              ])
            } else callback(null, picked.address, family)
          }
        }
      }
      const requestOptions: RequestOptions = {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(timeoutMs),
        ...(lookup ? { lookup } : {}),
      }
      const send = check.url.protocol === 'https:' ? httpsRequest : httpRequest
      return new Promise<AttemptResult>((resolve) => {
        let settled = false
        const settle = (result: AttemptResult) => {
          if (!settled) {
            settled = true
            resolve(result)
          }
        }
        const outgoing = send(check.url, requestOptions, (response) => {
          let read = 0
          response.on('data', (chunk: Buffer) => {
            read += chunk.length
            if (read > 64 * 1024) response.destroy()
          })
          response.on('close', () => settle({ statusCode: response.statusCode ?? 0 }))
          response.on('error', () => settle({ statusCode: response.statusCode ?? 0 }))
        })
        outgoing.on('error', (error: Error & { code?: string }) =>
          settle({
            error:
              error.name === 'AbortError' || error.name === 'TimeoutError'
                ? `no answer within ${timeoutMs} ms`
                : `${error.code ?? error.name}: ${error.message}`,
          }),
        )
        outgoing.end(body)
      })
    },
  }
}
