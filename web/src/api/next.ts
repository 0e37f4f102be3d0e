/**
 * Where to go after signing in (`?next=`): only a path of this app. It must
 * start with a single `/` and hold no backslash, no control character or
 * whitespace (browsers drop tabs and newlines and read `\` as `/`, which turns
 * `/\evil.example` or `/\t/evil.example` into another site), and it must
 * still resolve to this origin. Anything else gives `fallback`.
 */
export function safeNextPath(next: string | null, fallback: string, refused: readonly string[] = []): string {
  if (!next || next.length > 2000) return fallback
  if (!next.startsWith('/') || next.startsWith('//')) return fallback
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u0020\u007f-\u009f\u2028\u2029]/.test(next)) return fallback
  const base = 'https://app.invalid'
  let url: URL
  try {
    url = new URL(next, base)
  } catch {
    return fallback
  }
  if (url.origin !== base) return fallback
  if (refused.some((path) => url.pathname === path || url.pathname.startsWith(`${path}/`))) return fallback
  return next
}
