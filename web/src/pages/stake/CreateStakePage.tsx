import { useEffect, useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useCreateStake } from '../../api/stake'
import { useAuth } from '../../auth/AuthProvider'
import { Field, splitError, type FieldErrors } from '../../components/ui'
import { ROUTES } from '../../routes'
import { checkSignup, emptySignup, LIMITS, signupRefusal, type SignupValues } from './stakeForm'

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

  useEffect(() => {
    document.title = `${t('create.title')} · ${t('common:appName')}`
  }, [t])

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

  if (closed) {
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

  const busy = create.isPending
  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={onSubmit} noValidate aria-labelledby="create-stake-title">
        <h1 id="create-stake-title">{t('create.title')}</h1>
        <p className="muted">{t('create.intro')}</p>
        {general && (
          <p className="error-box" role="alert">
            {general}
          </p>
        )}
        <Field label={t('create.code')} hint={t('create.codeHint')} error={errors.code}>
          <input
            name="code"
            value={v.code}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            onChange={(e) => set('code', e.target.value)}
            autoFocus
          />
        </Field>
        <Field label={t('create.stakeName')} error={errors.stake_name}>
          <input
            name="stake_name"
            value={v.stake_name}
            maxLength={LIMITS.name}
            autoComplete="organization"
            onChange={(e) => set('stake_name', e.target.value)}
          />
        </Field>
        <Field label={t('create.fname')} error={errors.fname}>
          <input
            name="fname"
            value={v.fname}
            autoComplete="given-name"
            onChange={(e) => set('fname', e.target.value)}
          />
        </Field>
        <Field label={t('create.lname')} error={errors.lname}>
          <input
            name="lname"
            value={v.lname}
            autoComplete="family-name"
            onChange={(e) => set('lname', e.target.value)}
          />
        </Field>
        <Field label={t('create.email')} hint={t('create.emailHint')} error={errors.email}>
          <input
            type="email"
            name="email"
            value={v.email}
            autoComplete="username"
            onChange={(e) => set('email', e.target.value)}
          />
        </Field>
        <Field label={t('create.password')} hint={t('create.passwordHint')} error={errors.password}>
          <input
            type="password"
            name="password"
            value={v.password}
            autoComplete="new-password"
            onChange={(e) => set('password', e.target.value)}
          />
        </Field>
        <Field label={t('create.confirm')} error={errors.confirm}>
          <input
            type="password"
            name="confirm"
            value={v.confirm}
            autoComplete="new-password"
            onChange={(e) => set('confirm', e.target.value)}
          />
        </Field>
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
