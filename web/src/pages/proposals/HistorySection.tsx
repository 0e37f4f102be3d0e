import { Trans, useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { useProposalHistory } from '../../api/proposals'
import { useUsersLite, userName } from '../../api/users'
import type { HistoryRow, Stage } from '../../api/types'
import { Empty, ErrorMessage, formatDate, formatDateTime, Loading } from '../../components/ui'

function byName(h: HistoryRow, users: ReturnType<typeof useUsersLite>['data']): string {
  return h.by_user ? `${h.by_user.fname} ${h.by_user.lname}` : userName(users, h.by)
}

const label = (t: TFunction, s: Stage | null) => t(`common:stage.${s ?? 'submitted'}`)

/**
 * The notes the server writes itself are in English (they are data, shared by
 * every reader); the ones it is known to write are shown in the reader's
 * language. A decline's reason is someone's own words and is shown as typed.
 */
function noteText(t: TFunction, note: string): string {
  const approvals = /^(\d+) approvals, no rejection$/.exec(note)
  if (approvals) return t('history.notes.approvals', { count: Number(approvals[1]) })
  if (note === 'Interview completed') return t('history.notes.interviewCompleted')
  if (note === 'Interview not needed') return t('history.notes.interviewWaived')
  return note
}

export function HistorySection({ proposalId, stage }: { proposalId: number; stage: Stage }) {
  const { t } = useTranslation('proposal')
  const users = useUsersLite()
  const history = useProposalHistory(proposalId, stage)
  return (
    <section className="card history" aria-labelledby="history-h">
      <h2 id="history-h">{t('history.title')}</h2>
      {history.isLoading && <Loading />}
      <ErrorMessage error={history.error} />
      {history.data && history.data.length === 0 && <Empty>{t('history.none')}</Empty>}
      <ol className="timeline">
        {history.data?.map((h, i) => (
          <li key={h.id ?? i}>
            <div className="timeline-dot" aria-hidden="true" />
            <div>
              <div>
                {h.from_stage ? (
                  <>
                    {label(t, h.from_stage)} → <strong>{label(t, h.to_stage)}</strong>
                  </>
                ) : (
                  <>
                    <Trans
                      t={t}
                      i18nKey="history.submittedAt"
                      values={{ stage: label(t, h.to_stage) }}
                      components={{ b: <strong /> }}
                    />
                  </>
                )}
              </div>
              <div className="muted small">
                {t('history.by', { date: formatDateTime(h.at), name: byName(h, users.data) })}
              </div>
              {h.on_date && (
                <div className="small">{t('history.onDate', { date: formatDate(`${h.on_date}T12:00:00`) })}</div>
              )}
              {h.note && <div className="small">{noteText(t, h.note)}</div>}
            </div>
          </li>
        ))}
      </ol>
    </section>
  )
}
