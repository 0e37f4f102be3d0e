import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useApprovals } from '../../api/proposals'
import { useUsersLite, userName } from '../../api/users'
import { Empty, ErrorMessage, formatDateTime, Loading } from '../../components/ui'

/** Every vote cast on the proposal that the caller may see: who, at which stage, which way, when. */
export function VotesTable({ proposalId }: { proposalId: number }) {
  const { t } = useTranslation('proposal')
  const users = useUsersLite()
  const votes = useApprovals(proposalId)
  return (
    <>
      {votes.isLoading && <Loading />}
      {votes.error && !(votes.error instanceof ApiError && votes.error.status === 403) && (
        <ErrorMessage error={votes.error} />
      )}
      {votes.data && votes.data.length === 0 && <Empty>{t('votes.none')}</Empty>}
      {votes.data && votes.data.length > 0 && (
        <table className="table compact table-cards">
          <thead>
            <tr>
              <th scope="col">{t('votes.voter')}</th>
              <th scope="col">{t('stage')}</th>
              <th scope="col">{t('votes.vote')}</th>
              <th scope="col">{t('votes.when')}</th>
            </tr>
          </thead>
          <tbody>
            {votes.data.map((v, i) => (
              <tr key={v.id ?? i}>
                <td className="cell-title">
                  {v.approver ? `${v.approver.fname} ${v.approver.lname}` : userName(users.data, v.approver_id)}
                </td>
                <td data-label={t('stage')}>{t(`common:stage.${v.stage}`, { defaultValue: v.stage })}</td>
                <td data-label={t('votes.vote')} className={v.approved ? 'vote-yes' : 'vote-no'}>
                  {v.approved ? t('votes.approved') : t('votes.rejected')}
                </td>
                <td data-label={t('votes.when')}>{formatDateTime(v.updated_at ?? v.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}
