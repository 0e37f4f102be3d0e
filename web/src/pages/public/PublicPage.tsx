import { Link, useParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import { usePublicCallings } from '../../api/callings'
import { ApiError } from '../../api/client'
import { useStake } from '../../api/stake'
import { usePublicWards } from '../../api/wards'
import { useAuth } from '../../auth/AuthProvider'
import { Empty, ErrorMessage, formatMeetingTime, Loading } from '../../components/ui'
import { ROUTES } from '../../routes'
import { useDocumentTitle } from '../../components/docTitle'

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

/**
 * Whose public page this is (docs/api-reference.md §14): the stake its address
 * names (`/s/<slug>`), else a signed-in user's own stake (never the
 * deployment's default), else the default stake. `stake` is sent as `?stake=`;
 * nothing is asked until it is known.
 */
function usePublicStake(): { stake: string | undefined; ready: boolean; error: unknown } {
  const { slug } = useParams()
  const { status, me } = useAuth()
  const own = useStake(!slug && !!me)
  if (slug) return { stake: slug, ready: true, error: null }
  if (status === 'loading') return { stake: undefined, ready: false, error: null }
  if (!me) return { stake: undefined, ready: true, error: null }
  return { stake: own.data && String(own.data.id), ready: own.data !== undefined, error: own.error }
}

/** For visitors: always asked anonymously, so it shows exactly what the public sees of that stake. */
export default function PublicPage() {
  const { t } = useTranslation('public')
  const { me } = useAuth()
  useDocumentTitle(t('title'))
  const { stake, ready, error } = usePublicStake()
  const wards = usePublicWards(stake, ready)
  const missing = wards.error instanceof ApiError && wards.error.status === 404
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
        <h1>{missing ? t('noStake') : t('title')}</h1>
        <ErrorMessage error={error} />
        {missing ? (
          <p>
            {t('noStakeText')} <a href="/">{t('common:page.goStart')}</a>
          </p>
        ) : (
          <div className="public-grid">
            <section className="card" aria-labelledby="pub-wards">
              <h2 id="pub-wards">{t('wards')}</h2>
              {(wards.isLoading || (!ready && !error)) && <Loading />}
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
            <PublicLeaders stake={stake} ready={ready} />
          </div>
        )}
      </main>
    </div>
  )
}

function PublicLeaders({ stake, ready }: { stake: string | undefined; ready: boolean }) {
  const { t } = useTranslation('public')
  const callings = usePublicCallings(stake, ready)
  return (
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
  )
}
