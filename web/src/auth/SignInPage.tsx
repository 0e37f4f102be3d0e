import { useState, type FormEvent } from 'react'
import { Link, Navigate, useSearchParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { ApiError } from '../api/client'
import { passkeySignIn, passkeysSupported } from '../api/accounts'
import { safeNextPath } from '../api/next'
import { Field, type FieldErrors } from '../components/ui'
import { ROUTES } from '../routes'
import { useAuth } from './AuthProvider'
import { SharedComputerOption, SharedSignOutNotice } from './SharedComputer'
import { useLockout, usePasskeyAutofill } from './signInHooks'
import { useDocumentTitle } from '../components/docTitle'
import { useBrowserValue, useHydrated } from '../components/hydrated'
import { preloadWhileSigningIn } from '../preload'

function describeWait(t: TFunction, seconds: number): string {
  if (seconds < 60) return t('signIn.seconds', { count: seconds })
  return t('signIn.minutes', { count: Math.ceil(seconds / 60) })
}

/** Only same-app paths are honoured as a post-sign-in destination. */
const safeNext = (next: string | null): string => safeNextPath(next, ROUTES.board, [ROUTES.signIn])

export function SignInPage() {
  const { t } = useTranslation()
  const { status, me, login, beginSession } = useAuth()
  const [params] = useSearchParams()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [shared, setShared] = useState(false)
  const [errors, setErrors] = useState<FieldErrors>({})
  // The lock message is kept as its wait, so it follows a change of language.
  const [formError, setFormError] = useState<string | { lockedFor: number } | null>(null)
  const [busy, setBusy] = useState(false)
  const hydrated = useHydrated()

  useDocumentTitle(t('signIn.title'))

  usePasskeyAutofill(beginSession)
  const lockout = useLockout()
  const { secondsLeft, locked } = lockout
  /** Too many attempts: the form stays locked for the wait the server gave. */
  const lockFor = (err: ApiError) => {
    const wait = err.retryAfter ?? 60
    lockout.lock(wait)
    setFormError({ lockedFor: wait })
  }

  if (status === 'authenticated' && me) {
    return <Navigate to={me.force_password_reset ? ROUTES.changePassword : safeNext(params.get('next'))} replace />
  }

  async function withPasskey() {
    setFormError(null)
    setBusy(true)
    try {
      await passkeySignIn(beginSession, { shared })
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) lockFor(err)
      else if (err instanceof ApiError) setFormError(t('signIn.passkeyFailed'))
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
        lockFor(err)
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
      {/* The first input fetches the board's code, so it is there when the sign-in succeeds. */}
      <form
        className="card auth-card"
        onSubmit={onSubmit}
        onInput={preloadWhileSigningIn}
        noValidate
        aria-labelledby="signin-title"
      >
        <h1 id="signin-title">{t('signIn.title')}</h1>
        <p className="muted">{t('appName')}</p>
        <SignInNotice formError={formError} secondsLeft={secondsLeft} />
        <CredentialFields
          email={email}
          password={password}
          errors={errors}
          onEmail={setEmail}
          onPassword={setPassword}
        />
        <SharedComputerOption checked={shared} onChange={setShared} />
        {/* Disabled until the code runs: a form sent natively would put the password in the address. */}
        <button type="submit" className="button button-primary button-block" disabled={!hydrated || busy || locked}>
          {busy ? t('signIn.busy') : t('signIn.submit')}
        </button>
        <p className="small">
          <Link to={ROUTES.forgotPassword}>{t('signIn.forgot')}</Link>
        </p>
        <PasskeyOption onClick={withPasskey} disabled={busy || locked} />
        <SignInLinks />
      </form>
    </main>
  )
}

/** Why the form is here or what went wrong: a sign-in's own error first, else why the last session ended. */
function SignInNotice({
  formError,
  secondsLeft,
}: {
  formError: string | { lockedFor: number } | null
  secondsLeft: number
}) {
  const { t } = useTranslation()
  const { sessionExpired, idleSignOut, bootError } = useAuth()
  if (formError)
    return (
      <p className="error-box" role="alert">
        {typeof formError === 'string' ? formError : t('signIn.locked', { wait: describeWait(t, formError.lockedFor) })}
        {secondsLeft > 0 && <> {t('signIn.left', { wait: describeWait(t, secondsLeft) })}</>}
      </p>
    )
  return (
    <>
      {sessionExpired && (
        <p className="info-box" role="status">
          {t('signIn.sessionEnded')}
        </p>
      )}
      {idleSignOut && <SharedSignOutNotice />}
      {bootError && (
        <p className="error-box" role="alert">
          {bootError}
        </p>
      )}
    </>
  )
}

/** The email (which also offers this site's passkeys, where the browser can) and the password. */
function CredentialFields({
  email,
  password,
  errors,
  onEmail,
  onPassword,
}: {
  email: string
  password: string
  errors: FieldErrors
  onEmail(value: string): void
  onPassword(value: string): void
}) {
  const { t } = useTranslation()
  return (
    <>
      <Field label={t('signIn.email')} error={errors.username}>
        <input
          type="email"
          name="username"
          autoComplete="username webauthn"
          value={email}
          onChange={(e) => onEmail(e.target.value)}
          autoFocus
        />
      </Field>
      <Field label={t('signIn.password')} error={errors.password}>
        <input
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => onPassword(e.target.value)}
        />
      </Field>
    </>
  )
}

/** Signing in with a passkey, where this browser can. */
function PasskeyOption({ onClick, disabled }: { onClick(): void; disabled: boolean }) {
  const { t } = useTranslation()
  // Rendered at build time with the option: nearly every browser has passkeys; one without drops it.
  const supported = useBrowserValue(passkeysSupported, true)
  if (!supported) return null
  return (
    <>
      <p className="muted small auth-or">{t('signIn.or')}</p>
      <button type="button" className="button button-block" onClick={onClick} disabled={disabled}>
        {t('signIn.passkey')}
      </button>
    </>
  )
}

function SignInLinks() {
  const { t } = useTranslation()
  return (
    <>
      <p className="muted small">
        <Link to={ROUTES.public}>{t('signIn.publicLink')}</Link>
      </p>
      <p className="muted small">
        <Link to={ROUTES.createStake}>{t('signIn.createStake')}</Link>
      </p>
    </>
  )
}
