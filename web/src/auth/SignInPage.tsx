import { useEffect, useState, type FormEvent } from 'react'
import { Link, Navigate, useSearchParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { ApiError } from '../api/client'
import { autofillSupported, cancelPasskeyPrompt, passkeySignIn, passkeysSupported } from '../api/accounts'
import { safeNextPath } from '../api/next'
import { Field, type FieldErrors } from '../components/ui'
import { ROUTES } from '../routes'
import { useAuth } from './AuthProvider'
import { SharedComputerOption, SharedSignOutNotice } from './SharedComputer'

function describeWait(t: TFunction, seconds: number): string {
  if (seconds < 60) return t('signIn.seconds', { count: seconds })
  return t('signIn.minutes', { count: Math.ceil(seconds / 60) })
}

/** Only same-app paths are honoured as a post-sign-in destination. */
const safeNext = (next: string | null): string => safeNextPath(next, ROUTES.board, [ROUTES.signIn])

export function SignInPage() {
  const { t } = useTranslation()
  const { status, me, login, beginSession, sessionExpired, idleSignOut, bootError } = useAuth()
  const [params] = useSearchParams()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [shared, setShared] = useState(false)
  const [errors, setErrors] = useState<FieldErrors>({})
  // The lock message is kept as its wait, so it follows a change of language.
  const [formError, setFormError] = useState<string | { lockedFor: number } | null>(null)
  const [lockedUntil, setLockedUntil] = useState<number | null>(null)
  const [now, setNow] = useState(() => Date.now())
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    document.title = `${t('signIn.title')} · ${t('appName')}`
  }, [t])

  // Conditional UI: where the browser offers it, the passkeys of this site appear among the email
  // field's suggestions; picking one signs in (docs/api-reference.md §16).
  useEffect(() => {
    let live = true
    void autofillSupported().then((yes) => {
      if (!yes || !live) return
      passkeySignIn(beginSession, { autofill: true }).catch(() => {
        // Cancelled (the button below asks instead) or refused: the form stays.
      })
    })
    return () => {
      live = false
      cancelPasskeyPrompt()
    }
  }, [beginSession])

  useEffect(() => {
    if (lockedUntil === null) return
    const t = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(t)
  }, [lockedUntil])

  if (status === 'authenticated' && me) {
    return <Navigate to={me.force_password_reset ? ROUTES.changePassword : safeNext(params.get('next'))} replace />
  }

  const secondsLeft = lockedUntil !== null ? Math.max(0, Math.ceil((lockedUntil - now) / 1000)) : 0
  const locked = secondsLeft > 0

  async function withPasskey() {
    setFormError(null)
    setBusy(true)
    try {
      await passkeySignIn(beginSession, { shared })
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) {
        const wait = err.retryAfter ?? 60
        setLockedUntil(Date.now() + wait * 1000)
        setNow(Date.now())
        setFormError({ lockedFor: wait })
      } else if (err instanceof ApiError) setFormError(t('signIn.passkeyFailed'))
      else if ((err as Error).name !== 'NotAllowedError' && (err as Error).name !== 'AbortError') {
        setFormError(t('signIn.passkeyFailed'))
      }
    } finally {
      setBusy(false)
    }
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    const errs: FieldErrors = {}
    if (!email.trim()) errs.username = t('signIn.enterEmail')
    else if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) errs.username = t('signIn.invalidEmail')
    if (!password) errs.password = t('signIn.enterPassword')
    setErrors(errs)
    setFormError(null)
    if (Object.keys(errs).length > 0) return
    setBusy(true)
    try {
      await login(email.trim(), password, { shared })
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) {
        const wait = err.retryAfter ?? 60
        setLockedUntil(Date.now() + wait * 1000)
        setNow(Date.now())
        setFormError({ lockedFor: wait })
      } else if (err instanceof ApiError && err.status === 401) {
        setFormError(t('signIn.wrong'))
      } else if (err instanceof ApiError && err.status === 422) {
        setErrors(err.fieldMap())
      } else {
        setFormError((err as Error).message)
      }
      setPassword('')
    } finally {
      setBusy(false)
    }
  }

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={onSubmit} noValidate aria-labelledby="signin-title">
        <h1 id="signin-title">{t('signIn.title')}</h1>
        <p className="muted">{t('appName')}</p>
        {sessionExpired && !formError && (
          <p className="info-box" role="status">
            {t('signIn.sessionEnded')}
          </p>
        )}
        {idleSignOut && !formError && <SharedSignOutNotice />}
        {bootError && !formError && (
          <p className="error-box" role="alert">
            {bootError}
          </p>
        )}
        {formError && (
          <p className="error-box" role="alert">
            {typeof formError === 'string'
              ? formError
              : t('signIn.locked', { wait: describeWait(t, formError.lockedFor) })}
            {locked && <> {t('signIn.left', { wait: describeWait(t, secondsLeft) })}</>}
          </p>
        )}
        <Field label={t('signIn.email')} error={errors.username}>
          <input
            type="email"
            name="username"
            autoComplete="username webauthn"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoFocus
          />
        </Field>
        <Field label={t('signIn.password')} error={errors.password}>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <SharedComputerOption checked={shared} onChange={setShared} />
        <button type="submit" className="button button-primary button-block" disabled={busy || locked}>
          {busy ? t('signIn.busy') : t('signIn.submit')}
        </button>
        <p className="small">
          <Link to={ROUTES.forgotPassword}>{t('signIn.forgot')}</Link>
        </p>
        {passkeysSupported() && (
          <>
            <p className="muted small auth-or">{t('signIn.or')}</p>
            <button type="button" className="button button-block" onClick={withPasskey} disabled={busy || locked}>
              {t('signIn.passkey')}
            </button>
          </>
        )}
        <p className="muted small">
          <Link to={ROUTES.public}>{t('signIn.publicLink')}</Link>
        </p>
        <p className="muted small">
          <Link to={ROUTES.createStake}>{t('signIn.createStake')}</Link>
        </p>
      </form>
    </main>
  )
}
