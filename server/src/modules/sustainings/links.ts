import type { Release } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import { ValidationFailure, type FieldError } from '../../errors.ts'

/**
 * docs/api-reference.md §12: a proposal's `calling_id` / `user_id`, and those of its releases,
 * must name an existing calling and user (422, every failing field listed).
 * Two queries whatever the number of releases.
 */
export async function checkLinks(
  db: Executor,
  fields: { calling_id: number | null; user_id: number | null; releases: string },
): Promise<void> {
  const releases = JSON.parse(fields.releases) as Release[]
  const callingIds = new Set<number>()
  const userIds = new Set<number>()
  if (fields.calling_id !== null) callingIds.add(fields.calling_id)
  if (fields.user_id !== null) userIds.add(fields.user_id)
  for (const r of releases) {
    if (r.calling_id != null) callingIds.add(r.calling_id)
    if (r.user_id != null) userIds.add(r.user_id)
  }
  const [callings, users] = await Promise.all([
    callingIds.size
      ? db
          .selectFrom('callings')
          .select('id')
          .where('id', 'in', [...callingIds])
          .execute()
      : Promise.resolve([]),
    userIds.size
      ? db
          .selectFrom('users')
          .select('id')
          .where('id', 'in', [...userIds])
          .execute()
      : Promise.resolve([]),
  ])
  const knownCallings = new Set(callings.map((c) => c.id))
  const knownUsers = new Set(users.map((u) => u.id))
  const errors: FieldError[] = []
  const check = (id: number | null | undefined, known: Set<number>, loc: string[], what: string) => {
    if (id != null && !known.has(id)) errors.push({ loc, msg: `${what} not found`, type: 'value_error' })
  }
  check(fields.calling_id, knownCallings, ['body', 'calling_id'], 'Calling')
  check(fields.user_id, knownUsers, ['body', 'user_id'], 'User')
  releases.forEach((r, i) => {
    check(r.calling_id, knownCallings, ['body', 'releases', String(i), 'calling_id'], 'Calling')
    check(r.user_id, knownUsers, ['body', 'releases', String(i), 'user_id'], 'User')
  })
  if (errors.length) throw new ValidationFailure(errors)
}
