/**
 * The bounds of reading a report (docs/api-reference.md §15): one stake's
 * import never slows the others, and a report that is too large is refused
 * with a message naming the limit, nothing stored.
 */

/** At most this many data rows in one report. */
export const MAX_ROWS = 10_000
/** A PDF: at most this many pages and text items. */
export const PDF_MAX_PAGES = 200
export const PDF_MAX_ITEMS = 200_000
/** Any report: at most this long and this many MiB of heap for its reader (reader.ts). */
export const READ_TIME_MS = 10_000
export const READ_HEAP_MB = 256
/** A PDF page: at most this many bytes of drawing (its content streams and forms, decompressed). */
export const PDF_MAX_PAGE_CONTENT = 2 * 2 ** 20
/** Open (unapplied, unexpired) previews per stake. */
export const MAX_OPEN_PREVIEWS = 20
/** POST /imports per user and hour. */
export const IMPORTS_PER_HOUR = 30
