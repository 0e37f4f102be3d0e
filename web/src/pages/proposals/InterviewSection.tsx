import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useCompleteInterview, useScheduleInterview } from '../../api/proposals'
import { useUsersLite, userName } from '../../api/users'
import type { PersonRef, Proposal } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Field, formatDateTime, splitError } from '../../components/ui'
import { UserPicker } from '../../components/UserPicker'
import { can, isPresidency } from '../../auth/roles'
import { BookingLink } from './BookingLink'

/** `datetime-local` gives local wall time; the API wants an ISO instant. */
function localToIso(v: string): string | undefined {
  if (!v) return undefined
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString()
}

function isoToLocal(iso: string | null | undefined): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const off = d.getTimezoneOffset() * 60000
  return new Date(d.getTime() - off).toISOString().slice(0, 16)
}

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
  const notify = useNotify()
  const users = useUsersLite()
  const iv = p.interview
  const [picked, setInterviewer] = useState<number | null>(iv?.interviewer_id ?? null)
  // The suggestion may arrive after the page: it fills the choice until someone picks.
  const interviewer = picked ?? suggested?.id ?? null
  const [when, setWhen] = useState(isoToLocal(iv?.scheduled_for))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [completedOn, setCompletedOn] = useState('')
  const atInterview = p.stage === 'interview'
  const isInterviewer = iv?.interviewer_id === me.id

  const schedule = useScheduleInterview(p.id, {
    onSuccess: () => {
      notify(t('interview.scheduled'), 'success')
      setErrors({})
    },
    onError: (err) => setErrors(splitError(err, ['interviewer_id', 'scheduled_for']).fields),
  })
  const complete = useCompleteInterview(p.id, {
    onSuccess: () => notify(t('interview.completed'), 'success'),
  })

  function onSchedule(e: FormEvent) {
    e.preventDefault()
    if (interviewer == null) {
      setErrors({ interviewer_id: t('interview.chooseInterviewer') })
      return
    }
    setErrors({})
    schedule.mutate({ interviewer_id: interviewer, scheduled_for: localToIso(when) })
  }

  const scheduleGeneral = schedule.error
    ? splitError(schedule.error, ['interviewer_id', 'scheduled_for']).general
    : null

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
      {manager && atInterview && (
        <form onSubmit={onSchedule} noValidate className="form-grid">
          <UserPicker
            label={t('interview.interviewer')}
            value={interviewer}
            onChange={setInterviewer}
            error={errors.interviewer_id}
          />
          {p.kind === 'ordination' ? (
            <p className="muted small span-2 steward-hint">{t('interview.presidencyOnly')}</p>
          ) : (
            suggested &&
            !iv && (
              <p className="muted small span-2 steward-hint">
                {t('interview.suggested', { name: `${suggested.fname} ${suggested.lname}` })}
              </p>
            )
          )}
          <Field label={t('interview.scheduledFor')} error={errors.scheduled_for} hint={t('interview.optional')}>
            <input type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} />
          </Field>
          {scheduleGeneral && <p className="error-box span-2">{scheduleGeneral}</p>}
          <div className="form-actions span-2">
            <button type="submit" className="button button-primary" disabled={schedule.isPending}>
              {iv ? t('interview.update') : t('interview.schedule')}
            </button>
          </div>
        </form>
      )}
      {atInterview && iv && !iv.interview_date && (can(me, 'proposals.manage') || isPresidency(me)) && (
        <BookingLink proposal={p} interviewer={userName(users.data, iv.interviewer_id)} />
      )}
      {atInterview && iv && (manager || isInterviewer) && (
        <form
          className="form-grid complete-form"
          onSubmit={(e) => {
            e.preventDefault()
            complete.mutate(localToIso(completedOn))
          }}
        >
          <Field label={t('interview.heldOn')} hint={t('interview.leaveEmpty')}>
            <input type="datetime-local" value={completedOn} onChange={(e) => setCompletedOn(e.target.value)} />
          </Field>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={complete.isPending}>
              {t('interview.complete')}
            </button>
          </div>
          <ErrorMessage error={complete.error} />
        </form>
      )}
    </section>
  )
}
