import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Permission, Stage } from '@stake/contract'
import {
  approvalsRequired,
  canCompleteInterview,
  canDeleteComment,
  canEdit,
  canEditComment,
  canSee,
  canSeeVotes,
  canSubmitAs,
  canSubmitForWard,
  initialStage,
  interviewEffect,
  neighbourStage,
  rolesFromSeats,
  shouldAutoAdvance,
  voteCheck,
  type Roles,
  type Viewer,
} from './proposals.policy.ts'

const NO_ROLES: Roles = { presidency: false, highCouncilor: false, bishopWardIds: [] }
const viewer = (permissions: Permission[] = [], roles: Partial<Roles> = {}, id = 1): Viewer => ({
  id,
  permissions: new Set(permissions),
  roles: { ...NO_ROLES, ...roles },
})
const proposal = (
  over: Partial<{ submitter: number; ward_id: number; stage: Stage; declined_from: Stage | null }> = {},
) => ({
  submitter: 2,
  ward_id: 10,
  stage: 'sp_approval' as Stage,
  ...over,
})

describe('proposals policy: stages', () => {
  it('starts a call at sp_approval and a release at interview', () => {
    assert.equal(initialStage(false), 'sp_approval')
    assert.equal(initialStage(true), 'interview')
  })

  it('walks a call through every stage forward and back', () => {
    const path: Stage[] = ['sp_approval', 'hc_approval', 'interview', 'sustain', 'set_apart', 'record', 'done']
    for (let i = 0; i < path.length - 1; i++) {
      assert.equal(neighbourStage(path[i]!, false, 'advance'), path[i + 1])
      assert.equal(neighbourStage(path[i + 1]!, false, 'revert') ?? null, path[i + 1] === 'done' ? null : path[i])
    }
  })

  it('skips the votes and set_apart on a release', () => {
    assert.equal(neighbourStage('interview', true, 'advance'), 'sustain')
    assert.equal(neighbourStage('sustain', true, 'advance'), 'record')
    assert.equal(neighbourStage('record', true, 'revert'), 'sustain')
    assert.equal(neighbourStage('interview', true, 'revert'), null)
    assert.equal(neighbourStage('set_apart', true, 'advance'), null)
    assert.equal(neighbourStage('sp_approval', true, 'advance'), null)
  })

  it('treats done and declined as terminal and the first stage as having nothing before it', () => {
    for (const direction of ['advance', 'revert'] as const) {
      assert.equal(neighbourStage('done', false, direction), null)
      assert.equal(neighbourStage('declined', false, direction), null)
    }
    assert.equal(neighbourStage('sp_approval', false, 'revert'), null)
  })

  it('deletes the interview when moving off interview backwards, reopens it when coming back to it', () => {
    assert.equal(interviewEffect('interview', 'hc_approval', false), 'delete')
    assert.equal(interviewEffect('sustain', 'interview', false), 'reopen')
    assert.equal(interviewEffect('sustain', 'interview', true), 'reopen')
    assert.equal(interviewEffect('interview', 'sustain', false), 'none')
    assert.equal(interviewEffect('set_apart', 'sustain', false), 'none')
    assert.equal(interviewEffect('hc_approval', 'interview', false), 'none')
    assert.equal(interviewEffect('interview', 'declined', false), 'none')
  })
})

describe('proposals policy: roles and visibility', () => {
  it('derives roles from seats', () => {
    assert.deepEqual(rolesFromSeats([]), NO_ROLES)
    for (const key of ['stake_president', 'stake_first_counselor', 'stake_second_counselor']) {
      assert.equal(rolesFromSeats([{ key, ward_id: null }]).presidency, true, key)
    }
    assert.equal(rolesFromSeats([{ key: 'stake_clerk', ward_id: null }]).presidency, false)
    assert.equal(rolesFromSeats([{ key: 'high_councilor', ward_id: null }]).highCouncilor, true)
    assert.deepEqual(
      rolesFromSeats([
        { key: 'bishop', ward_id: 7 },
        { key: 'bishop', ward_id: null },
      ]).bishopWardIds,
      [7],
    )
  })

  it('lets proposals.manage see everything, proposals.view only from hc_approval on (S9)', () => {
    assert.equal(canSee(viewer(['proposals.manage']), proposal()), true)
    assert.equal(canSee(viewer(['proposals.view']), proposal()), false)
    assert.equal(canSee(viewer(['proposals.view']), proposal({ stage: 'hc_approval' })), true)
    assert.equal(
      canSee(viewer(['proposals.view']), proposal({ stage: 'declined', declined_from: 'sp_approval' })),
      false,
    )
    assert.equal(canSee(viewer(['proposals.view']), proposal({ stage: 'declined', declined_from: 'interview' })), true)
    assert.equal(canSee(viewer(['proposals.view'], { presidency: true }), proposal()), true)
  })

  it('lets others see their own submissions and, as bishop, their ward', () => {
    assert.equal(canSee(viewer(['proposals.submit']), proposal({ submitter: 1 })), true)
    assert.equal(canSee(viewer(['proposals.submit']), proposal()), false)
    assert.equal(canSee(viewer(['proposals.submit'], { bishopWardIds: [10] }), proposal()), true)
    assert.equal(canSee(viewer(['proposals.submit'], { bishopWardIds: [11] }), proposal()), false)
    // A presidency seat sees the presidency's stage, not the later ones without proposals.view.
    assert.equal(canSee(viewer([], { presidency: true }), proposal()), true)
    assert.equal(canSee(viewer([], { presidency: true }), proposal({ stage: 'interview' })), false)
  })

  it('lets only a manager submit as someone else', () => {
    assert.equal(canSubmitAs(viewer(['proposals.submit']), 1), true)
    assert.equal(canSubmitAs(viewer(['proposals.submit', 'proposals.view']), 2), false)
    assert.equal(canSubmitAs(viewer(['proposals.manage']), 2), true)
  })

  it('keeps a bishop to his own ward unless he has stake-wide access', () => {
    assert.equal(canSubmitForWard(viewer(['proposals.submit']), 10), true)
    assert.equal(canSubmitForWard(viewer(['proposals.submit'], { bishopWardIds: [10] }), 10), true)
    assert.equal(canSubmitForWard(viewer(['proposals.submit'], { bishopWardIds: [10] }), 11), false)
    assert.equal(canSubmitForWard(viewer(['proposals.submit', 'proposals.view'], { bishopWardIds: [10] }), 11), true)
    assert.equal(canSubmitForWard(viewer(['proposals.manage'], { bishopWardIds: [10] }), 11), true)
  })

  it('lets the submitter edit while open and a manager at any stage', () => {
    for (const stage of ['sp_approval', 'record'] as Stage[])
      assert.equal(canEdit(viewer([], {}, 2), proposal({ stage })), true)
    for (const stage of ['done', 'declined'] as Stage[]) {
      assert.equal(canEdit(viewer([], {}, 2), proposal({ stage })), false)
      assert.equal(canEdit(viewer(['proposals.manage']), proposal({ stage })), true)
    }
    assert.equal(canEdit(viewer(['proposals.view'], { bishopWardIds: [10] }), proposal()), false)
  })
})

describe('proposals policy: votes', () => {
  const sp = { ...NO_ROLES, presidency: true }
  const hc = { ...NO_ROLES, highCouncilor: true }

  it('lets the presidency vote at sp_approval and high councilors at hc_approval', () => {
    assert.equal(voteCheck(sp, 'sp_approval'), 'ok')
    assert.equal(voteCheck(hc, 'hc_approval'), 'ok')
    assert.equal(voteCheck({ ...sp, highCouncilor: true }, 'hc_approval'), 'ok')
  })

  it('refuses the other body (403) and non-voters (403) at voting stages', () => {
    assert.equal(voteCheck(hc, 'sp_approval'), 'wrong_role')
    assert.equal(voteCheck(sp, 'hc_approval'), 'wrong_role')
    assert.equal(voteCheck({ ...NO_ROLES, bishopWardIds: [1] }, 'sp_approval'), 'not_a_voter')
  })

  it('answers wrong_stage to voters elsewhere and not_a_voter to others', () => {
    for (const stage of ['interview', 'sustain', 'set_apart', 'record', 'done', 'declined'] as Stage[]) {
      assert.equal(voteCheck(sp, stage), 'wrong_stage')
      assert.equal(voteCheck(hc, stage), 'wrong_stage')
      assert.equal(voteCheck(NO_ROLES, stage), 'not_a_voter')
    }
  })

  it('advances on enough approvals with no rejection', () => {
    assert.equal(shouldAutoAdvance({ approved: 2, rejected: 0 }, 2), true)
    assert.equal(shouldAutoAdvance({ approved: 5, rejected: 0 }, 2), true)
    assert.equal(shouldAutoAdvance({ approved: 1, rejected: 0 }, 2), false)
    assert.equal(shouldAutoAdvance({ approved: 5, rejected: 1 }, 2), false)
  })

  it("takes the required approvals from the stake's settings per stage", () => {
    const stake = { sp_approvals_required: 2, hc_approvals_required: 3 }
    assert.equal(approvalsRequired('sp_approval', stake), 2)
    assert.equal(approvalsRequired('hc_approval', stake), 3)
    assert.equal(approvalsRequired('interview', stake), null)
  })

  it('shows individual votes to stake-wide viewers only', () => {
    assert.equal(canSeeVotes(viewer(['proposals.view'])), true)
    assert.equal(canSeeVotes(viewer(['proposals.manage'])), true)
    assert.equal(canSeeVotes(viewer(['proposals.submit'], { bishopWardIds: [10] })), false)
  })
})

describe('proposals policy: interviews and comments', () => {
  it('lets a manager or the assigned interviewer complete an interview', () => {
    assert.equal(canCompleteInterview(viewer(['proposals.manage']), 5), true)
    assert.equal(canCompleteInterview(viewer([], {}, 5), 5), true)
    assert.equal(canCompleteInterview(viewer(['proposals.view']), 5), false)
    assert.equal(canCompleteInterview(viewer([]), null), false)
  })

  it('lets only the author edit, and the author or a manager delete', () => {
    assert.equal(canEditComment(viewer([], {}, 3), { commenter_id: 3 }), true)
    assert.equal(canEditComment(viewer(['proposals.manage']), { commenter_id: 3 }), false)
    assert.equal(canDeleteComment(viewer([], {}, 3), { commenter_id: 3 }), true)
    assert.equal(canDeleteComment(viewer(['proposals.manage']), { commenter_id: 3 }), true)
    assert.equal(canDeleteComment(viewer(['proposals.view']), { commenter_id: 3 }), false)
  })
})
