import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  PushDenied,
  pushSupported,
  useEnablePush,
  usePushDevices,
  useRemovePushDevice,
  useTestPush,
  useThisDevice,
  type PushDevice,
} from '../../api/push'
import { ConfirmDialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, formatDateTime, Loading } from '../../components/ui'

/**
 * Profile → Push notifications: opt in per device, see the devices
 * that receive them, send a test, turn one off. Pushes carry what the inbox
 * shows, to the devices listed here only.
 */
export function PushDevices() {
  const { t } = useTranslation('profile')
  const notify = useNotify()
  const devices = usePushDevices()
  const here = useThisDevice()
  const enable = useEnablePush()
  const remove = useRemovePushDevice()
  const test = useTestPush()
  const [removing, setRemoving] = useState<PushDevice | null>(null)
  const supported = pushSupported()
  const thisOne = devices.data?.find((d) => here.data && d.endpoint === here.data)
  const denied = enable.error instanceof PushDenied

  return (
    <section className="card" aria-labelledby="push-h" data-testid="push-devices">
      <h2 id="push-h">{t('push.title')}</h2>
      <p className="muted">{t('push.intro')}</p>
      {!supported && <p>{t('push.unsupported')}</p>}
      {devices.isLoading && <Loading />}
      <ErrorMessage error={devices.error ?? (denied ? null : enable.error) ?? test.error} />
      {denied && (
        <p className="error-box" role="alert">
          {t('push.denied')}
        </p>
      )}
      {supported && !thisOne && (
        <button
          type="button"
          className="button button-primary"
          disabled={enable.isPending}
          onClick={() => enable.mutate(undefined, { onSuccess: () => notify(t('push.enabled'), 'success') })}
        >
          {enable.isPending ? t('push.enabling') : t('push.enable')}
        </button>
      )}
      {devices.data && devices.data.length > 0 && (
        <ul className="plain-list stack">
          {devices.data.map((d) => (
            <li key={d.id} data-device={d.id}>
              <strong>{d.label}</strong>
              {d.id === thisOne?.id && <span className="badge">{t('push.thisDevice')}</span>}
              <span className="muted small">
                {' · '}
                {t('push.since', { date: formatDateTime(d.created_at) })}
              </span>{' '}
              <button
                type="button"
                className="button small"
                disabled={test.isPending}
                onClick={() =>
                  test.mutate(d.id, {
                    onSuccess: ({ outcome }) =>
                      notify(t(`push.test.${outcome}`), outcome === 'sent' ? 'success' : 'error'),
                  })
                }
              >
                {t('push.sendTest')}
                <span className="visually-hidden"> {d.label}</span>
              </button>{' '}
              <button type="button" className="button small" onClick={() => setRemoving(d)}>
                {t('push.turnOff')}
                <span className="visually-hidden"> {d.label}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t('push.confirmTitle')}
        message={t('push.confirmMessage', { device: removing?.label ?? '' })}
        confirmLabel={t('push.turnOff')}
        danger
        busy={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing, {
            onSuccess: () => {
              setRemoving(null)
              notify(t('push.removed'), 'success')
            },
          })
        }
      />
    </section>
  )
}
