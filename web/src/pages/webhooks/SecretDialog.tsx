import { useTranslation } from 'react-i18next'
import type { CreatedWebhook } from '../../api/webhooks'
import { Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Field } from '../../components/ui'

/** Shown once after creation: the signing secret, with a copy button and a plain warning. */
export function SecretDialog({ created, onClose }: { created: CreatedWebhook | null; onClose(): void }) {
  const { t } = useTranslation('webhooks')
  const notify = useNotify()
  return (
    <Dialog open={created !== null} onOpenChange={(o) => !o && onClose()} title={t('secret.title')}>
      {created && (
        <div className="stack">
          <p className="error-box" role="alert">
            {t('secret.warning')}
          </p>
          <p className="muted">{t('secret.explain')}</p>
          <div className="secret">
            <Field label={t('secret.label')}>
              <input
                readOnly
                value={created.secret}
                data-testid="webhook-secret"
                onFocus={(e) => e.currentTarget.select()}
              />
            </Field>
            <button
              type="button"
              className="button"
              onClick={() =>
                void navigator.clipboard?.writeText(created.secret).then(
                  () => notify(t('secret.copied'), 'success'),
                  () => notify(t('secret.copyFailed'), 'error'),
                )
              }
            >
              {t('secret.copy')}
            </button>
          </div>
          <div className="dialog-actions">
            <button type="button" className="button button-primary" onClick={onClose}>
              {t('secret.done')}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  )
}
