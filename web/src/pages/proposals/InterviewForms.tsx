import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useCompleteInterview, useScheduleInterview } from '../../api/proposals'
import { useStake } from '../../api/stake'
import type { PersonRef, Proposal } from '../../api/types'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Field, splitError } from '../../components/ui'
import { UserPicker } from '../../components/UserPicker'
import { fromWallTime, toWallTime } from '../../i18n/format'

const FIELDS = ['interviewer_id', 'scheduled_for']

/** A manager sets the interviewer and, if known, the time (the ward's high councilor suggested for a call). */
export function ScheduleForm({ proposal: p, suggested }: { proposal: Proposal; suggested: PersonRef | null }) {
  const { t } = useTranslation('proposal')
  const notify = useNotify()
  const iv = p.interview
  const [picked, setInterviewer] = useState<number | null>(iv?.interviewer_id ?? null)
  // The suggestion may arrive after the page: it fills the choice until someone picks.
  const interviewer = picked ?? suggested?.id ?? null
  // The field keeps the stake's wall clock, whatever the browser's zone; the
  // stake may arrive after the page, so the time shown follows it until edited.
  const zone = useStake().data?.timezone
  const [edited, setWhen] = useState<string | null>(null)
  const when = edited ?? toWallTime(iv?.scheduled_for, zone)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const schedule = useScheduleInterview(p.id, {
    onSuccess: () => {
      notify(t('interview.scheduled'), 'success')
      setErrors({})
    },
    onError: (err) => setErrors(splitError(err, FIELDS).fields),
  })

  function onSchedule(e: FormEvent) {
    e.preventDefault()
    if (interviewer == null) {
      setErrors({ interviewer_id: t('interview.chooseInterviewer') })
      return
    }
    setErrors({})
    schedule.mutate({ interviewer_id: interviewer, scheduled_for: fromWallTime(when, zone) })
  }
  const general = schedule.error ? splitError(schedule.error, FIELDS).general : null

  return (
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
      {general && <p className="error-box span-2">{general}</p>}
      <div className="form-actions span-2">
        <button type="submit" className="button button-primary" disabled={schedule.isPending}>
          {iv ? t('interview.update') : t('interview.schedule')}
        </button>
      </div>
    </form>
  )
}

/** The interviewer (or a manager) says the interview was held, and when (now when left empty). */
export function HeldForm({ proposalId }: { proposalId: number }) {
  const { t } = useTranslation('proposal')
  const notify = useNotify()
  const zone = useStake().data?.timezone
  const [completedOn, setCompletedOn] = useState('')
  const complete = useCompleteInterview(proposalId, {
    onSuccess: () => notify(t('interview.completed'), 'success'),
  })
  return (
    <form
      className="form-grid complete-form"
      onSubmit={(e) => {
        e.preventDefault()
        complete.mutate(fromWallTime(completedOn, zone))
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
  )
}
