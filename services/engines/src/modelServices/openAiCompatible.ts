const maxExcerptChars = 200

/**
 * Request basics shared by every client of an OpenAI-compatible API: the endpoint URL, the headers with the bearer
 * key, and an excerpt of a response body for error messages from which the key is removed (a misbehaving server
 * or proxy may echo request headers back).
 */
export function openAiCompatibleEndpoint(options: {
  baseUrl: string
  path: string
  apiKey?: string | undefined
}) {
  const { apiKey } = options
  const redact = (text: string) =>
    apiKey === undefined || apiKey === '' ? text : text.replaceAll(apiKey, '[redacted]')
  return {
    url: `${options.baseUrl.replace(/\/+$/, '')}/${options.path}`,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(apiKey !== undefined && { authorization: `Bearer ${apiKey}` }),
    } as Record<string, string>,
    redact,
    excerpt: (text: string) => redact(text).replace(/\s+/g, ' ').trim().slice(0, maxExcerptChars),
  }
}
