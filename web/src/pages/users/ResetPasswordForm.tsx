import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useIssueResetLink } from '../../api/accounts'
import type { User } from '../../api/types'
import { useNotify } from '../../components/Notice'
import { Field } from '../../components/ui'
import { useFormState } from '../../components/useFormState'
import { Actions, GeneralError } from './formParts'

/**
 * An administrator's password reset (docs/api-reference.md §16): a reset link,
 * mailed to the person or, without mail, shown here to hand over (as an
 * invitation's). No password is ever read off this screen.
 */
export function ResetPasswordForm({ user, onDone, onClose }: { user: User; onDone(): void; onClose(): void }) {
  const { t } = useTranslation('users')
  const issue = useIssueResetLink()
  const notify = useNotify()
  const [answer, setAnswer] = useState<{ sent: boolean; url?: string } | null>(null)
  const f = useFormState()
  if (answer) {
    return (
      <div className="stack">
        {answer.sent || !answer.url ? (
          <p className="success-box" role="status">
            {t('reset.mailed', { email: user.email ?? '' })}
          </p>
        ) : (
          <>
            <p role="status">{t('reset.linkIntro', { name: `${user.fname} ${user.lname}` })}</p>
            <Field label={t('reset.linkLabel')}>
              <input readOnly className="mono" value={answer.url} onFocus={(e) => e.currentTarget.select()} />
            </Field>
          </>
        )}
        <div className="dialog-actions">
          {answer.url && (
            <button
              type="button"
              className="button"
              onClick={() =>
                void navigator.clipboard?.writeText(answer.url!).then(
                  () => notify(t('form.copied'), 'success'),
                  () => undefined,
                )
              }
            >
              {t('form.copy')}
            </button>
          )}
          <button type="button" className="button button-primary" onClick={onClose}>
            {t('form.done')}
          </button>
        </div>
      </div>
    )
  }
  return (
    <form
      noValidate
      className="stack"
      onSubmit={(e) => {
        e.preventDefault()
        void f.run([], async () => {
          setAnswer(await issue.mutateAsync(user.id))
          onDone()
        })
      }}
    >
      <GeneralError message={f.general} />
      <p>{t('reset.explain')}</p>
      <Actions busy={f.busy} label={t('reset.submit')} onClose={onClose} />
    </form>
  )
}
