import type { Kysely } from 'kysely'
import type { AppContext } from '../../context.ts'
import type { DB } from '../../db/schema.ts'
import { withTransaction } from '../../db/transaction.ts'
import { canSee } from '../proposals/proposals.policy.ts'
import { composeMail, linkBase } from './mail.compose.ts'
import { insertOutbox, outboxRow } from './outbox.repository.ts'
import { loadCandidates } from './recipients.ts'

type Deps = Pick<AppContext, 'config' | 'dialect'> & { db: Kysely<DB> }

/**
 * The daily digest (docs/api-reference.md §11): one mail per `daily` user with every
 * notification set aside for it since the last digest. Each user's share is
 * one transaction that marks the notifications `digested` and queues the
 * mail, so a second run finds nothing left. A notification about a proposal
 * the user can no longer see (it went back to the presidency) is left out
 * (S9); a user who turned mail off or was deactivated meanwhile gets none.
 */
export async function sendDigests(deps: Deps, at: string): Promise<number> {
  const users = await deps.db
    .selectFrom('notifications')
    .select('user_id')
    .distinct()
    .where('mail', '=', 'digest')
    .orderBy('user_id')
    .execute()
  let sent = 0
  for (const { user_id } of users) {
    if (await withTransaction(deps.db, (trx) => digestOf(trx, deps, user_id, at))) sent++
  }
  return sent
}

async function digestOf(trx: Kysely<DB>, deps: Deps, userId: number, at: string): Promise<boolean> {
  const pending = await trx
    .selectFrom('notifications as n')
    .leftJoin('proposals as p', 'p.id', 'n.proposal_id')
    .select(['n.id', 'n.text', 'n.proposal_id', 'p.submitter', 'p.ward_id', 'p.stage', 'p.declined_from', 'p.kind'])
    .where('n.user_id', '=', userId)
    .where('n.mail', '=', 'digest')
    .orderBy('n.id')
    .execute()
  if (pending.length === 0) return false
  await trx
    .updateTable('notifications')
    .set({ mail: 'digested' })
    .where(
      'id',
      'in',
      pending.map((n) => n.id),
    )
    .where('mail', '=', 'digest')
    .execute()
  const [user] = await loadCandidates(trx, deps.dialect, [userId])
  if (!deps.config.smtpUrl || !user || !user.active || user.email_preference === 'off' || user.email === null)
    return false
  const items = pending.filter(
    (n) =>
      n.proposal_id === null ||
      (n.stage !== null &&
        canSee(user.viewer, {
          submitter: n.submitter!,
          ward_id: n.ward_id!,
          stage: n.stage,
          declined_from: n.declined_from,
          kind: n.kind,
        })),
  )
  if (items.length === 0) return false
  const mail = composeMail(user.language, user.fname, 'digest', items, linkBase(deps.config))
  await insertOutbox(trx, [outboxRow({ user_id: user.id, to_address: user.email, kind: 'digest' }, mail, at)])
  return true
}
