import type { NotificationKind } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import type { DomainEvent, EventDeps } from '../../events/types.ts'

/** What asks its reader to act: a vote (and its reminders), an interview, the step a stage asked for. */
const ASKING_ON_MOVE: NotificationKind[] = ['vote_needed', 'reminder', 'stage_changed']
const ASKING_FOR_VOTE: NotificationKind[] = ['vote_needed', 'reminder']

/**
 * Marks done (read, and out of any pending digest) the unread notifications
 * of one proposal that ask for work nobody owes any more
 * (docs/api-reference.md §11: "work that is done stops asking"), so the
 * inbox's and the app badge's unread count drops with the change itself.
 */
async function settle(
  trx: Executor,
  proposalId: number,
  kinds: NotificationKind[],
  at: string,
  only?: { user?: number; notUser?: number },
): Promise<void> {
  let query = trx
    .updateTable('notifications')
    .set({ read_at: at, mail: null })
    .where('proposal_id', '=', proposalId)
    .where('kind', 'in', kinds)
    .where('read_at', 'is', null)
  if (only?.user !== undefined) query = query.where('user_id', '=', only.user)
  if (only?.notUser !== undefined) query = query.where('user_id', '<>', only.notUser)
  await query.execute()
}

/**
 * The subscriber that settles owed work; it runs before the notification
 * subscriber, so what a move asks of its new stage stays unread:
 * - a move: the votes and reminders of the stage left, the earlier stage
 *   notices (a presentation or a step asked for), and, leaving the interview
 *   stage or declining, the interview;
 * - a vote: the voter's own vote request;
 * - an interview given to someone else: the previous interviewer's notice.
 * A deleted proposal's notifications go with it (ON DELETE CASCADE).
 */
export async function settleOwedWork(trx: Executor, _deps: EventDeps, event: DomainEvent): Promise<void> {
  if (event.kind === 'proposal.move') {
    const leavesInterview = event.from === 'interview' || event.to === 'declined'
    await settle(
      trx,
      event.proposalId,
      leavesInterview ? [...ASKING_ON_MOVE, 'interview_assigned'] : ASKING_ON_MOVE,
      event.at,
    )
  } else if (event.kind === 'proposal.vote' && event.target?.type === 'proposal' && event.by !== null) {
    await settle(trx, event.target.id, ASKING_FOR_VOTE, event.at, { user: event.by })
  } else if (event.kind === 'interview.assign') {
    await settle(trx, event.proposalId, ['interview_assigned'], event.at, { notUser: event.interviewerId })
  }
}
