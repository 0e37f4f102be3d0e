import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useComments, useDeleteComment, useSaveComment } from '../../api/proposals'
import { useUsersLite, userName } from '../../api/users'
import type { Comment } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { ConfirmDialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, Field, formatDateTime, Loading, splitError } from '../../components/ui'

const MAX = 5000

function CommentEditor({
  initial,
  label,
  submitLabel,
  onSave,
  onCancel,
}: {
  initial: string
  label: string
  submitLabel: string
  onSave(text: string): Promise<unknown>
  onCancel?(): void
}) {
  const { t: tr } = useTranslation('proposal')
  const [text, setText] = useState(initial)
  const [error, setError] = useState<string | undefined>()
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  async function submit(e: FormEvent) {
    e.preventDefault()
    const t = text.trim()
    if (!t) return setError(tr('comments.empty'))
    if (t.length > MAX) return setError(tr('comments.tooLong', { max: MAX }))
    setError(undefined)
    setGeneral(null)
    setBusy(true)
    try {
      await onSave(t)
      if (!onCancel) setText('')
    } catch (err) {
      const s = splitError(err, ['comment_text'])
      setError(s.fields.comment_text)
      setGeneral(s.general)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} noValidate className="comment-editor">
      <Field label={label} error={error}>
        <textarea rows={3} value={text} maxLength={MAX + 100} onChange={(e) => setText(e.target.value)} />
      </Field>
      {general && <p className="error-box">{general}</p>}
      <div className="form-actions">
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            {tr('common:cancel')}
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? tr('common:saving') : submitLabel}
        </button>
      </div>
    </form>
  )
}

export function CommentsSection({ proposalId }: { proposalId: number }) {
  const { t } = useTranslation('proposal')
  const me = useMe()
  const notify = useNotify()
  const users = useUsersLite()
  const comments = useComments(proposalId)
  const save = useSaveComment(proposalId)
  const [editingId, setEditingId] = useState<number | null>(null)
  const [deleting, setDeleting] = useState<Comment | null>(null)

  const del = useDeleteComment(proposalId, {
    onSuccess: () => {
      setDeleting(null)
      notify(t('comments.deleted'), 'success')
    },
  })

  return (
    <section className="card" aria-labelledby="comments-h">
      <h2 id="comments-h">{t('comments.title')}</h2>
      {comments.isLoading && <Loading />}
      <ErrorMessage error={comments.error} />
      {comments.data && comments.data.length === 0 && <Empty>{t('comments.none')}</Empty>}
      <ul className="comments">
        {comments.data?.map((c) => {
          const mine = c.commenter_id === me.id
          return (
            <li key={c.id} className="comment">
              <div className="comment-head">
                <strong>
                  {mine
                    ? t('common:you')
                    : c.commenter
                      ? `${c.commenter.fname} ${c.commenter.lname}`
                      : userName(users.data, c.commenter_id)}
                </strong>
                <span className="muted small">
                  {formatDateTime(c.created_at)}
                  {c.edited_at && ` · ${t('comments.edited', { date: formatDateTime(c.edited_at) })}`}
                </span>
              </div>
              {editingId === c.id ? (
                <CommentEditor
                  initial={c.comment_text}
                  label={t('comments.edit')}
                  submitLabel={t('common:save')}
                  onCancel={() => setEditingId(null)}
                  onSave={async (text) => {
                    await save.mutateAsync({ commentId: c.id, commenterId: me.id, text })
                    setEditingId(null)
                  }}
                />
              ) : (
                <p className="comment-text">{c.comment_text}</p>
              )}
              {editingId !== c.id && (mine || can(me, 'proposals.manage')) && (
                <div className="comment-actions">
                  {mine && (
                    <button
                      type="button"
                      className="button button-small button-link"
                      onClick={() => setEditingId(c.id)}
                    >
                      {t('common:edit')}
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button-small button-link danger"
                    onClick={() => setDeleting(c)}
                  >
                    {t('common:delete')}
                  </button>
                </div>
              )}
            </li>
          )
        })}
      </ul>
      <CommentEditor
        initial=""
        label={t('comments.add')}
        submitLabel={t('comments.post')}
        onSave={async (text) => {
          await save.mutateAsync({ commenterId: me.id, text })
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={t('comments.deleteTitle')}
        message={t('comments.deleteText')}
        confirmLabel={t('common:delete')}
        danger
        busy={del.isPending}
        error={<ErrorMessage error={del.error} />}
        onConfirm={() => deleting && del.mutate(deleting)}
      />
    </section>
  )
}
