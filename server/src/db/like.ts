import { sql, type RawBuilder } from 'kysely'

/**
 * A `LIKE` pattern matching `text` anywhere, with `%`, `_` and `\` in the
 * user's text taken literally (the same ESCAPE on both databases). Compare it
 * with an already lower-cased column for a case-insensitive search.
 */
export function containsPattern(text: string): RawBuilder<string> {
  const escaped = text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)
  return sql<string>`${`%${escaped}%`} escape '\\'`
}
