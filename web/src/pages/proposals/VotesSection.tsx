import { useMutation, useQuery } from '@tanstack/react-query'
import { api, ApiError } from '../../api/client'
import { useUsersLite, userName } from '../../api/queries'
import { STAGE_LABELS, isVotingStage, type Proposal, type Vote } from '../../api/types'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, formatDateTime, Loading } from '../../components/ui'
import { RemindButton } from '../../components/RemindButton'

export function VotesSection({
  proposal: p,
  canVote,
  onChanged,
}: {
  proposal: Proposal
  canVote: boolean
  onChanged(): void
}) {
  const notify = useNotify()
  const users = useUsersLite()
  const votes = useQuery({
    queryKey: ['proposal-sub', p.id, 'approvals'],
    queryFn: () => api<Vote[]>(`/calling-kanban/proposals/${p.id}/approvals`),
  })
  const vote = useMutation({
    mutationFn: (approved: boolean) =>
      api(`/calling-kanban/proposals/${p.id}/approvals`, { method: 'POST', query: { approved } }),
    onSuccess: (_d, approved) => notify(approved ? 'Approval recorded.' : 'Rejection recorded.', 'success'),
    onError: (err) =>
      notify(
        err instanceof ApiError && err.code === 'wrong_stage'
          ? 'Voting has closed at this stage.'
          : (err as Error).message,
        'error',
      ),
    onSettled: onChanged,
  })
  const votingStage = isVotingStage(p.stage)

  return (
    <section className="card" aria-labelledby="votes-h">
      <h2 id="votes-h">Votes</h2>
      <RemindButton proposalId={p.id} stage={p.stage} />
      {votingStage && (
        <p>
          At <strong>{STAGE_LABELS[p.stage]}</strong>: <span className="vote-yes">{p.approvals.approved} approved</span>
          , <span className="vote-no">{p.approvals.rejected} rejected</span>.
          {canVote && (
            <>
              {' '}
              Your vote: <strong>{p.my_vote === true ? 'approve' : p.my_vote === false ? 'reject' : 'none yet'}</strong>
              .
            </>
          )}
        </p>
      )}
      {canVote && votingStage && (
        <div className="button-row">
          <button
            type="button"
            className={`button ${p.my_vote === true ? 'button-primary' : ''}`}
            aria-pressed={p.my_vote === true}
            disabled={vote.isPending}
            onClick={() => vote.mutate(true)}
          >
            Approve
          </button>
          <button
            type="button"
            className={`button ${p.my_vote === false ? 'button-danger' : ''}`}
            aria-pressed={p.my_vote === false}
            disabled={vote.isPending}
            onClick={() => vote.mutate(false)}
          >
            Reject
          </button>
        </div>
      )}
      {votes.isLoading && <Loading />}
      {votes.error && !(votes.error instanceof ApiError && votes.error.status === 403) && (
        <ErrorMessage error={votes.error} />
      )}
      {votes.data && votes.data.length === 0 && <Empty>No votes yet.</Empty>}
      {votes.data && votes.data.length > 0 && (
        <table className="table compact">
          <thead>
            <tr>
              <th scope="col">Voter</th>
              <th scope="col">Stage</th>
              <th scope="col">Vote</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {votes.data.map((v, i) => (
              <tr key={v.id ?? i}>
                <td>{v.approver ? `${v.approver.fname} ${v.approver.lname}` : userName(users.data, v.approver_id)}</td>
                <td>{STAGE_LABELS[v.stage] ?? v.stage}</td>
                <td className={v.approved ? 'vote-yes' : 'vote-no'}>{v.approved ? 'Approve' : 'Reject'}</td>
                <td>{formatDateTime(v.updated_at ?? v.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
