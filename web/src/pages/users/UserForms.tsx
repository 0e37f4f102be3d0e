import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { useCreateUser, useUpdateUser } from '../../api/users'
import type { CreatedUser, User } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { Field, type FieldErrors } from '../../components/ui'
import { useFormState } from '../../components/useFormState'
import { Actions, CopyableSecret, GeneralError } from './formParts'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

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
      <GeneralError message={f.general} />
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
      <GeneralError message={f.general} />
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
