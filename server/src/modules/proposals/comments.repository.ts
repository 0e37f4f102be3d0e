import type { Comment } from '@stake/contract'
import type { Executor } from '../../db/types.ts'

function commentsWithAuthors(db: Executor) {
  return db
    .selectFrom('proposal_comments as c')
    .innerJoin('users as u', 'u.id', 'c.commenter_id')
    .select([
      'c.id',
      'c.proposal_id',
      'c.commenter_id',
      'c.comment_text',
      'c.created_at',
      'c.edited_at',
      'u.fname',
      'u.lname',
    ])
}

type CommentRow = Awaited<ReturnType<ReturnType<typeof commentsWithAuthors>['executeTakeFirstOrThrow']>>

const toComment = (row: CommentRow): Comment => ({
  id: row.id,
  proposal_id: row.proposal_id,
  commenter_id: row.commenter_id,
  commenter: { id: row.commenter_id, fname: row.fname, lname: row.lname },
  comment_text: row.comment_text,
  created_at: row.created_at,
  edited_at: row.edited_at,
})

export async function findComment(db: Executor, proposalId: number, commentId: number): Promise<Comment | undefined> {
  const row = await commentsWithAuthors(db)
    .where('c.proposal_id', '=', proposalId)
    .where('c.id', '=', commentId)
    .executeTakeFirst()
  return row && toComment(row)
}

/** Oldest first (ids grow with time; created_at alone can tie). */
export async function listComments(db: Executor, proposalId: number): Promise<Comment[]> {
  const rows = await commentsWithAuthors(db)
    .where('c.proposal_id', '=', proposalId)
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute()
  return rows.map(toComment)
}

export async function insertComment(
  db: Executor,
  values: { proposal_id: number; commenter_id: number; comment_text: string },
  now: string,
) {
  const { id } = await db
    .insertInto('proposal_comments')
    .values({ ...values, created_at: now, edited_at: null })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

/** Only the author's own comment is edited: the author is part of the WHERE. */
export async function editComment(
  db: Executor,
  proposalId: number,
  commentId: number,
  authorId: number,
  text: string,
  now: string,
) {
  const result = await db
    .updateTable('proposal_comments')
    .set({ comment_text: text, edited_at: now })
    .where('id', '=', commentId)
    .where('proposal_id', '=', proposalId)
    .where('commenter_id', '=', authorId)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function deleteComment(db: Executor, proposalId: number, commentId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('proposal_comments')
    .where('id', '=', commentId)
    .where('proposal_id', '=', proposalId)
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}
