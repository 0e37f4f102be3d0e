import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../api/client'
import { useAcceptInvitation, useInvitation } from '../api/accounts'
import { Loading, splitError } from '../components/ui'
import { ROUTES } from '../routes'
import { useAuth } from './AuthProvider'
import { useLinkToken } from './linkToken'
import { NewPasswordFields, useNewPassword } from './NewPassword'
import { useDocumentTitle } from '../components/docTitle'

/**
 * The invitation's Welcome page (docs/api-reference.md §16): `/welcome#<token>`
 * names the account; choosing the password signs the user in.
 */
export default function WelcomePage() {
  const { t } = useTranslation('accounts')
  const token = useLinkToken()
  const navigate = useNavigate()
  const invitation = useInvitation(token)
  const accept = useAcceptInvitation(useAuth().beginSession)
  const form = useNewPassword()
  // Which link turned out spent (a later link in the same tab starts afresh).
  const [goneFor, setGoneFor] = useState<string | null>(null)
  const gone = goneFor === token

  useDocumentTitle(t('welcome.title'))

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (!form.check()) return
    try {
      await accept.mutateAsync({ token, password: form.password })
      navigate(ROUTES.board, { replace: true })
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setGoneFor(token)
      else {
        const s = splitError(err, ['password'])
        form.setErrors(s.fields)
        form.setGeneral(s.general)
      }
    }
  }

  if (!token || gone || (invitation.error instanceof ApiError && invitation.error.status === 404)) {
    return (
      <main className="auth-page">
        <div className="card auth-card">
          <h1>{t('welcome.invalidTitle')}</h1>
          <p className="info-box" role="alert">
            {t('welcome.invalid')}
          </p>
          <p>
            <Link to={ROUTES.signIn}>{t('welcome.signIn')}</Link>
          </p>
        </div>
      </main>
    )
  }
  if (!invitation.data) {
    return (
      <main className="auth-page">
        <div className="card auth-card">
          {invitation.error ? (
            <p className="error-box" role="alert">
              {(invitation.error as Error).message}
            </p>
          ) : (
            <Loading label={t('welcome.checking')} />
          )}
        </div>
      </main>
    )
  }

  const who = invitation.data
  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={onSubmit} noValidate aria-labelledby="welcome-title">
        <h1 id="welcome-title">{t('welcome.title')}</h1>
        <p>{t('welcome.intro', { name: who.fname, email: who.email })}</p>
        {/* For the browser's password manager: the account the new password belongs to. */}
        <input type="email" name="username" autoComplete="username" value={who.email} readOnly hidden />
        <NewPasswordFields
          form={form}
          name="password"
          label={{ password: t('welcome.password'), repeat: t('welcome.repeat') }}
        />
        <button type="submit" className="button button-primary button-block" disabled={accept.isPending}>
          {accept.isPending ? t('welcome.busy') : t('welcome.submit')}
        </button>
      </form>
    </main>
  )
}
