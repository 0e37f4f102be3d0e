import { useEffect, useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../api/client'
import { useAcceptInvitation, useInvitation } from '../api/accounts'
import { Field, Loading, splitError, type FieldErrors } from '../components/ui'
import { ROUTES } from '../routes'
import { useAuth } from './AuthProvider'
import { checkPasswords, useLinkToken } from './linkToken'

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
  const [password, setPassword] = useState('')
  const [repeat, setRepeat] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  // Which link turned out spent (a later link in the same tab starts afresh).
  const [goneFor, setGoneFor] = useState<string | null>(null)
  const gone = goneFor === token

  useEffect(() => {
    document.title = `${t('welcome.title')} · ${t('common:appName')}`
  }, [t])

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    const problems = checkPasswords(password, repeat)
    setErrors(
      Object.fromEntries(Object.entries(problems).map(([field, key]) => [field, t(`password.${key}`)])) as FieldErrors,
    )
    setGeneral(null)
    if (Object.keys(problems).length > 0) return
    try {
      await accept.mutateAsync({ token, password })
      navigate(ROUTES.board, { replace: true })
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setGoneFor(token)
      else {
        const s = splitError(err, ['password'])
        setErrors(s.fields)
        setGeneral(s.general)
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
        {general && (
          <p className="error-box" role="alert">
            {general}
          </p>
        )}
        {/* For the browser's password manager: the account the new password belongs to. */}
        <input type="email" name="username" autoComplete="username" value={who.email} readOnly hidden />
        <Field label={t('welcome.password')} hint={t('welcome.hint')} error={errors.password}>
          <input
            type="password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoFocus
          />
        </Field>
        <Field label={t('welcome.repeat')} error={errors.repeat}>
          <input
            type="password"
            name="repeat"
            autoComplete="new-password"
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
        </Field>
        <button type="submit" className="button button-primary button-block" disabled={accept.isPending}>
          {accept.isPending ? t('welcome.busy') : t('welcome.submit')}
        </button>
      </form>
    </main>
  )
}
