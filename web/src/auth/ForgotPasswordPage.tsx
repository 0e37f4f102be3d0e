import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../api/client'
import { useRequestPasswordReset } from '../api/accounts'
import { Field, type FieldErrors } from '../components/ui'
import { ROUTES } from '../routes'
import { useDocumentTitle } from '../components/docTitle'

/**
 * "Forgot your password?" (docs/api-reference.md §16): the same answer whatever the address;
 * without mail on the deployment, the same page for every address sends the person to the administrator.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('accounts')
  const request = useRequestPasswordReset()
  const [email, setEmail] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  // null: not asked yet; otherwise whether the deployment mails (the same for every address).
  const [sent, setSent] = useState<{ mail: boolean } | null>(null)

  useDocumentTitle(t('forgot.title'))

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setGeneral(null)
    const value = email.trim()
    if (!value) return setErrors({ email: t('common:signIn.enterEmail') })
    if (!/^[^\s@]+@[^\s@]+$/.test(value)) return setErrors({ email: t('common:signIn.invalidEmail') })
    setErrors({})
    try {
      const answer = await request.mutateAsync(value)
      setSent({ mail: answer.mail })
    } catch (err) {
      setGeneral(err instanceof ApiError && err.status === 429 ? t('forgot.tooMany') : (err as Error).message)
    }
  }

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={onSubmit} noValidate aria-labelledby="forgot-title">
        <h1 id="forgot-title">{t('forgot.title')}</h1>
        {sent?.mail ? (
          <p className="info-box" role="status">
            {t('forgot.sent')}
          </p>
        ) : sent ? (
          // No mail on this deployment: the way back in is a link from the stake's administrator.
          <div className="info-box" role="status">
            <p>
              <strong>{t('forgot.noMailTitle')}</strong>
            </p>
            <p>{t('forgot.noMail')}</p>
          </div>
        ) : (
          <>
            <p className="muted">{t('forgot.intro')}</p>
            {general && (
              <p className="error-box" role="alert">
                {general}
              </p>
            )}
            <Field label={t('forgot.email')} error={errors.email}>
              <input
                type="email"
                name="email"
                autoComplete="username"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                autoFocus
              />
            </Field>
            <button type="submit" className="button button-primary button-block" disabled={request.isPending}>
              {request.isPending ? t('forgot.busy') : t('forgot.submit')}
            </button>
          </>
        )}
        <p className="muted small">
          <Link to={ROUTES.signIn}>{t('forgot.back')}</Link>
        </p>
      </form>
    </main>
  )
}
