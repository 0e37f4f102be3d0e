import type { NotificationKind } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { Executor } from '../../db/types.ts'
import { canSee } from '../proposals/proposals.policy.ts'
import { findProposal, type ProposalRow } from '../proposals/proposals.repository.ts'
import type { Transition } from '../proposals/transition.ts'
import { composeMail, linkBase } from './mail.compose.ts'
import { insertNotifications } from './notifications.repository.ts'
import { insertOutbox } from './outbox.repository.ts'
import { loadCandidates, missingVoters, participants, type Candidate } from './recipients.ts'
import { notificationText } from './texts.ts'

type Wanted = Map<number, NotificationKind>

/** Adds `ids` as `kind` unless they already get something: one change, one notification each (contract §11). */
function want(wanted: Wanted, ids: Iterable<number>, kind: NotificationKind): void {
  for (const id of ids) if (!wanted.has(id)) wanted.set(id, kind)
}

/**
 * Writes the notifications an event causes, and their mail, inside the
 * event's own transaction (contract §11): they commit or roll back with it,
 * and nothing is sent from here (the mail worker delivers the outbox later,
 * so mail never slows or fails the request). Each method is one line at its
 * call site in the proposal services.
 *
 * Whoever is asked for, the same filter applies: never the actor himself,
 * never an inactive user, never someone who cannot see the proposal as it
 * is after the change (S9, by the tracker's own `canSee`).
 */
export class Notifier {
  constructor(private readonly ctx: Pick<AppContext, 'config' | 'dialect'>) {}

  /** A new proposal: `vote_needed` to the voters of its first stage. */
  async created(trx: Executor, proposalId: number, by: number, at: string): Promise<void> {
    const proposal = await findProposal(trx, proposalId)
    if (!proposal) return
    const wanted: Wanted = new Map()
    want(wanted, await missingVoters(trx, proposal.id, proposal.stage), 'vote_needed')
    await this.write(trx, proposal, wanted, by, at)
  }

  /**
   * A stage change (advance, revert, named step, decline, auto-advance by
   * votes, completed interview): `declined` alone to the submitter on a
   * decline; otherwise `vote_needed` to the voters of a voting stage whose
   * vote there is missing, and `stage_changed` to the submitter.
   */
  async moved(trx: Executor, move: Pick<Transition, 'proposalId' | 'to' | 'by' | 'at'>): Promise<void> {
    const proposal = await findProposal(trx, move.proposalId)
    if (!proposal) return
    const wanted: Wanted = new Map()
    if (move.to === 'declined') {
      want(wanted, [proposal.submitter], 'declined')
    } else {
      want(wanted, await missingVoters(trx, proposal.id, move.to), 'vote_needed')
      want(wanted, [proposal.submitter], 'stage_changed')
    }
    await this.write(trx, proposal, wanted, move.by, move.at)
  }

  /** An interviewer (re)assigned: `interview_assigned` to him. */
  async interviewAssigned(
    trx: Executor,
    proposalId: number,
    interviewerId: number,
    by: number,
    at: string,
  ): Promise<void> {
    const proposal = await findProposal(trx, proposalId)
    if (!proposal) return
    await this.write(trx, proposal, new Map([[interviewerId, 'interview_assigned']]), by, at)
  }

  /** A new comment: the submitter, everyone who commented and everyone who voted, never the author. */
  async commented(trx: Executor, proposalId: number, by: number, at: string): Promise<void> {
    const proposal = await findProposal(trx, proposalId)
    if (!proposal) return
    const wanted: Wanted = new Map()
    want(wanted, [proposal.submitter, ...(await participants(trx, proposalId))], 'comment')
    await this.write(trx, proposal, wanted, by, at)
  }

  /**
   * `reminder` to the voters of the current stage who have not voted, or to
   * those of them `only` admits (automatic reminders: not yet reminded for
   * this visit). Returns the users reminded.
   */
  async reminded(
    trx: Executor,
    proposal: ProposalRow,
    by: number | null,
    at: string,
    only?: (ids: number[]) => Promise<number[]>,
  ): Promise<number[]> {
    const wanted: Wanted = new Map()
    want(wanted, await missingVoters(trx, proposal.id, proposal.stage), 'reminder')
    return this.write(trx, proposal, wanted, by, at, only)
  }

  private async write(
    trx: Executor,
    proposal: ProposalRow,
    wanted: Wanted,
    by: number | null,
    at: string,
    only?: (ids: number[]) => Promise<number[]>,
  ): Promise<number[]> {
    wanted.delete(by ?? 0)
    if (wanted.size === 0) return []
    let recipients = (await loadCandidates(trx, this.ctx.dialect, [...wanted.keys()])).filter(
      (c) => c.active && canSee(c.viewer, proposal),
    )
    if (only) {
      const admitted = new Set(await only(recipients.map((c) => c.id)))
      recipients = recipients.filter((c) => admitted.has(c.id))
    }
    if (recipients.length === 0) return []
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
    if (mailOn) {
      const base = linkBase(this.ctx.config)
      await insertOutbox(
        trx,
        recipients
          .filter((c) => c.email_preference === 'immediate')
          .map((c) => this.outboxRow(c, wanted.get(c.id)!, texts.get(c.id)!, proposal.id, base, at)),
      )
    }
    return recipients.map((c) => c.id)
  }

  private outboxRow(c: Candidate, kind: NotificationKind, text: string, proposalId: number, base: string, at: string) {
    const mail = composeMail(c.language, c.fname, kind, [{ text, proposal_id: proposalId }], base)
    return {
      user_id: c.id,
      to_address: c.email,
      kind,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      next_attempt_at: at,
      claimed_until: null,
      last_error: null,
      created_at: at,
      sent_at: null,
    }
  }

  private async authorName(trx: Executor, userId: number): Promise<string | null> {
    const row = await trx.selectFrom('users').select(['fname', 'lname']).where('id', '=', userId).executeTakeFirst()
    return row ? `${row.fname} ${row.lname}` : null
  }
}
