import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSetPermissions, useUserPermissions } from '../../api/users'
import { PERMISSIONS, type User } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { usePermissionText } from '../../auth/permissionText'
import { ErrorMessage, Loading } from '../../components/ui'
import { useFormState } from '../../components/useFormState'
import { Actions, GeneralError } from './formParts'

/** A user's direct grants, in plain words; a permission the administrator does not hold cannot be given. */
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
      <GeneralError message={f.general} />
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
