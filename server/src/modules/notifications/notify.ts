import type { NotificationKind } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import { canSee } from '../proposals/proposals.policy.ts'
import { findProposal, type ProposalRow } from '../proposals/proposals.repository.ts'
import type { DomainEvent, EventDeps } from '../../events/types.ts'
import { composeMail, linkBase } from './mail.compose.ts'
import { insertNotifications } from './notifications.repository.ts'
import { insertOutbox, outboxRow } from './outbox.repository.ts'
import { claimAutoReminders } from './reminders.repository.ts'
import { loadCandidates, missingVoters, participants, type Candidate } from './recipients.ts'
import { notificationText, translator } from './texts.ts'
import { queuePushes, unreadCounts } from '../push/push.repository.ts'

type Wanted = Map<number, NotificationKind>

/** Adds `ids` as `kind` unless they already get something: one change, one notification each (docs/api-reference.md §11). */
function want(wanted: Wanted, ids: Iterable<number>, kind: NotificationKind): void {
  for (const id of ids) if (!wanted.has(id)) wanted.set(id, kind)
}

/**
 * The notification subscriber: writes the notifications an event causes,
 * and their mail, inside the event's own transaction (docs/api-reference.md §11):
 * they commit or roll back with it, and nothing is sent from here (the mail
 * worker delivers the outbox later, so mail never slows or fails the request).
 *
 * - proposal.create: `vote_needed` to the voters of its first stage;
 * - proposal.move: `declined` alone to the submitter on a decline; otherwise
 *   `vote_needed` to the voters of a voting stage whose vote there is
 *   missing, and `stage_changed` to the submitter;
 * - interview.assign: `interview_assigned` to the interviewer;
 * - comment.create: the submitter, everyone who commented and everyone who voted;
 * - proposal.remind: `reminder` to the current stage's missing voters; an
 *   automatic one only to those not reminded yet of this visit to the stage.
 *
 * Whoever is asked for, the same filter applies: never the actor himself,
 * never an inactive user, never someone who cannot see the proposal as it
 * is after the change (S9, by the tracker's own `canSee`).
 */
export async function notifications(trx: Executor, deps: EventDeps, event: DomainEvent): Promise<void> {
  if (!('proposalId' in event)) return
  const proposal = await findProposal(trx, event.proposalId)
  if (!proposal) return
  const wanted: Wanted = new Map()
  if (event.kind === 'proposal.remind') {
    want(wanted, await missingVoters(trx, proposal.id, proposal.stage), 'reminder')
    const only = event.automatic
      ? (ids: number[]) => claimAutoReminders(trx, proposal.id, proposal.stage_changed_at, ids, event.at)
      : undefined
    return new Writer(deps).write(trx, proposal, wanted, event.by, event.at, only)
  }
  if (event.kind === 'proposal.create')
    want(wanted, await missingVoters(trx, proposal.id, proposal.stage), 'vote_needed')
  if (event.kind === 'proposal.move' && event.to === 'declined') want(wanted, [proposal.submitter], 'declined')
  if (event.kind === 'proposal.move' && event.to !== 'declined') {
    want(wanted, await missingVoters(trx, proposal.id, event.to), 'vote_needed')
    want(wanted, [proposal.submitter], 'stage_changed')
  }
  if (event.kind === 'interview.assign') want(wanted, [event.interviewerId], 'interview_assigned')
  if (event.kind === 'comment.create')
    want(wanted, [proposal.submitter, ...(await participants(trx, proposal.id))], 'comment')
  return new Writer(deps).write(trx, proposal, wanted, event.by, event.at)
}

class Writer {
  constructor(private readonly ctx: EventDeps) {}

  async write(
    trx: Executor,
    proposal: ProposalRow,
    wanted: Wanted,
    by: number | null,
    at: string,
    only?: (ids: number[]) => Promise<number[]>,
  ): Promise<void> {
    wanted.delete(by ?? 0)
    if (wanted.size === 0) return
    let recipients = (await loadCandidates(trx, this.ctx.dialect, [...wanted.keys()])).filter(
      (c) => c.active && canSee(c.viewer, proposal),
    )
    if (only) {
      const admitted = new Set(await only(recipients.map((c) => c.id)))
      recipients = recipients.filter((c) => admitted.has(c.id))
    }
    if (recipients.length === 0) return
    const author = by !== null && [...wanted.values()].includes('comment') ? await this.authorName(trx, by) : null
    const mailOn = this.ctx.config.smtpUrl !== null
    const texts = new Map(
      recipients.map((c) => [c.id, notificationText(c.language, wanted.get(c.id)!, proposal, author)]),
    )
    await insertNotifications(
      trx,
      recipients.map((c) => ({
        user_id: c.id,
        kind: wanted.get(c.id)!,
        proposal_id: proposal.id,
        text: texts.get(c.id)!,
        created_at: at,
        read_at: null,
        mail: mailOn && c.email_preference === 'daily' ? 'digest' : null,
      })),
    )
    // Each device of each recipient gets the inbox text as a push: the same recipients, so S9 as the inbox.
    const unread = await unreadCounts(
      trx,
      recipients.map((c) => c.id),
    )
    await queuePushes(
      trx,
      recipients.map((c) => {
        const t = translator(c.language)
        const kind = wanted.get(c.id)!
        const owesVote = kind === 'vote_needed' || kind === 'reminder'
        return {
          user_id: c.id,
          payload: {
            title: t(`subject.${kind}`),
            body: texts.get(c.id)!,
            url: `/proposals/${proposal.id}`,
            tag: `proposal-${proposal.id}`,
            unread: unread.get(c.id) ?? 0,
            ...(owesVote && {
              actions: [
                { action: 'approve' as const, title: t('push.approve') },
                { action: 'reject' as const, title: t('push.reject') },
              ],
            }),
          },
        }
      }),
      at,
    )
    if (mailOn) {
      const base = linkBase(this.ctx.config)
      await insertOutbox(
        trx,
        recipients
          .filter((c): c is Candidate & { email: string } => c.email_preference === 'immediate' && c.email !== null)
          .map((c) => this.immediateMail(c, wanted.get(c.id)!, texts.get(c.id)!, proposal.id, base, at)),
      )
    }
  }

  private immediateMail(
    c: Candidate & { email: string },
    kind: NotificationKind,
    text: string,
    proposalId: number,
    base: string,
    at: string,
  ) {
    const mail = composeMail(c.language, c.fname, kind, [{ text, proposal_id: proposalId }], base)
    return outboxRow({ user_id: c.id, to_address: c.email, kind }, mail, at)
  }

  private async authorName(trx: Executor, userId: number): Promise<string | null> {
    const row = await trx.selectFrom('users').select(['fname', 'lname']).where('id', '=', userId).executeTakeFirst()
    return row ? `${row.fname} ${row.lname}` : null
  }
}
