import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../api/client'
import { useConfirmPasswordReset } from '../api/accounts'
import { splitError } from '../components/ui'
import { ROUTES } from '../routes'
import { useLinkToken } from './linkToken'
import { NewPasswordFields, useNewPassword } from './NewPassword'
import { useDocumentTitle } from '../components/docTitle'

/** The reset link's page (docs/api-reference.md §16): `/reset-password#<token>`. */
export default function ResetPasswordPage() {
  const { t } = useTranslation('accounts')
  const token = useLinkToken()
  const confirm = useConfirmPasswordReset()
  const form = useNewPassword()
  // The outcome of this link (a later link in the same tab starts afresh).
  const [outcome, setOutcome] = useState<{ token: string; state: 'done' | 'invalid' } | null>(null)
  const state = !token ? 'invalid' : outcome?.token === token ? outcome.state : 'form'
  const setState = (next: 'done' | 'invalid') => setOutcome({ token, state: next })

  useDocumentTitle(t('reset.title'))

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (!form.check()) return
    try {
      await confirm.mutateAsync({ token, password: form.password })
      setState('done')
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_token') setState('invalid')
      else {
        const s = splitError(err, ['new_password'])
        form.setErrors(s.fields.new_password ? { password: s.fields.new_password } : {})
        form.setGeneral(s.general)
      }
    }
  }

  if (state !== 'form') {
    return (
      <main className="auth-page">
        <div className="card auth-card">
          <h1>{state === 'done' ? t('reset.title') : t('reset.invalidTitle')}</h1>
          <p className={state === 'done' ? 'info-box' : 'error-box'} role={state === 'done' ? 'status' : 'alert'}>
            {state === 'done' ? t('reset.done') : t('reset.invalid')}
          </p>
          <p>
            <Link to={ROUTES.signIn}>{t('reset.signIn')}</Link>
          </p>
          {state === 'invalid' && (
            <p>
              <Link to={ROUTES.forgotPassword}>{t('reset.askAgain')}</Link>
            </p>
          )}
        </div>
      </main>
    )
  }

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={onSubmit} noValidate aria-labelledby="reset-title">
        <h1 id="reset-title">{t('reset.title')}</h1>
        <p className="muted">{t('reset.intro')}</p>
        <NewPasswordFields
          form={form}
          name="new_password"
          label={{ password: t('reset.new'), repeat: t('reset.repeat') }}
        />
        <button type="submit" className="button button-primary button-block" disabled={confirm.isPending}>
          {confirm.isPending ? t('reset.busy') : t('reset.submit')}
        </button>
      </form>
    </main>
  )
}
