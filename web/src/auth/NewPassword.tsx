import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorMessage, Field, type FieldErrors } from '../components/ui'
import { checkPasswords } from './linkToken'

/**
 * A new password typed twice (a welcome link's, a reset link's): the two
 * values, their errors and the form's general error, checked before sending.
 */
export function useNewPassword() {
  const { t } = useTranslation('accounts')
  const [password, setPassword] = useState('')
  const [repeat, setRepeat] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  /** Shows what is wrong and answers whether the form may be sent. */
  const check = () => {
    const problems = checkPasswords(password, repeat)
    setErrors(
      Object.fromEntries(Object.entries(problems).map(([field, key]) => [field, t(`password.${key}`)])) as FieldErrors,
    )
    setGeneral(null)
    return Object.keys(problems).length === 0
  }
  return { password, setPassword, repeat, setRepeat, errors, setErrors, general, setGeneral, check }
}

/** The general error, then the new password and its repetition. */
export function NewPasswordFields({
  form,
  label,
  name,
}: {
  form: ReturnType<typeof useNewPassword>
  /** The first field's label (the second is "repeat"). */
  label: { password: string; repeat: string }
  /** The first field's name, as the server calls it. */
  name: string
}) {
  const { t } = useTranslation('accounts')
  return (
    <>
      <ErrorMessage error={form.general} />
      <Field label={label.password} hint={t('welcome.hint')} error={form.errors.password}>
        <input
          type="password"
          name={name}
          autoComplete="new-password"
          value={form.password}
          onChange={(e) => form.setPassword(e.target.value)}
          autoFocus
        />
      </Field>
      <Field label={label.repeat} error={form.errors.repeat}>
        <input
          type="password"
          name="repeat"
          autoComplete="new-password"
          value={form.repeat}
          onChange={(e) => form.setRepeat(e.target.value)}
        />
      </Field>
    </>
  )
}
