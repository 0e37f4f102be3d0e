import { Readable } from 'node:stream'
import type { Options } from 'csv-stringify/sync'
import {
  ARCHIVE_CSV_COLUMNS,
  type PresentedBody,
  type Proposal,
  type ProposalListQuery,
  type ScriptLanguage,
  type Sustainings,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { withTransaction } from '../../db/transaction.ts'
import { conflict, forbidden, invalid, notFound } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { findWard } from '../wards/wards.repository.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import { staleStage, wrongStage } from '../proposals/lifecycle.service.ts'
import { loadViewer, proposalNotFound, proposalView, visibleProposal } from '../proposals/proposals.access.ts'
import { kindOf, neighbourStage } from '../proposals/proposals.policy.ts'
import { findProposalViews, lockProposal } from '../proposals/proposals.repository.ts'
import { transition } from '../proposals/transition.ts'
import { checkArchiveDates } from './archive.input.ts'
import { archiveBatches } from './archive.repository.ts'
import { renderScript } from './script.ts'
import * as repo from './sustainings.repository.ts'
import {
  canPresent,
  canReadSustainings,
  completesSustaining,
  isCalendarDate,
  presentableIn,
  todayIn,
} from './sustainings.policy.ts'

const notInWard = () => invalid(['body', 'ward_id'], 'A ward-scope proposal is presented in its own ward only')
const alreadyPresented = () => conflict('already_presented', 'The proposal was already presented in this ward')

/** A cell a spreadsheet would run as a formula gets a leading ' (docs/api-reference.md §12). */
const csvSafe = (value: string): string => (/^[=+\-@]/.test(value) ? `'${value}` : value)

const CSV_OPTIONS: Options = {
  columns: [...ARCHIVE_CSV_COLUMNS],
  record_delimiter: 'windows',
  cast: { boolean: (value) => (value ? 'true' : 'false'), string: csvSafe },
}

/** Sustainings: each ward's list and script, presentations, and the archive CSV (docs/api-reference.md §12). */
export class SustainingsService {
  constructor(private readonly ctx: AppContext) {}

  /** GET /sustainings/{ward_id}: 404 for an unknown ward, 403 unless the ward's bishop, view or manage. */
  async list(actor: Actor, wardId: number): Promise<Sustainings> {
    const { db } = this.ctx
    const viewer = await loadViewer(this.ctx, actor)
    const ward = await findWard(db, wardId)
    if (!ward) throw notFound('Ward')
    if (!canReadSustainings(viewer, wardId)) throw forbidden("Only the ward's bishop or a stake leader sees its list")
    const proposals = await findProposalViews(db, viewer, await repo.sustainingIds(db, viewer, wardId))
    return { ward, items: proposals.map((proposal) => ({ proposal, releases: proposal.releases })) }
  }

  /** GET /sustainings/{ward_id}/script: the list as a page to read; the caller's language by default. */
  async script(actor: Actor, wardId: number, lang: ScriptLanguage | undefined): Promise<string> {
    const data = await this.list(actor, wardId)
    const language = lang ?? (actor.user.language === 'es' ? 'es' : 'en')
    const { timezone } = await currentStakeSettings(this.ctx.db)
    return renderScript(data, language, todayIn(this.ctx.clock.now(), timezone))
  }

  /**
   * POST /calling-kanban/proposals/{id}/presented. Presentations of one
   * proposal are serialised by its row lock (SQLite: one writer at a time),
   * so the count of wards left sees every earlier presentation: of two
   * concurrent presentations in the last two wards exactly one finds none
   * left and moves the proposal on, once (the move is also a conditional
   * UPDATE on `sustain`).
   */
  async present(actor: Actor, id: number, body: PresentedBody): Promise<Proposal> {
    const { db, dialect } = this.ctx
    const viewer = await loadViewer(this.ctx, actor)
    const seen = await visibleProposal(db, viewer, id)
    if (!canPresent(viewer, body.ward_id)) throw forbidden("Only the ward's bishop or a proposal manager may present")
    if (!(await findWard(db, body.ward_id))) throw invalid(['body', 'ward_id'], 'Ward not found')
    if (body.date !== undefined && !isCalendarDate(body.date))
      throw invalid(['body', 'date'], 'Not a calendar date (YYYY-MM-DD)')
    if (!presentableIn(seen, body.ward_id)) throw notInWard()
    const date = body.date ?? todayIn(this.ctx.clock.now(), (await currentStakeSettings(db)).timezone)
    const now = this.ctx.clock.iso()

    await withTransaction(db, async (trx) => {
      const current = await lockProposal(trx, id, dialect)
      if (!current) throw proposalNotFound()
      if (current.stage !== 'sustain') throw wrongStage(`The proposal is at ${current.stage}, not sustain`)
      if (!presentableIn(current, body.ward_id)) throw notInWard()
      const row = { proposal_id: id, ward_id: body.ward_id, at: date, by_user_id: actor.id, created_at: now }
      if (!(await repo.insertPresentation(trx, row))) throw alreadyPresented()
      const wardsLeft = current.scope === 'stake' ? await repo.wardsNotPresented(trx, id) : 0
      if (!completesSustaining(current.scope, wardsLeft)) return
      const kind = kindOf(current)
      const to = neighbourStage('sustain', kind, 'advance')!
      const moved = await transition(trx, this.ctx, {
        proposalId: id,
        proposalKind: kind,
        from: 'sustain',
        to,
        by: actor.id,
        at: now,
      })
      if (!moved) throw staleStage()
    })
    return proposalView(db, viewer, id)
  }

  /**
   * GET /calling-kanban/proposals.csv: every matching row the caller may
   * see (RFC 4180: CRLF, quotes where needed, a header row), streamed one
   * batch of rows at a time: memory stays bounded by the batch, and each
   * batch is one write (a write per row made 20,000 rows several times
   * slower; see docs/decisions.md).
   */
  async csv(actor: Actor, query: Omit<ProposalListQuery, 'limit' | 'offset'>): Promise<Readable> {
    checkArchiveDates(query)
    const viewer = await loadViewer(this.ctx, actor)
    const batches = archiveBatches(this.ctx.db, viewer, query)
    // Loaded on the first archive asked for, not at start (docs/performance.md).
    const { stringify } = await import('csv-stringify/sync')
    async function* lines() {
      yield stringify([], { ...CSV_OPTIONS, header: true })
      for await (const rows of batches) yield stringify(rows, CSV_OPTIONS)
    }
    return Readable.from(lines(), { objectMode: false })
  }
}
