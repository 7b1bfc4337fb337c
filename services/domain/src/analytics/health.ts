/** Healthy under 1 % of API calls failing with a 5xx, degraded under 5 %, unhealthy from there. */
export function healthOf(errorRatePct: number): 'healthy' | 'degraded' | 'unhealthy' {
  if (errorRatePct < 1) return 'healthy'
  if (errorRatePct < 5) return 'degraded'
  return 'unhealthy'
}
