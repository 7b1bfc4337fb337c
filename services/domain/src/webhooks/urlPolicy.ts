import * as ipaddrModule from 'ipaddr.js'

// ipaddr.js is CommonJS (`export =`): Node's ESM loader hands its exports over as the default export.
const ipaddr = (ipaddrModule as unknown as { default?: typeof ipaddrModule }).default ?? ipaddrModule

/**
 * Where a webhook may send (SSRF): https to a public address, unless the host is on the configured allow-list
 * (WEBHOOK_ALLOWED_HOSTS; loopback by default, for development), which may use http and any address. The same
 * rules run at registration (the URL as written) and at every send, on every address the host resolves to; the
 * sender then connects to an address it checked, so a name that resolves differently the second time gains
 * nothing. IP ranges come from ipaddr.js (the IANA special-purpose registries), not hand-written CIDR math.
 */
export interface UrlPolicy {
  /** Hosts (names or addresses, compared in lower case) allowed over http and at non-public addresses. */
  allowedHosts: readonly string[]
}

export type UrlCheck =
  { ok: true; url: URL; host: string; allowListed: boolean } | { ok: false; reason: string }

export const MAX_WEBHOOK_URL_LENGTH = 2048

/** The host of a URL as compared with the allow-list: lower case, an IPv6 address without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1')
}

function isAllowListed(host: string, policy: UrlPolicy): boolean {
  return policy.allowedHosts.some((allowed) => allowed.toLowerCase().replace(/^\[(.*)\]$/, '$1') === host)
}

/**
 * Why an address may not be the target of a webhook, or undefined when it may: only public unicast addresses
 * pass (an IPv4-mapped IPv6 address is judged as its IPv4 address).
 */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`
  let parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddrModule.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddrModule.IPv6).toIPv4Address()
  }
  const range = parsed.range()
  if (range === 'unicast') return undefined
  const names: Record<string, string> = {
    private: 'a private address',
    loopback: 'a loopback address',
    linkLocal: 'a link-local address',
    uniqueLocal: 'a unique-local address',
    carrierGradeNat: 'a carrier-grade NAT address',
    unspecified: 'the unspecified address',
    multicast: 'a multicast address',
    broadcast: 'the broadcast address',
  }
  return `${address} is ${names[range] ?? `a special-purpose address (${range})`}`
}

/** Checks a webhook URL as written (registration, update, and before each send). */
export function checkWebhookUrl(text: string, policy: UrlPolicy): UrlCheck {
  if (text.length > MAX_WEBHOOK_URL_LENGTH)
    return { ok: false, reason: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, reason: 'must be an absolute http or https URL' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: 'must be an http or https URL' }
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'must not carry credentials (user:password@)' }
  if (url.hash !== '') return { ok: false, reason: 'must not have a fragment' }
  const host = hostOf(url)
  if (host === '') return { ok: false, reason: 'must name a host' }
  if (isAllowListed(host, policy)) return { ok: true, url, host, allowListed: true }
  if (url.protocol !== 'https:')
    return { ok: false, reason: `must use https (http only for hosts on WEBHOOK_ALLOWED_HOSTS)` }
  if (ipaddr.isValid(host)) {
    const refused = refusedAddress(host)
    if (refused) return { ok: false, reason: `refused: ${refused}` }
  } else if (host === 'localhost' || host.endsWith('.localhost')) {
    return { ok: false, reason: 'refused: localhost is a loopback name' }
  } else if (!/^[a-z0-9.-]+$/.test(host) || !host.includes('.')) {
    return { ok: false, reason: 'must name a public host (a fully qualified domain name)' }
  }
  return { ok: true, url, host, allowListed: false }
}

/**
 * Picks the address to connect to among those a host resolved to: every one must be allowed (a name resolving to
 * a public and a private address is refused as a whole, since a client could be steered to either).
 * @returns the first address, or the reason for refusing.
 */
export function pickResolvedAddress(
  host: string,
  addresses: readonly string[],
): { ok: true; address: string } | { ok: false; reason: string } {
  if (addresses.length === 0) return { ok: false, reason: `${host} did not resolve` }
  for (const address of addresses) {
    const refused = refusedAddress(address)
    if (refused) return { ok: false, reason: `refused: ${host} resolves to ${refused}` }
  }
  return { ok: true, address: addresses[0] as string }
}
