import { useState } from 'react'
import { useNavigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { useEndSession, useSessions } from '../../api/sessions'
import { useUpdateUser } from '../../api/users'
import { useAuth, useMe } from '../../auth/AuthProvider'
import { PasswordForm } from '../../auth/PasswordForm'
import { ConfirmDialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, Field, formatDateTime, Loading, PageHeader, type FieldErrors } from '../../components/ui'
import { useFormState } from '../../components/useFormState'
import { ROUTES } from '../../routes'
import { CalendarFeed } from './CalendarFeed'
import { EmailPreference } from './EmailPreference'
import { Passkeys } from './Passkeys'
import { LanguageSwitch } from './LanguageSwitch'
import { PushDevices } from './PushDevices'
import { seatsOf, useStewardships } from '../../api/stewardships'

/** docs/api-reference.md §18: the wards and organizations the caller's high-council seat oversees. */
function MyStewardship() {
  const { t } = useTranslation('profile')
  const me = useMe()
  const seats = seatsOf(useStewardships().data, me.id)
  if (seats.length === 0) return null
  return (
    <div data-testid="my-stewardship">
      <h3>{t('stewardship.title')}</h3>
      {seats.map((s) => (
        <p key={s.slot_id}>
          {s.wards.length > 0 ? s.wards.map((w) => w.name).join(', ') : t('stewardship.noWards')}
          {s.organizations.length > 0 && <span className="muted"> · {s.organizations.join(', ')}</span>}
        </p>
      ))}
    </div>
  )
}

function ProfileForm() {
  const { t } = useTranslation('profile')
  const me = useMe()
  const { reloadMe } = useAuth()
  const notify = useNotify()
  const update = useUpdateUser()
  const [v, setV] = useState({ fname: me.fname, lname: me.lname, email: me.email ?? '' })
  const { errors, general, busy, check, run } = useFormState()
  return (
    <form
      noValidate
      className="stack"
      onSubmit={async (e) => {
        e.preventDefault()
        const errs: FieldErrors = {}
        if (!v.fname.trim()) errs.fname = t('form.enterFirst')
        if (!v.lname.trim()) errs.lname = t('form.enterLast')
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim())) errs.email = t('form.invalidEmail')
        if (!check(errs)) return
        await run(['fname', 'lname', 'email'], async () => {
          await update.mutateAsync({
            id: me.id,
            body: { fname: v.fname.trim(), lname: v.lname.trim(), email: v.email.trim(), active: me.active },
          })
          await reloadMe()
          notify(t('form.saved'), 'success')
        })
      }}
    >
      {general && (
        <p className="error-box" role="alert">
          {general}
        </p>
      )}
      <Field label={t('form.first')} error={errors.fname}>
        <input value={v.fname} onChange={(e) => setV({ ...v, fname: e.target.value })} autoComplete="given-name" />
      </Field>
      <Field label={t('form.last')} error={errors.lname}>
        <input value={v.lname} onChange={(e) => setV({ ...v, lname: e.target.value })} autoComplete="family-name" />
      </Field>
      <Field label={t('form.email')} error={errors.email}>
        <input
          type="email"
          value={v.email}
          onChange={(e) => setV({ ...v, email: e.target.value })}
          autoComplete="email"
        />
      </Field>
      <div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('common:saving') : t('form.save')}
        </button>
      </div>
    </form>
  )
}

function describeAgent(t: TFunction, ua: string | null | undefined): string {
  if (!ua) return t('sessions.unknownDevice')
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Chrome\//.test(ua)
      ? 'Chrome'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Safari\//.test(ua)
          ? 'Safari'
          : t('sessions.browser')
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
  return os ? t('sessions.browserOn', { browser, os }) : browser
}

function Sessions() {
  const { t } = useTranslation('profile')
  const { logout } = useAuth()
  const notify = useNotify()
  const navigate = useNavigate()
  const sessions = useSessions()
  const [confirmAll, setConfirmAll] = useState(false)
  const end = useEndSession({ onSuccess: () => notify(t('sessions.ended'), 'success') })
  return (
    <section className="card" aria-labelledby="sessions-h">
      <h2 id="sessions-h">{t('sessions.title')}</h2>
      {sessions.isLoading && <Loading />}
      <ErrorMessage error={sessions.error ?? end.error} />
      {sessions.data && sessions.data.length === 0 && <Empty>{t('sessions.none')}</Empty>}
      <ul className="sessions">
        {sessions.data?.map((s) => (
          <li key={s.id}>
            <div>
              <strong>{describeAgent(t, s.user_agent)}</strong>
              {s.current && <span className="badge">{t('sessions.thisDevice')}</span>}
              <div className="muted small">
                {t('sessions.signedIn', { date: formatDateTime(s.created_at) })}
                {s.last_used_at && ` · ${t('sessions.lastActive', { date: formatDateTime(s.last_used_at) })}`}
                {s.ip && ` · ${s.ip}`}
              </div>
            </div>
            {s.current ? (
              <button
                type="button"
                className="button button-small"
                onClick={() => void logout().then(() => navigate(ROUTES.signIn, { replace: true }))}
              >
                {t('sessions.signOutThis')}
              </button>
            ) : (
              <button
                type="button"
                className="button button-small"
                disabled={end.isPending}
                onClick={() => end.mutate(s)}
              >
                {t('common:signOut')}
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
          {t('sessions.signOutThis')}
        </button>
        <button type="button" className="button button-danger" onClick={() => setConfirmAll(true)}>
          {t('sessions.signOutAll')}
        </button>
      </div>
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title={t('sessions.signOutAllTitle')}
        message={t('sessions.signOutAllText')}
        confirmLabel={t('sessions.signOutAll')}
        danger
        onConfirm={() => void logout({ all: true }).then(() => navigate(ROUTES.signIn, { replace: true }))}
      />
    </section>
  )
}

export default function ProfilePage() {
  const { t } = useTranslation('profile')
  const me = useMe()
  return (
    <div>
      <PageHeader title={t('title')} />
      <div className="proposal-grid">
        <div className="stack">
          <section className="card" aria-labelledby="profile-h">
            <h2 id="profile-h">{t('nameAndEmail')}</h2>
            <ProfileForm />
          </section>
          <LanguageSwitch />
          <section className="card" aria-labelledby="pw-h">
            <h2 id="pw-h">{t('changePassword')}</h2>
            <PasswordForm afterSuccess="stay" />
          </section>
        </div>
        <div className="stack">
          <section className="card" aria-labelledby="roles-h">
            <h2 id="roles-h">{t('roles.title')}</h2>
            {me.callings.length === 0 ? (
              <p className="muted">{t('roles.none')}</p>
            ) : (
              <ul className="plain-list">
                {me.callings.map((c, i) => (
                  <li key={i}>
                    {c.name} <span className="muted small">({t('roles.seat', { seat: c.slot_id })})</span>
                  </li>
                ))}
              </ul>
            )}
            <h3>{t('roles.canTitle')}</h3>
            {me.permissions.length ? (
              <ul className="plain-list">
                {me.permissions.map((p) => (
                  <li key={p}>{t(`roles.can.${p}`, { defaultValue: t(`common:permission.${p}`) })}</li>
                ))}
              </ul>
            ) : (
              <p>{t('roles.noAccess')}</p>
            )}
            <MyStewardship />
          </section>
          <EmailPreference />
          <PushDevices />
          <CalendarFeed />
          <Passkeys />
          <Sessions />
        </div>
      </div>
    </div>
  )
}
