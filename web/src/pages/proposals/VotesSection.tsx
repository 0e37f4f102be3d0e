import { Trans, useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useVote } from '../../api/proposals'
import { isVotingStage, type Proposal } from '../../api/types'
import { useNotify } from '../../components/Notice'
import { RemindButton } from '../../components/RemindButton'
import { VotesTable } from './VotesTable'

export function VotesSection({ proposal: p, canVote }: { proposal: Proposal; canVote: boolean }) {
  const { t } = useTranslation('proposal')
  const notify = useNotify()
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
      <VotesTable proposalId={p.id} />
    </section>
  )
}
