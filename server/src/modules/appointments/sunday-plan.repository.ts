import type { Insertable } from 'kysely'
import type { Executor } from '../../db/types.ts'
import { holdersOf } from '../callings/seats.repository.ts'
import { PRESIDENCY_KEYS } from '../proposals/proposals.policy.ts'
import type { SundayAssignmentsTable } from './appointments.tables.ts'

/** The Sunday plan's assignments between two dates, with the assignee's name, in the day's order. */
export function assignmentRows(db: Executor, from: string, to: string) {
  return db
    .selectFrom('sunday_assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select([
      'a.id',
      'a.date',
      'a.kind',
      'a.ward_id',
      'a.session',
      'a.start_minute',
      'a.duration_minutes',
      'u.id as user_id',
      'u.fname',
      'u.lname',
    ])
    .where('a.date', '>=', from)
    .where('a.date', '<=', to)
    .orderBy('a.date')
    .orderBy('a.start_minute')
    .orderBy('a.id')
    .execute()
}
export type AssignmentRow = Awaited<ReturnType<typeof assignmentRows>>[number]

/** Whom the plan offers to assign: the stake presidency's active seat holders, by id. */
export const presidencyPeople = (db: Executor) =>
  holdersOf(db, PRESIDENCY_KEYS).select(['u.id', 'u.fname', 'u.lname']).distinct().orderBy('u.id').execute()

/** One Sunday's assignments replaced by `rows`, in the caller's transaction. */
export async function replaceAssignments(
  trx: Executor,
  date: string,
  rows: Insertable<SundayAssignmentsTable>[],
): Promise<void> {
  await trx.deleteFrom('sunday_assignments').where('date', '=', date).execute()
  if (rows.length > 0) await trx.insertInto('sunday_assignments').values(rows).execute()
}
