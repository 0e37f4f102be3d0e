import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../api/client'
import { useChangePassword } from '../api/users'
import { Field, type FieldErrors } from '../components/ui'
import { useFormState } from '../components/useFormState'
import { useNotify } from '../components/Notice'
import { ROUTES } from '../routes'
import { useAuth } from './AuthProvider'

/** Own password change: PATCH /users/{id}/password {old_password, new_password}. */
export function PasswordForm({ afterSuccess }: { afterSuccess: 'board' | 'stay' }) {
  const { t } = useTranslation('auth')
  const { me, reloadMe } = useAuth()
  const navigate = useNavigate()
  const notify = useNotify()
  const change = useChangePassword()
  const [oldPw, setOldPw] = useState('')
  const [newPw, setNewPw] = useState('')
  const [confirm, setConfirm] = useState('')
  const { errors, setErrors, general, busy, check, run } = useFormState()

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (!me) return
    const errs: FieldErrors = {}
    if (!oldPw) errs.old_password = t('password.enterCurrent')
    if (newPw.length < 8) errs.new_password = t('password.tooShort')
    else if (newPw.length > 256) errs.new_password = t('password.tooLong')
    else if (newPw === oldPw) errs.new_password = t('password.same')
    if (!errs.new_password && confirm !== newPw) errs.confirm = t('password.mismatch')
    if (!check(errs)) return
    await run(
      ['old_password', 'new_password'],
      async () => {
        await change.mutateAsync({ id: me.id, oldPassword: oldPw, newPassword: newPw })
        setOldPw('')
        setNewPw('')
        setConfirm('')
        await reloadMe()
        notify(t('password.changed'), 'success')
        if (afterSuccess === 'board') navigate(ROUTES.board, { replace: true })
      },
      (err) => {
        if (!(err instanceof ApiError && err.code === 'wrong_password')) return false
        setErrors({ old_password: t('password.wrongCurrent') })
        return true
      },
    )
  }

  return (
    <form onSubmit={onSubmit} noValidate className="stack">
      {general && (
        <p className="error-box" role="alert">
          {general}
        </p>
      )}
      <input type="email" name="username" autoComplete="username" value={me?.email ?? ''} readOnly hidden />
      <Field label={t('password.current')} error={errors.old_password}>
        <input
          type="password"
          autoComplete="current-password"
          value={oldPw}
          onChange={(e) => setOldPw(e.target.value)}
        />
      </Field>
      <Field label={t('password.new')} error={errors.new_password} hint={t('password.hint')}>
        <input type="password" autoComplete="new-password" value={newPw} onChange={(e) => setNewPw(e.target.value)} />
      </Field>
      <Field label={t('password.repeat')} error={errors.confirm}>
        <input
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
      </Field>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? t('common:saving') : t('password.submit')}
      </button>
    </form>
  )
}
