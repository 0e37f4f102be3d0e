import { Trans, useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useApprovals, useVote } from '../../api/proposals'
import { useUsersLite, userName } from '../../api/users'
import { isVotingStage, type Proposal } from '../../api/types'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, formatDateTime, Loading } from '../../components/ui'
import { RemindButton } from '../../components/RemindButton'

export function VotesSection({ proposal: p, canVote }: { proposal: Proposal; canVote: boolean }) {
  const { t } = useTranslation('proposal')
  const notify = useNotify()
  const users = useUsersLite()
  const votes = useApprovals(p.id)
  const vote = useVote({
    onSuccess: (_d, { approved }) =>
      notify(approved ? t('votes.approvalRecorded') : t('votes.rejectionRecorded'), 'success'),
    onError: (err) =>
      notify(
        err instanceof ApiError && err.code === 'wrong_stage' ? t('votes.closed') : (err as Error).message,
        'error',
      ),
  })
  const votingStage = isVotingStage(p.stage)

  return (
    <section className="card" aria-labelledby="votes-h">
      <h2 id="votes-h">{t('votes.title')}</h2>
      {votingStage && (
        <p>
          <Trans
            t={t}
            i18nKey="votes.tally"
            values={{
              stage: t(`common:stage.${p.stage}`),
              approved: p.approvals.approved,
              rejected: p.approvals.rejected,
            }}
            components={{ b: <strong />, yes: <span className="vote-yes" />, no: <span className="vote-no" /> }}
          />
          {canVote && (
            <>
              {' '}
              <Trans
                t={t}
                i18nKey="votes.yours"
                values={{
                  vote:
                    p.my_vote === true
                      ? t('votes.approveLower')
                      : p.my_vote === false
                        ? t('votes.rejectLower')
                        : t('votes.noneYet'),
                }}
                components={{ b: <strong /> }}
              />
            </>
          )}
        </p>
      )}
      <RemindButton proposalId={p.id} stage={p.stage} />
      {canVote && votingStage && (
        <div className="button-row">
          <button
            type="button"
            className={`button ${p.my_vote === true ? 'button-primary' : ''}`}
            aria-pressed={p.my_vote === true}
            disabled={vote.isPending}
            onClick={() => vote.mutate({ proposal: p, approved: true })}
          >
            {t('votes.approve')}
          </button>
          <button
            type="button"
            className={`button ${p.my_vote === false ? 'button-danger' : ''}`}
            aria-pressed={p.my_vote === false}
            disabled={vote.isPending}
            onClick={() => vote.mutate({ proposal: p, approved: false })}
          >
            {t('votes.reject')}
          </button>
        </div>
      )}
      {votes.isLoading && <Loading />}
      {votes.error && !(votes.error instanceof ApiError && votes.error.status === 403) && (
        <ErrorMessage error={votes.error} />
      )}
      {votes.data && votes.data.length === 0 && <Empty>{t('votes.none')}</Empty>}
      {votes.data && votes.data.length > 0 && (
        <table className="table compact">
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
                <td>{v.approver ? `${v.approver.fname} ${v.approver.lname}` : userName(users.data, v.approver_id)}</td>
                <td>{t(`common:stage.${v.stage}`, { defaultValue: v.stage })}</td>
                <td className={v.approved ? 'vote-yes' : 'vote-no'}>
                  {v.approved ? t('votes.approved') : t('votes.rejected')}
                </td>
                <td>{formatDateTime(v.updated_at ?? v.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
