import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSpeakingFeed, webcalUrl } from '../../api/feed'
import { ConfirmDialog } from '../../components/Dialog'
import { CopyButton } from '../../components/CopyButton'
import { QrCode } from '../../components/QrCode'
import { ErrorMessage, Field, formatDateTime } from '../../components/ui'

/** Profile → Calendar: a private address for the speaking schedule in the user's own calendar app (docs/api-reference.md §13). */
export function CalendarFeed() {
  const { t } = useTranslation('calendar')
  const { url, status, create, revoke } = useSpeakingFeed()
  const [confirmRevoke, setConfirmRevoke] = useState(false)
  const [revoked, setRevoked] = useState(false)
  const webcal = url ? webcalUrl(url) : null
  return (
    <section className="card" aria-labelledby="calendar-h">
      <h2 id="calendar-h">{t('title')}</h2>
      <p className="muted">{t('intro')}</p>
      {status && (
        <p data-testid="feed-status">
          {status.active && status.created_at
            ? t('activeSince', { date: formatDateTime(status.created_at) })
            : t('noFeed')}
        </p>
      )}
      <ErrorMessage error={create.error ?? revoke.error} />
      {url && webcal && (
        <div className="stack">
          <Field label={t('address')} hint={t('addressHint')}>
            <input readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <div className="button-row">
            <a className="button button-primary" href={webcal}>
              {t('subscribe')}
            </a>
            <CopyButton text={url} label={t('copyLink')} copied={t('copied')} failed={t('copyFailed')} />
          </div>
          <figure className="qr-figure">
            <QrCode className="qr-code" text={webcal} label={t('qrLabel')} />
            <figcaption className="muted small">{t('qrCaption')}</figcaption>
          </figure>
          <p className="muted small qr-link">
            <a href={webcal}>{webcal}</a>
          </p>
        </div>
      )}
      {revoked && !url && <p role="status">{t('revoked')}</p>}
      <div className="button-row">
        <button
          type="button"
          className="button"
          disabled={create.isPending}
          onClick={() => {
            setRevoked(false)
            create.mutate()
          }}
        >
          {create.isPending ? t('working') : url ? t('replace') : t('create')}
        </button>
        {/* Nothing to destroy without an address: no red button then. */}
        {(url || status?.active) && (
          <button type="button" className="button button-danger" onClick={() => setConfirmRevoke(true)}>
            {t('revoke')}
          </button>
        )}
      </div>
      <ConfirmDialog
        open={confirmRevoke}
        onOpenChange={setConfirmRevoke}
        title={t('revokeTitle')}
        message={t('revokeMessage')}
        confirmLabel={t('revoke')}
        danger
        busy={revoke.isPending}
        onConfirm={() =>
          revoke.mutate(undefined, {
            onSuccess: () => {
              setConfirmRevoke(false)
              setRevoked(true)
            },
          })
        }
      />
    </section>
  )
}
