import type { AuditEntry, Permission } from '@stake/contract'
import { ValidationFailure, type FieldError } from '../../errors.ts'
import { zonedInstant } from '../speaking/feed.dates.ts'

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/

const MESSAGE = 'Expected a date (YYYY-MM-DD) or a date-time (RFC 3339, e.g. 2026-11-24T18:30:00Z)'

function validDay(year: number, month: number, day: number): boolean {
  return year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/**
 * A `from`/`to` bound of GET /audit as ISO text, or undefined when it does
 * not parse (the caller answers 422). A date is a whole day in the stake's
 * time zone: `from` its first instant, `to` its last (both bounds inclusive).
 * A date-time needs its seconds and an offset, with every field in range (no
 * 2026-02-30, no 24:00, no leap second).
 */
export function parseBound(value: string, edge: 'from' | 'to', timeZone: string): string | undefined {
  const date = DATE.exec(value)
  if (date) {
    const [year, month, day] = date.slice(1, 4).map(Number) as [number, number, number]
    if (!validDay(year, month, day)) return undefined
    const start = zonedInstant({ year, month, day: edge === 'from' ? day : day + 1 }, 0, timeZone)
    return new Date(start.getTime() - (edge === 'to' ? 1 : 0)).toISOString()
  }
  const m = DATE_TIME.exec(value)
  if (!m) return undefined
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[]
  const offsetOk = m[9] === undefined || (Number(m[10]) <= 23 && Number(m[11]) <= 59)
  if (!validDay(year!, month!, day!) || hour! > 23 || minute! > 59 || second! > 59 || !offsetOk) return undefined
  const instant = Date.parse(value.toUpperCase())
  return Number.isNaN(instant) ? undefined : new Date(instant).toISOString()
}

/** Both bounds parsed, or one 422 listing each bad one (and `to` before `from`). */
export function parseRange(query: { from?: string; to?: string }, timeZone: string) {
  const from = query.from === undefined ? undefined : parseBound(query.from, 'from', timeZone)
  const to = query.to === undefined ? undefined : parseBound(query.to, 'to', timeZone)
  const errors: FieldError[] = [
    ...(query.from !== undefined && from === undefined
      ? [{ loc: ['query', 'from'], msg: MESSAGE, type: 'date_parsing' }]
      : []),
    ...(query.to !== undefined && to === undefined
      ? [{ loc: ['query', 'to'], msg: MESSAGE, type: 'date_parsing' }]
      : []),
  ]
  if (errors.length === 0 && from !== undefined && to !== undefined && to < from) {
    errors.push({ loc: ['query', 'to'], msg: '`to` must not lie before `from`', type: 'date_range' })
  }
  if (errors.length > 0) throw new ValidationFailure(errors)
  return { from, to }
}

/**
 * S9 holds in the audit log too: a proposal's names, a vote's verdict and a
 * decline's reason are shown only to callers who see every proposal
 * (`proposals.manage`); other readers of the log see which proposal moved
 * where, and who moved it.
 */
const PROPOSAL_FACTS_FOR_ALL = new Set(['from', 'to', 'stage', 'ward_id', 'is_release', 'kind', 'office'])

export function visibleEntry(entry: AuditEntry, permissions: ReadonlySet<Permission>): AuditEntry {
  if (entry.target_type !== 'proposal' || permissions.has('proposals.manage')) return entry
  const detail = Object.fromEntries(Object.entries(entry.detail).filter(([key]) => PROPOSAL_FACTS_FOR_ALL.has(key)))
  return { ...entry, detail }
}
