// The benchmark's proposals as plain rows: closed ones spread over ten years,
// open ones submitted in the last months, each with the history, votes,
// interview and comments its path implies.
import type { Stage } from '@stake/contract'
import type { Insertable } from 'kysely'
import type { DB } from '../src/db/schema.ts'
import { searchKeyOf } from '../src/modules/proposals/proposals.repository.ts'
import {
  CALLINGS,
  FIRST_NAMES,
  LAST_NAMES,
  PRESIDENCY,
  WARDS,
  YEARS,
  bishopOf,
  firstBishop,
  firstCouncilor,
  HIGH_COUNCIL_SEATS,
  iso,
  random,
  type Random,
  type StakeSize,
} from './stake-data.ts'

const DAY = 86_400_000
const CALL_PATH: Stage[] = ['sp_approval', 'hc_approval', 'interview', 'sustain', 'set_apart', 'record', 'done']
const RELEASE_PATH: Stage[] = ['interview', 'sustain', 'record', 'done']
const PRESIDENTS = [PRESIDENCY.stake_president, PRESIDENCY.stake_first_counselor, PRESIDENCY.stake_second_counselor]
const MANAGERS = [1, PRESIDENCY.stake_executive_secretary, PRESIDENCY.stake_clerk]
const councilors = Array.from({ length: HIGH_COUNCIL_SEATS }, (_, i) => firstCouncilor + i)
const clerkOf = (wardId: number) => firstBishop + WARDS + wardId - 1

export function proposalRows(nowMs: number, size: StakeSize) {
  const rng = random(size.open * 100_003 + size.closed)
  const out = {
    proposals: [] as ReturnType<typeof proposal>[],
    history: [] as Insertable<DB['proposal_history']>[],
    votes: [] as Insertable<DB['proposal_votes']>[],
    interviews: [] as Insertable<DB['proposal_interviews']>[],
    comments: [] as Insertable<DB['proposal_comments']>[],
  }
  // Closed ones are submitted up to ~25 days ago and take about that long to
  // close, so the last 30 days hold their share (~165 on the big stake), as
  // a stake's board would.
  let span = YEARS * 365 * DAY - 25 * DAY
  let start = nowMs - YEARS * 365 * DAY
  if (size.closedWithinDays) {
    // Submitted then, closed (clamped to a minute ago) within the window.
    span = (size.closedWithinDays - 1) * DAY
    start = nowMs - span
  }
  for (let i = 0; i < size.closed + size.open; i++) {
    const id = i + 1
    const closed = i < size.closed
    const isRelease = rng.next() < 0.2
    const path = isRelease ? RELEASE_PATH : CALL_PATH
    let last: number
    if (closed) last = rng.next() < 0.15 && !isRelease ? rng.int(0, 1) : path.length - 1
    else last = rng.int(0, path.length - 2)
    const submitted = closed ? start + (i / size.closed) * span : nowMs - rng.int(5, 150) * DAY
    const step = closed ? () => rng.int(1, 7) * DAY : () => Math.floor((nowMs - submitted) / (path.length + 1))
    const wardId = rng.int(1, WARDS)
    const submitter = rng.next() < 0.8 ? bishopOf(wardId) : clerkOf(wardId)
    const declined = closed && last < path.length - 1

    // Walk the path: one history row per stage change, the votes that moved it on.
    let at = submitted
    out.history.push({
      proposal_id: id,
      from_stage: null,
      to_stage: path[0]!,
      by_user_id: submitter,
      at: iso(at),
      note: null,
    })
    for (let s = 0; s <= last; s++) {
      const stage = path[s]!
      const leaving = s < last || declined
      const left = leaving ? Math.min(at + step(), nowMs - 60_000) : null
      votesAt(out.votes, rng, id, stage, at, leaving, declined && s === last)
      if (stage === 'interview') interviewAt(out.interviews, rng, id, at, left)
      if (left === null) break
      at = left
      const to: Stage = declined && s === last ? 'declined' : path[s + 1]!
      out.history.push({
        proposal_id: id,
        from_stage: stage,
        to_stage: to,
        by_user_id: rng.pick(MANAGERS),
        at: iso(at),
        note: to === 'declined' ? 'Not the right time' : null,
      })
    }
    const stage = declined ? 'declined' : path[last]!
    for (let c = rng.int(0, 3); c > 0; c--) {
      out.comments.push({
        proposal_id: id,
        commenter_id: rng.pick([submitter, ...PRESIDENTS, rng.pick(councilors)]),
        comment_text: `${rng.pick(['Spoke with the family.', 'Good fit for this calling.', 'Please check the timing.', 'Bishop agrees.', 'Interview went well.'])} ${rng.pick(CALLINGS)}`,
        created_at: iso(submitted + rng.next() * (at - submitted)),
        edited_at: null,
      })
    }
    out.proposals.push(proposal(rng, id, wardId, submitter, isRelease, stage, iso(at), iso(submitted)))
  }
  return out
}

export type ProposalRows = ReturnType<typeof proposalRows>

function proposal(
  rng: Random,
  id: number,
  ward_id: number,
  submitter: number,
  is_release: boolean,
  stage: Stage,
  changed: string,
  submitted: string,
) {
  const fields = {
    fname: rng.pick(FIRST_NAMES),
    lname: rng.pick(LAST_NAMES),
    spouse_name: rng.next() < 0.4 ? null : rng.pick(FIRST_NAMES),
    proposed_calling: rng.pick(CALLINGS),
  }
  return {
    id,
    ...fields,
    ward_id,
    submitter,
    is_release,
    kind: is_release ? ('release' as const) : ('call' as const),
    stage,
    stage_changed_at: changed,
    submitted_at: submitted,
    updated_at: submitted,
    search_key: searchKeyOf(fields),
  }
}

/** Votes cast at a voting stage: enough approvals to move on, or a few (and a rejection when it was declined there). */
function votesAt(
  votes: ProposalRows['votes'],
  rng: Random,
  id: number,
  stage: Stage,
  entered: number,
  passed: boolean,
  rejected: boolean,
) {
  const voters = stage === 'sp_approval' ? PRESIDENTS : stage === 'hc_approval' ? councilors : []
  if (voters.length === 0) return
  const count = rejected
    ? rng.int(1, 2)
    : passed
      ? stage === 'sp_approval'
        ? rng.int(2, 3)
        : rng.int(3, 5)
      : rng.int(0, stage === 'sp_approval' ? 1 : 2)
  const chosen = [...voters].sort(() => rng.next() - 0.5).slice(0, count)
  chosen.forEach((approver_id, k) => {
    const at = iso(entered + (k + 1) * 3_600_000)
    votes.push({
      proposal_id: id,
      stage,
      approver_id,
      approved: !(rejected && k === 0),
      created_at: at,
      updated_at: at,
    })
  })
}

function interviewAt(
  interviews: ProposalRows['interviews'],
  rng: Random,
  id: number,
  entered: number,
  done: number | null,
) {
  if (done === null && rng.next() < 0.5) return
  const created = iso(entered + DAY)
  interviews.push({
    proposal_id: id,
    interviewer_id: rng.pick(PRESIDENTS),
    scheduled_for: iso(entered + 3 * DAY),
    interview_date: done === null ? null : iso(done),
    created_at: created,
    updated_at: created,
  })
}
