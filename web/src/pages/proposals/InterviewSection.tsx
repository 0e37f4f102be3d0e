import { useTranslation } from 'react-i18next'
import { useUsersLite, userName } from '../../api/users'
import type { PersonRef, Proposal } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { formatDateTime } from '../../components/ui'
import { can, isPresidency } from '../../auth/roles'
import { HeldForm } from './InterviewForms'
import { ScheduleInterview } from './ScheduleInterview'

export function InterviewSection({
  proposal: p,
  manager,
  suggested = null,
}: {
  proposal: Proposal
  manager: boolean
  /** The ward's high councilor, suggested as the interviewer of a call (docs/api-reference.md §18). */
  suggested?: PersonRef | null
}) {
  const { t } = useTranslation('proposal')
  const me = useMe()
  const users = useUsersLite()
  const iv = p.interview
  const atInterview = p.stage === 'interview'
  const isInterviewer = iv?.interviewer_id === me.id

  return (
    <section className="card" aria-labelledby="interview-h">
      <h2 id="interview-h">{t('interview.title')}</h2>
      {iv ? (
        <dl className="details">
          <dt>{t('interview.interviewer')}</dt>
          <dd>{iv.interviewer_id === me.id ? t('common:you') : userName(users.data, iv.interviewer_id)}</dd>
          {iv.scheduled_for && (
            <>
              <dt>{t('interview.scheduledFor')}</dt>
              <dd>{formatDateTime(iv.scheduled_for)}</dd>
            </>
          )}
          <dt>{t('interview.heldOn')}</dt>
          <dd>{iv.interview_date ? formatDateTime(iv.interview_date) : t('interview.notYet')}</dd>
        </dl>
      ) : (
        <p className="muted">{t('interview.noInterviewer')}</p>
      )}
      {atInterview && !iv?.interview_date && (
        <ScheduleInterview
          proposal={p}
          suggested={suggested}
          canSet={manager}
          canLink={can(me, 'proposals.manage') || isPresidency(me)}
          interviewer={iv ? userName(users.data, iv.interviewer_id) : null}
        />
      )}
      {atInterview && iv && (manager || isInterviewer) && <HeldForm proposalId={p.id} />}
    </section>
  )
}
