import { useState, type FormEvent, type InputHTMLAttributes } from 'react'
import { Link, useNavigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useCreateStake } from '../../api/stake'
import { useAuth } from '../../auth/AuthProvider'
import { ErrorMessage, Field, splitError, type FieldErrors } from '../../components/ui'
import { ROUTES } from '../../routes'
import { checkSignup, emptySignup, LIMITS, signupRefusal, type SignupValues } from './stakeForm'
import { useDocumentTitle } from '../../components/docTitle'

const FIELDS = ['code', 'stake_name', 'fname', 'lname', 'email', 'password'] as const

/**
 * "Create your stake" (docs/api-reference.md §14, POST /stakes): with a signup code from
 * the person who runs the server, a new stake and its first administrator,
 * who is then signed in and taken to the board (its setup checklist). When the
 * server hands out no codes at all (404) the page says new stakes are closed.
 */
export default function CreateStakePage() {
  const { t } = useTranslation('stake')
  const navigate = useNavigate()
  const create = useCreateStake(useAuth().beginSession)
  const [v, setV] = useState<SignupValues>(emptySignup)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  const [closed, setClosed] = useState(false)
  const set = (key: keyof SignupValues, value: string) => setV((old) => ({ ...old, [key]: value }))

  useDocumentTitle(t('create.title'))

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setGeneral(null)
    const checked = checkSignup(v)
    if ('errors' in checked) {
      setErrors(Object.fromEntries(Object.entries(checked.errors).map(([field, key]) => [field, t(key!)])))
      return
    }
    setErrors({})
    try {
      await create.mutateAsync(checked.body)
      navigate(ROUTES.board, { replace: true })
    } catch (err) {
      const refusal = err instanceof ApiError ? signupRefusal(err.status, err.code) : { kind: 'other' as const }
      if (refusal.kind === 'closed') setClosed(true)
      else if (refusal.kind === 'field') setErrors({ [refusal.field]: t(refusal.key) })
      else {
        const s = splitError(err, [...FIELDS])
        setErrors(s.fields)
        setGeneral(s.general)
      }
    }
  }

  if (closed) return <StakesClosed />

  const busy = create.isPending
  const form = { values: v, errors, set }
  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={onSubmit} noValidate aria-labelledby="create-stake-title">
        <h1 id="create-stake-title">{t('create.title')}</h1>
        <p className="muted">{t('create.intro')}</p>
        <ErrorMessage error={general} />
        <SignupInput
          {...form}
          name="code"
          label={t('create.code')}
          hint={t('create.codeHint')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
        />
        <SignupInput
          {...form}
          name="stake_name"
          label={t('create.stakeName')}
          maxLength={LIMITS.name}
          autoComplete="organization"
        />
        <SignupInput {...form} name="fname" label={t('create.fname')} autoComplete="given-name" />
        <SignupInput {...form} name="lname" label={t('create.lname')} autoComplete="family-name" />
        <SignupInput
          {...form}
          name="email"
          type="email"
          label={t('create.email')}
          hint={t('create.emailHint')}
          autoComplete="username"
        />
        <SignupInput
          {...form}
          name="password"
          type="password"
          label={t('create.password')}
          hint={t('create.passwordHint')}
          autoComplete="new-password"
        />
        <SignupInput {...form} name="confirm" type="password" label={t('create.confirm')} autoComplete="new-password" />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? t('create.busy') : t('create.submit')}
        </button>
        <p className="muted small">
          <Link to={ROUTES.signIn}>{t('create.signIn')}</Link>
        </p>
      </form>
    </main>
  )
}

/** One field of the form, its value, error and change taken from the form's state. */
function SignupInput({
  name,
  label,
  hint,
  values,
  errors,
  set,
  ...input
}: {
  name: keyof SignupValues
  label: string
  hint?: string
  values: SignupValues
  errors: FieldErrors
  set(key: keyof SignupValues, value: string): void
} & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field label={label} hint={hint} error={errors[name]}>
      <input {...input} name={name} value={values[name]} onChange={(e) => set(name, e.target.value)} />
    </Field>
  )
}

/** The server hands out no signup codes: no new stake can be made here. */
function StakesClosed() {
  const { t } = useTranslation('stake')
  return (
    <main className="auth-page">
      <div className="card auth-card">
        <h1>{t('create.title')}</h1>
        <p className="info-box" role="alert">
          {t('create.closed')}
        </p>
        <p>
          <Link to={ROUTES.signIn}>{t('create.signIn')}</Link>
        </p>
      </div>
    </main>
  )
}
