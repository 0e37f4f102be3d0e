import { useState, type FormEvent } from 'react'
import { useQuery } from '@tanstack/react-query'
import { api } from '../../api/client'
import { PERMISSIONS, type CreatedUser, type User } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { ErrorMessage, Field, Loading, splitError, type FieldErrors } from '../../components/ui'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

function useFormState() {
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  async function run(fields: string[], fn: () => Promise<void>) {
    setGeneral(null)
    setBusy(true)
    try {
      await fn()
    } catch (err) {
      const s = splitError(err, fields)
      setErrors(s.fields)
      setGeneral(s.general)
    } finally {
      setBusy(false)
    }
  }
  return { errors, setErrors, general, busy, run }
}

function Actions({ busy, label, onClose }: { busy: boolean; label: string; onClose(): void }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onClose}>
        Cancel
      </button>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Saving…' : label}
      </button>
    </div>
  )
}

export function CopyableSecret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false)
  return (
    <div className="secret">
      <Field label={label}>
        <input readOnly value={value} onFocus={(e) => e.target.select()} className="mono" />
      </Field>
      <button
        type="button"
        className="button"
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  )
}

function validateUser(v: { email: string; fname: string; lname: string }): FieldErrors {
  const e: FieldErrors = {}
  if (!v.fname.trim()) e.fname = 'Enter a first name.'
  if (!v.lname.trim()) e.lname = 'Enter a last name.'
  if (!EMAIL.test(v.email.trim())) e.email = 'Enter a valid email address.'
  return e
}

export function CreateUserForm({ onDone, onClose }: { onDone(): void; onClose(): void }) {
  const [v, setV] = useState({ fname: '', lname: '', email: '' })
  const [created, setCreated] = useState<CreatedUser | null>(null)
  const f = useFormState()

  if (created) {
    return (
      <div className="stack">
        <p className="success-box" role="status">
          {created.fname} {created.lname} has been created.
        </p>
        {created.temporary_password ? (
          <>
            <p>
              Give this temporary password to the user. <strong>It is shown only this once.</strong> They must choose
              their own password when they first sign in.
            </p>
            <CopyableSecret label="Temporary password" value={created.temporary_password} />
          </>
        ) : (
          <p>The user must choose their own password when they first sign in.</p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button button-primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    )
  }

  return (
    <form
      noValidate
      className="stack"
      onSubmit={(e: FormEvent) => {
        e.preventDefault()
        const errs = validateUser(v)
        f.setErrors(errs)
        if (Object.keys(errs).length) return
        void f.run(['email', 'fname', 'lname'], async () => {
          const u = await api<CreatedUser>('/users/', {
            method: 'POST',
            body: { email: v.email.trim(), fname: v.fname.trim(), lname: v.lname.trim() },
          })
          setCreated(u)
          onDone()
        })
      }}
    >
      {f.general && (
        <p className="error-box" role="alert">
          {f.general}
        </p>
      )}
      <Field label="First name" error={f.errors.fname}>
        <input value={v.fname} onChange={(e) => setV({ ...v, fname: e.target.value })} />
      </Field>
      <Field label="Last name" error={f.errors.lname}>
        <input value={v.lname} onChange={(e) => setV({ ...v, lname: e.target.value })} />
      </Field>
      <Field label="Email" error={f.errors.email}>
        <input type="email" value={v.email} onChange={(e) => setV({ ...v, email: e.target.value })} />
      </Field>
      <p className="muted small">A temporary password is generated and shown once after you create the user.</p>
      <Actions busy={f.busy} label="Create user" onClose={onClose} />
    </form>
  )
}

export function EditUserForm({ user, onDone, onClose }: { user: User; onDone(): void; onClose(): void }) {
  const me = useMe()
  const [v, setV] = useState({ fname: user.fname, lname: user.lname, email: user.email ?? '', active: user.active })
  const f = useFormState()
  return (
    <form
      noValidate
      className="stack"
      onSubmit={(e) => {
        e.preventDefault()
        const errs = validateUser(v)
        f.setErrors(errs)
        if (Object.keys(errs).length) return
        void f.run(['email', 'fname', 'lname', 'active'], async () => {
          await api<User>(`/users/${user.id}`, {
            method: 'PUT',
            body: { email: v.email.trim(), fname: v.fname.trim(), lname: v.lname.trim(), active: v.active },
          })
          onDone()
        })
      }}
    >
      {f.general && (
        <p className="error-box" role="alert">
          {f.general}
        </p>
      )}
      <Field label="First name" error={f.errors.fname}>
        <input value={v.fname} onChange={(e) => setV({ ...v, fname: e.target.value })} />
      </Field>
      <Field label="Last name" error={f.errors.lname}>
        <input value={v.lname} onChange={(e) => setV({ ...v, lname: e.target.value })} />
      </Field>
      <Field label="Email" error={f.errors.email}>
        <input type="email" value={v.email} onChange={(e) => setV({ ...v, email: e.target.value })} />
      </Field>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={v.active}
          disabled={user.id === me.id}
          onChange={(e) => setV({ ...v, active: e.target.checked })}
        />{' '}
        Active (can sign in)
      </label>
      {f.errors.active && <small className="field-error">{f.errors.active}</small>}
      <Actions busy={f.busy} label="Save" onClose={onClose} />
    </form>
  )
}

export function GrantsForm({ user, onDone, onClose }: { user: User; onDone(): void; onClose(): void }) {
  const me = useMe()
  const grants = useQuery({
    queryKey: ['users', user.id, 'permissions'],
    queryFn: () => api<{ permissions: string[] }>(`/users/${user.id}/permissions`),
  })
  const [chosen, setChosen] = useState<string[] | null>(null)
  const f = useFormState()
  if (grants.isLoading) return <Loading />
  if (grants.error) return <ErrorMessage error={grants.error} />
  const current = chosen ?? grants.data?.permissions ?? []
  return (
    <form
      noValidate
      className="stack"
      onSubmit={(e) => {
        e.preventDefault()
        void f.run(['permissions'], async () => {
          await api(`/users/${user.id}/permissions`, { method: 'PUT', body: { permissions: current } })
          onDone()
        })
      }}
    >
      {f.general && (
        <p className="error-box" role="alert">
          {f.general}
        </p>
      )}
      {f.errors.permissions && <p className="error-box">{f.errors.permissions}</p>}
      <fieldset className="field">
        <legend>Direct grants</legend>
        <div className="checkbox-grid">
          {PERMISSIONS.map((p) => {
            const mine = me.permissions.includes(p)
            return (
              <label key={p} className="checkbox" title={mine ? undefined : 'You cannot grant access you do not hold'}>
                <input
                  type="checkbox"
                  checked={current.includes(p)}
                  disabled={!mine && !current.includes(p)}
                  onChange={(e) => setChosen(e.target.checked ? [...current, p] : current.filter((x) => x !== p))}
                />{' '}
                <code>{p}</code>
              </label>
            )
          })}
        </div>
      </fieldset>
      <Actions busy={f.busy} label="Save access" onClose={onClose} />
    </form>
  )
}

function randomPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')
}

export function ResetPasswordForm({ user, onDone, onClose }: { user: User; onDone(): void; onClose(): void }) {
  const [pw, setPw] = useState(randomPassword)
  const [doneFor, setDoneFor] = useState<string | null>(null)
  const f = useFormState()
  if (doneFor) {
    return (
      <div className="stack">
        <p className="success-box" role="status">
          The password has been reset. Give the user this temporary password; it is shown only once.
        </p>
        <CopyableSecret label="Temporary password" value={doneFor} />
        <div className="dialog-actions">
          <button type="button" className="button button-primary" onClick={onClose}>
            Done
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
        if (pw.length < 8) return f.setErrors({ new_password: 'Use at least 8 characters.' })
        f.setErrors({})
        void f.run(['new_password'], async () => {
          await api(`/users/${user.id}/password`, { method: 'PATCH', body: { new_password: pw } })
          setDoneFor(pw)
          onDone()
        })
      }}
    >
      {f.general && (
        <p className="error-box" role="alert">
          {f.general}
        </p>
      )}
      <Field label="Temporary password" error={f.errors.new_password} hint="Generated for you; you may change it.">
        <input className="mono" value={pw} onChange={(e) => setPw(e.target.value)} autoComplete="off" />
      </Field>
      <Actions busy={f.busy} label="Reset password" onClose={onClose} />
    </form>
  )
}
