import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { useCreateUser, useSetPermissions, useUpdateUser, useUserPermissions } from '../../api/users'
import { PERMISSIONS, type CreatedUser, type User } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { usePermissionText } from '../../auth/permissionText'
import { ErrorMessage, Field, Loading, type FieldErrors } from '../../components/ui'
import { useIssueResetLink } from '../../api/accounts'
import { useNotify } from '../../components/Notice'
import { useFormState } from '../../components/useFormState'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

function Actions({
  busy,
  label,
  onClose,
  danger,
}: {
  busy: boolean
  label: string
  onClose(): void
  danger?: boolean
}) {
  const { t } = useTranslation('users')
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onClose}>
        {t('form.cancel')}
      </button>
      <button type="submit" className={`button ${danger ? 'button-danger' : 'button-primary'}`} disabled={busy}>
        {busy ? t('form.saving') : label}
      </button>
    </div>
  )
}

function CopyableSecret({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('users')
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
        {copied ? t('form.copied') : t('form.copy')}
      </button>
    </div>
  )
}

function validateUser(
  v: { email: string; fname: string; lname: string },
  t: TFunction<'users'>,
  emailOptional = false,
): FieldErrors {
  const e: FieldErrors = {}
  if (!v.fname.trim()) e.fname = t('form.fnameRequired')
  if (!v.lname.trim()) e.lname = t('form.lnameRequired')
  if (!(emailOptional && !v.email.trim()) && !EMAIL.test(v.email.trim())) e.email = t('form.emailInvalid')
  return e
}

export function CreateUserForm({ onDone, onClose }: { onDone(): void; onClose(): void }) {
  const { t } = useTranslation('users')
  const [v, setV] = useState({ fname: '', lname: '', email: '', invite: false })
  const [created, setCreated] = useState<CreatedUser | null>(null)
  const f = useFormState()
  const create = useCreateUser()

  if (created) {
    return (
      <div className="stack">
        <p className="success-box" role="status">
          {t('create.created', { name: `${created.fname} ${created.lname}` })}
        </p>
        {created.invitation?.sent ? (
          <p>{t('create.invitationSent', { email: created.email ?? '' })}</p>
        ) : created.invitation?.url ? (
          <>
            <p>{t('create.invitationLink')}</p>
            <CopyableSecret label={t('create.invitationLinkLabel')} value={created.invitation.url} />
          </>
        ) : created.temporary_password ? (
          <>
            <p>
              {t('create.giveTemporary')} <strong>{t('create.shownOnce')}</strong> {t('create.chooseOwn')}
            </p>
            <CopyableSecret label={t('form.temporaryPassword')} value={created.temporary_password} />
          </>
        ) : (
          <p>{t('create.mustChoose')}</p>
        )}
        <div className="dialog-actions">
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
      onSubmit={(e: FormEvent) => {
        e.preventDefault()
        const errs = validateUser(v, t)
        f.setErrors(errs)
        if (Object.keys(errs).length) return
        void f.run(['email', 'fname', 'lname'], async () => {
          const u = await create.mutateAsync({
            email: v.email.trim(),
            fname: v.fname.trim(),
            lname: v.lname.trim(),
            ...(v.invite ? { invite: true } : {}),
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
      <Field label={t('form.fname')} error={f.errors.fname}>
        <input value={v.fname} onChange={(e) => setV({ ...v, fname: e.target.value })} />
      </Field>
      <Field label={t('form.lname')} error={f.errors.lname}>
        <input value={v.lname} onChange={(e) => setV({ ...v, lname: e.target.value })} />
      </Field>
      <Field label={t('form.email')} error={f.errors.email}>
        <input type="email" value={v.email} onChange={(e) => setV({ ...v, email: e.target.value })} />
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={v.invite} onChange={(e) => setV({ ...v, invite: e.target.checked })} />{' '}
        {t('create.inviteLabel')}
      </label>
      <p className="muted small">{v.invite ? t('create.inviteNote') : t('create.passwordNote')}</p>
      <Actions busy={f.busy} label={t('create.submit')} onClose={onClose} />
    </form>
  )
}

export function EditUserForm({ user, onDone, onClose }: { user: User; onDone(): void; onClose(): void }) {
  const { t } = useTranslation('users')
  const me = useMe()
  const update = useUpdateUser()
  const [v, setV] = useState({ fname: user.fname, lname: user.lname, email: user.email ?? '', active: user.active })
  const f = useFormState()
  // Unticking "Active" on an active account deactivates it on save: say what that does.
  const deactivating = user.active && !v.active
  return (
    <form
      noValidate
      className="stack"
      onSubmit={(e) => {
        e.preventDefault()
        // A roster-only person (no email) may stay without one; nobody loses an email here by accident.
        const errs = validateUser(v, t, user.email === null)
        f.setErrors(errs)
        if (Object.keys(errs).length) return
        void f.run(['email', 'fname', 'lname', 'active'], async () => {
          await update.mutateAsync({
            id: user.id,
            body: { email: v.email.trim() || null, fname: v.fname.trim(), lname: v.lname.trim(), active: v.active },
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
      <Field label={t('form.fname')} error={f.errors.fname}>
        <input value={v.fname} onChange={(e) => setV({ ...v, fname: e.target.value })} />
      </Field>
      <Field label={t('form.lname')} error={f.errors.lname}>
        <input value={v.lname} onChange={(e) => setV({ ...v, lname: e.target.value })} />
      </Field>
      <Field label={t('form.email')} error={f.errors.email}>
        <input type="email" value={v.email} onChange={(e) => setV({ ...v, email: e.target.value })} />
      </Field>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={v.active}
          disabled={user.id === me.id}
          onChange={(e) => setV({ ...v, active: e.target.checked })}
        />{' '}
        {t('form.activeLabel')}
      </label>
      {f.errors.active && <small className="field-error">{f.errors.active}</small>}
      {deactivating && (
        <p className="warn-box" role="status">
          {t('deactivate.inlineWarning')}
        </p>
      )}
      <Actions
        busy={f.busy}
        label={deactivating ? t('deactivate.saveAndDeactivate') : t('form.save')}
        danger={deactivating}
        onClose={onClose}
      />
    </form>
  )
}

export function GrantsForm({ user, onDone, onClose }: { user: User; onDone(): void; onClose(): void }) {
  const { t } = useTranslation('users')
  const text = usePermissionText()
  const me = useMe()
  const grants = useUserPermissions(user.id)
  const save = useSetPermissions(user.id)
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
          await save.mutateAsync(current)
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
        <legend>{t('grants.legend')}</legend>
        <div className="permission-list">
          {PERMISSIONS.map((p) => {
            const mine = me.permissions.includes(p)
            const locked = !mine && !current.includes(p)
            const inputId = `grant-${user.id}-${p.replace('.', '-')}`
            const hintId = `${inputId}-hint`
            return (
              <div key={p} className="permission-option">
                <input
                  id={inputId}
                  type="checkbox"
                  checked={current.includes(p)}
                  disabled={locked}
                  aria-describedby={hintId}
                  onChange={(e) => setChosen(e.target.checked ? [...current, p] : current.filter((x) => x !== p))}
                />
                <span>
                  {/* The plain words are the name; the explanation is its description. */}
                  <label htmlFor={inputId} className="permission-label">
                    {text.label(p)}
                  </label>
                  <small id={hintId} className="permission-hint">
                    {text.explain(p)}
                    {locked && ` ${t('grants.notHeld')}`}
                  </small>
                </span>
              </div>
            )
          })}
        </div>
      </fieldset>
      <Actions busy={f.busy} label={t('grants.submit')} onClose={onClose} />
    </form>
  )
}

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
      {f.general && (
        <p className="error-box" role="alert">
          {f.general}
        </p>
      )}
      <p>{t('reset.explain')}</p>
      <Actions busy={f.busy} label={t('reset.submit')} onClose={onClose} />
    </form>
  )
}
