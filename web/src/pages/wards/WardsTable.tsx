import { useTranslation } from 'react-i18next'
import { stewardOf, useStewardships } from '../../api/stewardships'
import type { Ward } from '../../api/types'
import { useUsersLite, userName } from '../../api/users'
import { formatMeetingTime } from '../../components/ui'

/** The wards, their meeting times, bishops and stewards; edit and delete for a wards.manage holder. */
export function WardsTable(props: { wards: Ward[]; manage: boolean; onEdit(w: Ward): void; onDelete(w: Ward): void }) {
  const { t } = useTranslation('wards')
  const users = useUsersLite()
  const stewardships = useStewardships()
  const { manage } = props
  return (
    <div className="table-scroll table-scroll-cards">
      <table className="table table-cards">
        <thead>
          <tr>
            <th scope="col">{t('ward')}</th>
            <th scope="col">{t('meetingTime')}</th>
            <th scope="col">{t('bishop')}</th>
            <th scope="col">{t('stewardships.steward')}</th>
            {manage && (
              <th scope="col">
                <span className="visually-hidden">{t('common:actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {props.wards.map((w) => (
            <tr key={w.id}>
              <td className="cell-title">{w.name}</td>
              <td data-label={t('meetingTime')}>{formatMeetingTime(w.start_time)}</td>
              <td data-label={t('bishop')}>
                {w.bishop_id ? userName(users.data, w.bishop_id) : <span className="muted">{t('common:vacant')}</span>}
              </td>
              <td data-label={t('stewardships.steward')}>
                {(() => {
                  const hc = stewardOf(stewardships.data, w.id)?.high_councilor
                  return hc ? `${hc.fname} ${hc.lname}` : <span className="muted">—</span>
                })()}
              </td>
              {manage && (
                <td className="actions-cell">
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => props.onEdit(w)}
                    aria-label={t('editTitle', { name: w.name })}
                  >
                    {t('common:edit')}
                  </button>
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => props.onDelete(w)}
                    aria-label={t('deleteLabel', { name: w.name })}
                  >
                    {t('common:delete')}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
