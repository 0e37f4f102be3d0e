import { useQuery } from '@tanstack/react-query'
import { api } from '../../api/client'
import { useUsersLite, userName } from '../../api/queries'
import { STAGE_LABELS, type HistoryRow, type Stage } from '../../api/types'
import { Empty, ErrorMessage, formatDateTime, Loading } from '../../components/ui'

function byName(h: HistoryRow, users: ReturnType<typeof useUsersLite>['data']): string {
  return h.by_user ? `${h.by_user.fname} ${h.by_user.lname}` : userName(users, h.by)
}

const label = (s: Stage | null) => (s ? (STAGE_LABELS[s] ?? s) : 'Submitted')

export function HistorySection({ proposalId, stage }: { proposalId: number; stage: Stage }) {
  const users = useUsersLite()
  const history = useQuery({
    // The stage is part of the key so that a move refetches the timeline.
    queryKey: ['proposal-sub', proposalId, 'history', stage],
    queryFn: () => api<HistoryRow[]>(`/calling-kanban/proposals/${proposalId}/history`),
  })
  return (
    <section className="card history" aria-labelledby="history-h">
      <h2 id="history-h">History</h2>
      {history.isLoading && <Loading />}
      <ErrorMessage error={history.error} />
      {history.data && history.data.length === 0 && <Empty>No stage changes yet.</Empty>}
      <ol className="timeline">
        {history.data?.map((h, i) => (
          <li key={h.id ?? i}>
            <div className="timeline-dot" aria-hidden="true" />
            <div>
              <div>
                {h.from_stage ? (
                  <>
                    {label(h.from_stage)} → <strong>{label(h.to_stage)}</strong>
                  </>
                ) : (
                  <>
                    Submitted at <strong>{label(h.to_stage)}</strong>
                  </>
                )}
              </div>
              <div className="muted small">
                {formatDateTime(h.at)} by {byName(h, users.data)}
              </div>
              {h.note && <div className="small">{h.note}</div>}
            </div>
          </li>
        ))}
      </ol>
    </section>
  )
}
