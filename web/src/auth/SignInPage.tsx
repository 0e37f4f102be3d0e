import { useEffect, useState, type FormEvent } from 'react'
import { Link, Navigate, useSearchParams } from 'react-router'
import { ApiError } from '../api/client'
import { safeNextPath } from '../api/next'
import { Field, type FieldErrors } from '../components/ui'
import { ROUTES } from '../routes'
import { useAuth } from './AuthProvider'
import { SharedComputerOption, SharedSignOutNotice } from './SharedComputer'

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`
  const min = Math.ceil(seconds / 60)
  return `${min} minute${min === 1 ? '' : 's'}`
}

/** Only same-app paths are honoured as a post-sign-in destination. */
const safeNext = (next: string | null): string => safeNextPath(next, ROUTES.board, [ROUTES.signIn])

export function SignInPage() {
  const { status, me, login, sessionExpired, idleSignOut, bootError } = useAuth()
  const [params] = useSearchParams()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [shared, setShared] = useState(false)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [lockedUntil, setLockedUntil] = useState<number | null>(null)
  const [now, setNow] = useState(() => Date.now())
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    document.title = 'Sign in · Stake Administration'
  }, [])

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

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    const errs: FieldErrors = {}
    if (!email.trim()) errs.username = 'Enter your email address.'
    else if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) errs.username = 'Enter a valid email address.'
    if (!password) errs.password = 'Enter your password.'
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
        setFormError(
          `Too many sign-in attempts. For your security, sign-in is paused for this account; try again in ${describeWait(wait)}.`,
        )
      } else if (err instanceof ApiError && err.status === 401) {
        setFormError('Incorrect email or password.')
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
        <h1 id="signin-title">Sign in</h1>
        <p className="muted">Stake Administration</p>
        {sessionExpired && !formError && (
          <p className="info-box" role="status">
            Your session has ended. Please sign in again.
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
            {formError}
            {locked && <> ({describeWait(secondsLeft)} left)</>}
          </p>
        )}
        <Field label="Email" error={errors.username}>
          <input
            type="email"
            name="username"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoFocus
          />
        </Field>
        <Field label="Password" error={errors.password}>
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
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">
          <Link to={ROUTES.public}>Public callings and ward meeting times</Link>
        </p>
      </form>
    </main>
  )
}
