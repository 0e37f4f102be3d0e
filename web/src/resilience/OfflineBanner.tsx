import { useOnline } from './connection'

/** Shown while the server cannot be reached; goes away by itself on recovery. */
export function OfflineBanner() {
  const online = useOnline()
  return (
    <div role="status" aria-live="polite" className="offline-slot">
      {!online && (
        <div className="offline-banner">
          <strong>You're offline — changes will be retried.</strong>{' '}
          <span>What you see may be out of date until the connection is back.</span>
        </div>
      )}
    </div>
  )
}
