import type { Comment, CommentBody } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isForeignKeyViolation } from '../../db/database.ts'
import { forbidden, invalid, notFound } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import * as repo from './comments.repository.ts'
import { loadViewer, proposalNotFound, visibleProposal } from './proposals.access.ts'
import { canDeleteComment, canEditComment, type Viewer } from './proposals.policy.ts'
import { retrying, withTransaction } from '../../db/transaction.ts'
import { record } from '../../events/record.ts'

const commentNotFound = () => notFound('Comment')

/** Comments on a proposal (docs/api-reference.md §7): anyone who sees the proposal may comment. */
export class CommentsService {
  constructor(private readonly ctx: AppContext) {}

  /** The body's ids may only repeat what the path and the caller already say. */
  private checkBody(viewer: Viewer, proposalId: number, body: CommentBody): void {
    if (body.proposal_id !== undefined && body.proposal_id !== proposalId) {
      throw invalid(['body', 'proposal_id'], 'proposal_id must equal the proposal in the path')
    }
    if (body.commenter_id !== undefined && body.commenter_id !== viewer.id) {
      throw forbidden('You may only write comments as yourself')
    }
  }

  private async visibleComment(viewer: Viewer, proposalId: number, commentId: number): Promise<Comment> {
    await visibleProposal(this.ctx.db, viewer, proposalId)
    const comment = await repo.findComment(this.ctx.db, proposalId, commentId)
    if (!comment) throw commentNotFound()
    return comment
  }

  async create(actor: Actor, proposalId: number, body: CommentBody): Promise<Comment> {
    const viewer = await loadViewer(this.ctx, actor)
    await visibleProposal(this.ctx.db, viewer, proposalId)
    this.checkBody(viewer, proposalId, body)
    try {
      const now = this.ctx.clock.iso()
      const comment = { proposal_id: proposalId, commenter_id: actor.id, comment_text: body.comment_text.trim() }
      const id = await withTransaction(this.ctx.db, async (trx) => {
        const inserted = await repo.insertComment(trx, comment, now)
        await record(trx, this.ctx, { kind: 'comment.create', proposalId, by: actor.id, at: now })
        return inserted
      })
      return (await repo.findComment(this.ctx.db, proposalId, id))!
    } catch (error) {
      // The proposal was deleted meanwhile.
      if (isForeignKeyViolation(error)) throw proposalNotFound()
      throw error
    }
  }

  async list(actor: Actor, proposalId: number): Promise<Comment[]> {
    const viewer = await loadViewer(this.ctx, actor)
    await visibleProposal(this.ctx.db, viewer, proposalId)
    return repo.listComments(this.ctx.db, proposalId)
  }

  async edit(actor: Actor, proposalId: number, commentId: number, body: CommentBody): Promise<Comment> {
    const viewer = await loadViewer(this.ctx, actor)
    const comment = await this.visibleComment(viewer, proposalId, commentId)
    this.checkBody(viewer, proposalId, body)
    if (!canEditComment(viewer, comment)) throw forbidden('Only the author may edit a comment')
    const now = this.ctx.clock.iso()
    if (
      !(await retrying(() =>
        repo.editComment(this.ctx.db, proposalId, commentId, actor.id, body.comment_text.trim(), now),
      ))
    ) {
      throw commentNotFound()
    }
    const edited = await repo.findComment(this.ctx.db, proposalId, commentId)
    if (!edited) throw commentNotFound()
    return edited
  }

  async remove(actor: Actor, proposalId: number, commentId: number): Promise<void> {
    const viewer = await loadViewer(this.ctx, actor)
    const comment = await this.visibleComment(viewer, proposalId, commentId)
    if (!canDeleteComment(viewer, comment))
      throw forbidden('Only the author or a proposal manager may delete a comment')
    if (!(await retrying(() => repo.deleteComment(this.ctx.db, proposalId, commentId)))) throw commentNotFound()
  }
}
