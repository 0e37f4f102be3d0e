import { useTranslation } from 'react-i18next'
import { useShownData } from '../api/freshness'
import { formatTime } from '../i18n/format'
import { useOnline, useWaitingChanges } from './connection'

/**
 * Shown while the server cannot be reached; goes away by itself on recovery.
 * One message for the whole app: the pages keep the data they showed, marked
 * as not up to date (since when), a page with nothing yet says it waits, and
 * changes made meanwhile are counted as waiting to be sent. (A change that
 * failed in flight is not resent, it may have reached the server: its own
 * page says it was not recorded.)
 */
export function OfflineBanner() {
  const online = useOnline()
  return (
    <div role="status" aria-live="polite" className="offline-slot">
      {!online && <Offline />}
    </div>
  )
}

function Offline() {
  const { t } = useTranslation()
  const { since, waiting, held } = useShownData()
  const changes = useWaitingChanges() + held
  return (
    <div className="offline-banner">
      <strong>{t('offline.title')}</strong>{' '}
      {since !== null && (
        <span className="stale-mark">{t('offline.stale', { time: formatTime(new Date(since).toISOString()) })}</span>
      )}{' '}
      {waiting && <span>{t('offline.waitingPage')}</span>}{' '}
      {changes > 0 ? <span>{t('offline.changes', { count: changes })}</span> : <span>{t('offline.text')}</span>}
    </div>
  )
}
