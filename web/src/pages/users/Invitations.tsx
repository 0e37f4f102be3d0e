import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useInviteUser, usePendingInvitations, type PendingInvitation } from '../../api/accounts'
import type { User } from '../../api/types'
import { Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { CopyButton } from '../../components/CopyButton'
import { Field } from '../../components/ui'

/**
 * The users page's invitations (docs/api-reference.md §16): who has not
 * accepted yet, and sending (or sending again) an invitation — by mail, or
 * as a link to pass on when the server has no mail.
 */
export function useInvitations() {
  const { t } = useTranslation('accounts')
  const notify = useNotify()
  const pending = usePendingInvitations()
  const [link, setLink] = useState<{ name: string; url: string } | null>(null)
  const byUser = new Map<number, PendingInvitation>((pending.data ?? []).map((p) => [p.user_id, p]))

  const invite = useInviteUser()
  const send = (u: User) =>
    invite.mutate(u.id, {
      onSuccess: (answer) => {
        if (answer.sent) notify(t('invite.sent', { email: u.email ?? '' }), 'success')
        else if (answer.url) setLink({ name: `${u.fname} ${u.lname}`, url: answer.url })
      },
      onError: (err) => {
        const code = err instanceof ApiError ? err.code : null
        notify(
          code === 'no_email' ? t('invite.noEmail') : code === 'inactive' ? t('invite.inactive') : err.message,
          'error',
        )
      },
    })

  const badge = (u: User) => {
    const p = byUser.get(u.id)
    if (!p) return null
    return (
      <span className={p.expired ? 'badge badge-expired' : 'badge badge-warn'}>
        {p.expired ? t('invite.expired') : t('invite.notAccepted')}
      </span>
    )
  }

  const label = (u: User) => (byUser.has(u.id) ? t('invite.resend') : t('invite.send'))

  const dialog = (
    <Dialog open={link !== null} onOpenChange={(o) => !o && setLink(null)} title={t('invite.linkTitle')}>
      {link && (
        <div className="stack">
          <p>{t('invite.linkIntro', { name: link.name })}</p>
          <Field label={t('invite.linkLabel')}>
            <input readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <div className="dialog-actions">
            <CopyButton text={link.url} label={t('invite.copy')} copied={t('invite.copied')} />
            <button type="button" className="button button-primary" onClick={() => setLink(null)}>
              {t('invite.close')}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  )

  return { badge, label, send, dialog }
}
