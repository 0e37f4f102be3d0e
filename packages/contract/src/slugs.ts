/**
 * A stake's address (docs/api-reference.md §14): its public page is `/s/<slug>`
 * and anonymous routes take `?stake=<slug>`. Lowercase letters, digits and
 * single hyphens, starting with a letter (so it is never read as an id).
 */
export const SLUG_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/
export const SLUG_LENGTH = { min: 2, max: 60 } as const

/** Letters that no Unicode decomposition turns into ASCII. */
const FOLDED: Record<string, string> = { ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' }

/**
 * The slug a stake's name gives: accents folded, lowercase, other characters
 * as hyphens ("Estaca Córdoba Norte" → `estaca-cordoba-norte`); a name that
 * gives no letter first, or too little, is prefixed with `stake`.
 */
export function slugOf(name: string): string {
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæøœłđðþı]/g, (c) => FOLDED[c] ?? c)
  const slug = folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
  const lettered = /^[a-z]/.test(slug) && slug.length >= SLUG_LENGTH.min ? slug : `stake-${slug}`.replace(/-+$/, '')
  return lettered.slice(0, SLUG_LENGTH.max).replace(/-+$/, '')
}

/** The `n`th choice for a slug (n ≥ 1): the slug itself, then `slug-2`, `slug-3`… within the length limit. */
export function slugChoice(slug: string, n: number): string {
  if (n <= 1) return slug
  const suffix = `-${n}`
  return `${slug.slice(0, SLUG_LENGTH.max - suffix.length).replace(/-+$/, '')}${suffix}`
}
