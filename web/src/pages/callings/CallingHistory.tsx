import { useTranslation } from 'react-i18next'
import { useCallingHistory } from '../../api/callings'
import { useUsersLite, userName } from '../../api/users'
import { ListStates } from '../../components/lists'
import { formatDateTime } from '../../components/ui'

/** Who held the calling's seats, and from when to when. */
export function CallingHistory({ id }: { id: number }) {
  const { t } = useTranslation('callings')
  const history = useCallingHistory(id)
  const users = useUsersLite()
  return (
    <section className="card" aria-labelledby="chist-h">
      <h2 id="chist-h">{t('calling.history')}</h2>
      <ListStates query={history} items={history.data} empty={t('calling.noHistory')}>
        {(items) => (
          <ol className="timeline">
            {items.map((h, i) => (
              <li key={h.id ?? i}>
                <div className="timeline-dot" aria-hidden="true" />
                <div>
                  <div>
                    <strong>{h.user ? `${h.user.fname} ${h.user.lname}` : userName(users.data, h.user_id)}</strong>,{' '}
                    {t('calling.seatN', { seat: h.slot_id })}
                  </div>
                  <div className="muted small">
                    {formatDateTime(h.from)} – {h.to ? formatDateTime(h.to) : t('calling.now')}
                  </div>
                </div>
              </li>
            ))}
          </ol>
        )}
      </ListStates>
    </section>
  )
}
