import type { ProposalListQuery } from '@stake/contract'
import { ValidationFailure, type FieldError } from '../../errors.ts'
import { isCalendarDate } from './sustainings.policy.ts'

/** docs/api-reference.md §12 archive dates: real calendar days (422 otherwise), checked before any query. */
export function checkArchiveDates(query: Pick<ProposalListQuery, 'from' | 'to'>): void {
  const errors: FieldError[] = []
  for (const key of ['from', 'to'] as const) {
    const value = query[key]
    if (value !== undefined && !isCalendarDate(value))
      errors.push({ loc: ['query', key], msg: 'Not a calendar date (YYYY-MM-DD)', type: 'value_error' })
  }
  if (errors.length) throw new ValidationFailure(errors)
}
