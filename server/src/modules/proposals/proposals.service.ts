import {
  OPEN_STAGES,
  type Board,
  type BoardQuery,
  type Office,
  type Proposal,
  type ProposalKind,
  type ProposalBody,
  type ProposalListQuery,
  type Release,
  type Stage,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isForeignKeyViolation } from '../../db/database.ts'
import { conflict, forbidden, invalid } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { insertHistory } from './history.repository.ts'
import { loadViewer, proposalNotFound, proposalView, visibleProposal } from './proposals.access.ts'
import {
  canEdit,
  canManage,
  canSee,
  canSubmitAs,
  canSubmitForWard,
  initialStage,
  isOpen,
  kindOf,
  type Viewer,
  canSeePresidencyVotes,
} from './proposals.policy.ts'
import * as repo from './proposals.repository.ts'
import { withTransaction } from '../../db/transaction.ts'
import { audited, record } from '../../events/record.ts'
import { fieldChanges } from '../../events/facts.ts'
import { factsOf, proposalFacts, proposalTarget } from './proposals.audit.ts'
import { checkArchiveDates } from '../sustainings/archive.input.ts'
import { checkLinks } from '../sustainings/links.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'

const CLOSED_WINDOW_MS = 30 * 24 * 3600 * 1000

const wardMissing = () => invalid(['body', 'ward_id'], 'Ward not found')

const editRefused = (stage: Stage) =>
  forbidden(
    isOpen(stage) ? 'Only the submitter or a proposal manager may edit this proposal' : 'This proposal is closed',
  )

/**
 * Trimmed fields; an empty spouse name is no spouse name. The docs/api-reference.md §12 fields
 * omitted from the body keep `current` (a PUT) or take their defaults.
 */
function fieldsOf(body: ProposalBody, submitter: number, current?: repo.ProposalRow): repo.ProposalFields {
  const spouse = body.spouse_name?.trim()
  return {
    fname: body.fname.trim(),
    lname: body.lname.trim(),
    spouse_name: spouse ? spouse : null,
    proposed_calling: body.proposed_calling.trim(),
    ward_id: body.ward_id,
    submitter,
    scope: body.scope ?? current?.scope ?? 'ward',
    releases: body.releases ? JSON.stringify(body.releases.map(trimRelease)) : (current?.releases ?? '[]'),
    calling_id: body.calling_id !== undefined ? body.calling_id : (current?.calling_id ?? null),
    user_id: body.user_id !== undefined ? body.user_id : (current?.user_id ?? null),
  }
}

/**
 * The kind and office a create asks for (docs/api-reference.md §18): `kind`
 * and `is_release` must agree (either alone is enough), an ordination names
 * its office and the other kinds do not.
 */
function kindOfBody(body: ProposalBody): { kind: ProposalKind; office: Office | null } {
  const kind = body.kind ?? (body.is_release ? 'release' : 'call')
  if (body.is_release !== undefined && body.is_release !== (kind === 'release'))
    throw invalid(['body', 'is_release'], 'is_release must agree with kind')
  if (kind === 'ordination' && !body.office) throw invalid(['body', 'office'], 'An ordination names its office')
  if (kind !== 'ordination' && body.office) throw invalid(['body', 'office'], 'Only an ordination has an office')
  return { kind, office: kind === 'ordination' ? body.office! : null }
}

const trimRelease = (r: Release): Release => ({
  fname: r.fname.trim(),
  lname: r.lname.trim(),
  calling: r.calling.trim(),
  calling_id: r.calling_id ?? null,
  user_id: r.user_id ?? null,
})

/** Proposals themselves and the board (docs/api-reference.md §7). */
export class ProposalsService {
  constructor(private readonly ctx: AppContext) {}

  /** The ward must exist (422) and be the bishop's own (403); another submitter must exist (422). */
  private async checkReferences(
    viewer: Viewer,
    fields: repo.ProposalFields,
    changed: { ward: boolean; submitter: boolean },
  ) {
    const { db } = this.ctx
    if (changed.ward) {
      if (!(await repo.wardExists(db, fields.ward_id))) throw wardMissing()
      if (!canSubmitForWard(viewer, fields.ward_id)) throw forbidden('A bishop submits proposals only for his own ward')
    }
    if (changed.submitter && fields.submitter !== viewer.id && !(await repo.userExists(db, fields.submitter))) {
      throw invalid(['body', 'submitter'], 'User not found')
    }
    await checkLinks(db, fields)
  }

  async create(actor: Actor, body: ProposalBody): Promise<Proposal> {
    const viewer = await loadViewer(this.ctx, actor)
    const submitter = body.submitter ?? actor.id
    if (!canSubmitAs(viewer, submitter)) throw forbidden('Only a proposal manager may submit on behalf of someone else')
    const fields = fieldsOf(body, submitter)
    await this.checkReferences(viewer, fields, { ward: true, submitter: true })
    fields.releases = await repo.withSeatDates(this.ctx.db, fields.releases)

    const { kind, office } = kindOfBody(body)
    const isRelease = kind === 'release'
    const stage = initialStage(kind)
    const now = this.ctx.clock.iso()
    try {
      const id = await withTransaction(this.ctx.db, async (trx) => {
        const { id } = await repo.insertProposal(trx, { ...fields, is_release: isRelease, kind, office, stage }, now)
        await insertHistory(trx, { proposal_id: id, from_stage: null, to_stage: stage, by_user_id: actor.id, at: now })
        const facts = { ...factsOf(fields), is_release: isRelease, kind, ...(office ? { office } : {}), stage }
        await record(trx, this.ctx, { kind: 'proposal.create', proposalId: id, detail: facts, by: actor.id, at: now })
        return id
      })
      return await proposalView(this.ctx.db, viewer, id)
    } catch (error) {
      // The ward (or a linked calling or user) was deleted between the check and the insert.
      if (isForeignKeyViolation(error)) throw wardMissing()
      throw error
    }
  }

  async get(actor: Actor, id: number): Promise<Proposal> {
    return proposalView(this.ctx.db, await loadViewer(this.ctx, actor), id)
  }

  async list(actor: Actor, query: ProposalListQuery): Promise<{ rows: Proposal[]; total: number }> {
    checkArchiveDates(query)
    const viewer = await loadViewer(this.ctx, actor)
    const { limit = 50, offset = 0, ...filter } = query
    return repo.listProposalViews(this.ctx.db, viewer, filter, limit, offset)
  }

  async update(actor: Actor, id: number, body: ProposalBody): Promise<Proposal> {
    const viewer = await loadViewer(this.ctx, actor)
    const current = await visibleProposal(this.ctx.db, viewer, id)
    if (!canEdit(viewer, current)) throw editRefused(current.stage)
    const submitter = body.submitter ?? current.submitter
    if (submitter !== current.submitter && !canManage(viewer))
      throw forbidden('Only a proposal manager may change the submitter')
    if (body.is_release !== undefined && body.is_release !== Boolean(current.is_release)) {
      // The stage path depends on it; a release and a call are different proposals.
      throw invalid(['body', 'is_release'], 'is_release cannot be changed after submission')
    }
    if (body.kind !== undefined && body.kind !== kindOf(current))
      throw invalid(['body', 'kind'], 'kind cannot be changed after submission')
    if (body.office !== undefined && (body.office ?? null) !== (current.office ?? null))
      throw invalid(['body', 'office'], 'office cannot be changed after submission')
    const fields = fieldsOf(body, submitter, current)
    await this.checkReferences(viewer, fields, {
      ward: fields.ward_id !== current.ward_id,
      submitter: submitter !== current.submitter,
    })
    if (body.releases) fields.releases = await repo.withSeatDates(this.ctx.db, fields.releases)
    try {
      const now = this.ctx.clock.iso()
      const written = await withTransaction(this.ctx.db, async (trx) => {
        if (!(await repo.updateProposalFields(trx, id, fields, now, canManage(viewer) ? null : actor.id))) return false
        const keys = ['fname', 'lname', 'spouse_name', 'proposed_calling', 'ward_id', 'submitter'] as const
        const changes = fieldChanges(current, fields, keys)
        if (changes)
          await record(
            trx,
            this.ctx,
            audited({ by: actor.id, at: now }, 'proposal.update', proposalTarget(id), { ...factsOf(fields), changes }),
          )
        return true
      })
      if (!written) {
        // Declined, reassigned or deleted since it was read: answer for the proposal as it is now.
        const now = await repo.findProposal(this.ctx.db, id)
        if (!now || !canSee(viewer, now)) throw proposalNotFound()
        throw editRefused(now.stage)
      }
    } catch (error) {
      if (isForeignKeyViolation(error)) throw wardMissing()
      throw error
    }
    return proposalView(this.ctx.db, viewer, id)
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const viewer = await loadViewer(this.ctx, actor)
    await visibleProposal(this.ctx.db, viewer, id)
    const deleted = await withTransaction(this.ctx.db, async (trx) => {
      const facts = await proposalFacts(trx, id)
      if (!facts || !(await repo.deleteProposalUnlessDone(trx, id))) return false
      await record(
        trx,
        this.ctx,
        audited({ by: actor.id, at: this.ctx.clock.iso() }, 'proposal.delete', proposalTarget(id), facts),
      )
      return true
    })
    if (deleted) return
    const row = await repo.findProposal(this.ctx.db, id)
    if (!row) throw proposalNotFound()
    // Only a done proposal escapes the conditional DELETE: it is part of the record.
    throw conflict('wrong_stage', 'A done proposal cannot be deleted')
  }

  /**
   * GET /board in five queries whatever the number of proposals: the caller's
   * seats (loadViewer), then the cards (repo.boardProposalViews), the votes at
   * the cards' current voting stage, the holders of the voting seats and the
   * stake's settings (the approvals each voting stage needs).
   */
  async board(actor: Actor, query: BoardQuery = {}): Promise<Board> {
    const viewer = await loadViewer(this.ctx, actor)
    const since = new Date(this.ctx.clock.now().getTime() - CLOSED_WINDOW_MS).toISOString()
    const [rows, votes, holders, stake] = await Promise.all([
      repo.boardProposalViews(this.ctx.db, viewer, since, query.kind),
      repo.boardVotes(this.ctx.db, viewer, query.kind),
      repo.votingSeatHolders(this.ctx.db),
      currentStakeSettings(this.ctx.db),
    ])
    const voters = (stage: 'sp_approval' | 'hc_approval') => {
      const seen = new Set<number>()
      return holders
        .filter((h) => (stage === 'hc_approval' ? h.key === 'high_councilor' : h.key !== 'high_councilor'))
        .filter((h) => !seen.has(h.id) && seen.add(h.id))
        .map((h) => ({ id: h.id, fname: h.fname, lname: h.lname }))
    }
    const voting = {
      sp_approval: { required: stake.sp_approvals_required, voters: voters('sp_approval') },
      hc_approval: { required: stake.hc_approvals_required, voters: voters('hc_approval') },
    }
    const stages = Object.fromEntries(OPEN_STAGES.map((s) => [s, [] as Proposal[]])) as Board['stages']
    const closed: Proposal[] = []
    for (const proposal of rows) {
      if (isOpen(proposal.stage)) stages[proposal.stage].push(proposal)
      else closed.push(proposal)
    }
    // S9: who voted at sp_approval is the presidency's (and managers') to see; the cards' tallies are everyone's.
    const presidencyStage = new Set(stages.sp_approval.map((p) => p.id))
    const shown = canSeePresidencyVotes(viewer) ? votes : votes.filter((v) => !presidencyStage.has(v.proposal_id))
    return { stages, closed_recently: closed.reverse(), voting, votes: shown }
  }
}
