import { useState } from 'react'
import { useNavigate } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'
import { qk } from '../../api/queries'
import type { Session, User } from '../../api/types'
import { useAuth, useMe } from '../../auth/AuthProvider'
import { PasswordForm } from '../../auth/PasswordForm'
import { ConfirmDialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import {
  Empty,
  ErrorMessage,
  Field,
  formatDateTime,
  Loading,
  PageHeader,
  splitError,
  type FieldErrors,
} from '../../components/ui'
import { ROUTES } from '../../routes'
import { CalendarFeed } from './CalendarFeed'
import { EmailPreference } from './EmailPreference'

function ProfileForm() {
  const me = useMe()
  const { reloadMe } = useAuth()
  const notify = useNotify()
  const [v, setV] = useState({ fname: me.fname, lname: me.lname, email: me.email })
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  return (
    <form
      noValidate
      className="stack"
      onSubmit={async (e) => {
        e.preventDefault()
        const errs: FieldErrors = {}
        if (!v.fname.trim()) errs.fname = 'Enter your first name.'
        if (!v.lname.trim()) errs.lname = 'Enter your last name.'
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim())) errs.email = 'Enter a valid email address.'
        setErrors(errs)
        setGeneral(null)
        if (Object.keys(errs).length) return
        setBusy(true)
        try {
          await api<User>(`/users/${me.id}`, {
            method: 'PUT',
            body: { fname: v.fname.trim(), lname: v.lname.trim(), email: v.email.trim(), active: me.active },
          })
          await reloadMe()
          notify('Profile saved.', 'success')
        } catch (err) {
          const s = splitError(err, ['fname', 'lname', 'email'])
          setErrors(s.fields)
          setGeneral(s.general)
        } finally {
          setBusy(false)
        }
      }}
    >
      {general && (
        <p className="error-box" role="alert">
          {general}
        </p>
      )}
      <Field label="First name" error={errors.fname}>
        <input value={v.fname} onChange={(e) => setV({ ...v, fname: e.target.value })} autoComplete="given-name" />
      </Field>
      <Field label="Last name" error={errors.lname}>
        <input value={v.lname} onChange={(e) => setV({ ...v, lname: e.target.value })} autoComplete="family-name" />
      </Field>
      <Field label="Email" error={errors.email}>
        <input
          type="email"
          value={v.email}
          onChange={(e) => setV({ ...v, email: e.target.value })}
          autoComplete="email"
        />
      </Field>
      <div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save profile'}
        </button>
      </div>
    </form>
  )
}

function describeAgent(ua: string | null | undefined): string {
  if (!ua) return 'Unknown device'
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Chrome\//.test(ua)
      ? 'Chrome'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser'
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : ''
  return os ? `${browser} on ${os}` : browser
}

function Sessions() {
  const { logout } = useAuth()
  const qc = useQueryClient()
  const notify = useNotify()
  const navigate = useNavigate()
  const sessions = useQuery({ queryKey: qk.sessions, queryFn: () => api<Session[]>('/auth/sessions') })
  const [confirmAll, setConfirmAll] = useState(false)
  const end = useMutation({
    mutationFn: (s: Session) => api(`/auth/sessions/${s.id}`, { method: 'DELETE' }),
    onSuccess: () => notify('That device has been signed out.', 'success'),
    onSettled: () => void qc.invalidateQueries({ queryKey: qk.sessions }),
  })
  return (
    <section className="card" aria-labelledby="sessions-h">
      <h2 id="sessions-h">Where you are signed in</h2>
      {sessions.isLoading && <Loading />}
      <ErrorMessage error={sessions.error ?? end.error} />
      {sessions.data && sessions.data.length === 0 && <Empty>No active sessions.</Empty>}
      <ul className="sessions">
        {sessions.data?.map((s) => (
          <li key={s.id}>
            <div>
              <strong>{describeAgent(s.user_agent)}</strong>
              {s.current && <span className="badge">This device</span>}
              <div className="muted small">
                Signed in {formatDateTime(s.created_at)}
                {s.last_used_at && ` · last active ${formatDateTime(s.last_used_at)}`}
                {s.ip && ` · ${s.ip}`}
              </div>
            </div>
            {s.current ? (
              <button
                type="button"
                className="button button-small"
                onClick={() => void logout().then(() => navigate(ROUTES.signIn, { replace: true }))}
              >
                Sign out this device
              </button>
            ) : (
              <button
                type="button"
                className="button button-small"
                disabled={end.isPending}
                onClick={() => end.mutate(s)}
              >
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      <div className="button-row">
        <button
          type="button"
          className="button"
          onClick={() => void logout().then(() => navigate(ROUTES.signIn, { replace: true }))}
        >
          Sign out this device
        </button>
        <button type="button" className="button button-danger" onClick={() => setConfirmAll(true)}>
          Sign out everywhere
        </button>
      </div>
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title="Sign out everywhere?"
        message="Every device, including this one, will need to sign in again."
        confirmLabel="Sign out everywhere"
        danger
        onConfirm={() => void logout({ all: true }).then(() => navigate(ROUTES.signIn, { replace: true }))}
      />
    </section>
  )
}

export default function ProfilePage() {
  const me = useMe()
  return (
    <div>
      <PageHeader title="Your profile" />
      <div className="proposal-grid">
        <div className="stack">
          <section className="card" aria-labelledby="profile-h">
            <h2 id="profile-h">Name and email</h2>
            <ProfileForm />
          </section>
          <section className="card" aria-labelledby="pw-h">
            <h2 id="pw-h">Change password</h2>
            <PasswordForm afterSuccess="stay" />
          </section>
        </div>
        <div className="stack">
          <section className="card" aria-labelledby="roles-h">
            <h2 id="roles-h">Your callings and access</h2>
            {me.callings.length === 0 ? (
              <p className="muted">You hold no calling.</p>
            ) : (
              <ul className="plain-list">
                {me.callings.map((c, i) => (
                  <li key={i}>
                    {c.name} <span className="muted small">(seat {c.slot_id})</span>
                  </li>
                ))}
              </ul>
            )}
            <p>
              {me.permissions.length
                ? me.permissions.map((p) => (
                    <code key={p} className="perm">
                      {p}
                    </code>
                  ))
                : 'No extra access.'}
            </p>
          </section>
          <EmailPreference />
          <CalendarFeed />
          <Sessions />
        </div>
      </div>
    </div>
  )
}
