import { useEffect } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { usePublicCallings } from '../../api/callings'
import { usePublicWards } from '../../api/wards'
import { useAuth } from '../../auth/AuthProvider'
import { Empty, ErrorMessage, formatMeetingTime, Loading } from '../../components/ui'
import { ROUTES } from '../../routes'

/** The stake's offices in the order people name them; other callings follow, by name (as the server sorts them). */
const OFFICE_ORDER = [
  'stake_president',
  'stake_first_counselor',
  'stake_second_counselor',
  'stake_executive_secretary',
  'stake_clerk',
  'high_councilor',
  'bishop',
]
const rank = (key: string | null) => {
  const i = key ? OFFICE_ORDER.indexOf(key) : -1
  return i === -1 ? OFFICE_ORDER.length : i
}

/** For visitors: always asked anonymously, so it shows exactly what the public sees. */
export default function PublicPage() {
  const { t } = useTranslation('public')
  const { me } = useAuth()
  useEffect(() => {
    document.title = `${t('title')} · ${t('common:appName')}`
  }, [t])
  const callings = usePublicCallings()
  const wards = usePublicWards()
  return (
    <div className="public-page">
      <header className="topbar">
        <span className="brand">{t('common:appShort')}</span>
        <span className="spacer" />
        {me ? (
          <Link to={ROUTES.board} className="button button-small">
            {t('openBoard')}
          </Link>
        ) : (
          <Link to={ROUTES.signIn} className="button button-small button-primary">
            {t('common:signIn.submit')}
          </Link>
        )}
      </header>
      <main id="main" className="content">
        <h1>{t('title')}</h1>
        <div className="public-grid">
          <section className="card" aria-labelledby="pub-wards">
            <h2 id="pub-wards">{t('wards')}</h2>
            {wards.isLoading && <Loading />}
            <ErrorMessage error={wards.error} />
            {wards.data && wards.data.length === 0 && <Empty>{t('noWards')}</Empty>}
            <ul className="plain-list">
              {wards.data?.map((w) => (
                <li key={w.id}>
                  <strong>{w.name}</strong>
                  <span className="muted"> · {t('sacrament', { time: formatMeetingTime(w.start_time) })}</span>
                </li>
              ))}
            </ul>
          </section>
          <section className="card" aria-labelledby="pub-callings">
            <h2 id="pub-callings">{t('leaders')}</h2>
            {callings.isLoading && <Loading />}
            <ErrorMessage error={callings.error} />
            {callings.data && callings.data.length === 0 && <Empty>{t('noCallings')}</Empty>}
            <ul className="plain-list">
              {[...(callings.data ?? [])]
                .sort((a, b) => rank(a.key) - rank(b.key))
                .map((c) => {
                  const holders = c.slots.filter((s) => s.user).map((s) => `${s.user!.fname} ${s.user!.lname}`)
                  return (
                    <li key={c.id}>
                      <strong>{c.name}</strong>
                      <span className="muted"> · {holders.length ? holders.join(', ') : t('common:vacant')}</span>
                    </li>
                  )
                })}
            </ul>
          </section>
        </div>
      </main>
    </div>
  )
}
