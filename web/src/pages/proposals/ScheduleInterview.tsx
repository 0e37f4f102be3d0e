import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PersonRef, Proposal } from '../../api/types'
import { BookingLink } from './BookingLink'
import { ScheduleForm } from './InterviewForms'

type Way = 'time' | 'link'

/**
 * "Schedule interview" in one place: set a time with an interviewer, or send
 * the member a calling-interview booking link; a time booked through the link
 * becomes the proposal's interview. Who may do neither sees nothing.
 */
export function ScheduleInterview({
  proposal: p,
  suggested,
  canSet,
  canLink,
  interviewer,
}: {
  proposal: Proposal
  suggested: PersonRef | null
  canSet: boolean
  canLink: boolean
  /** The interviewer's name when one is chosen: the link offers that person's free times. */
  interviewer: string | null
}) {
  // The link's words load with the choice, so picking the link does not wait for them.
  const { t } = useTranslation(['proposal', 'interviews'])
  const [way, setWay] = useState<Way>(canSet ? 'time' : 'link')
  if (!canSet && !canLink) return null
  const both = canSet && canLink
  return (
    <div className="schedule-interview">
      <h3>{t('interview.schedule')}</h3>
      {both && (
        <fieldset className="field radio-group">
          <legend>{t('interview.how')}</legend>
          {(['time', 'link'] as const).map((w) => (
            <label key={w}>
              <input type="radio" name="interview-way" value={w} checked={way === w} onChange={() => setWay(w)} />{' '}
              {t(w === 'time' ? 'interview.wayTime' : 'interview.wayLink')}
            </label>
          ))}
        </fieldset>
      )}
      {way === 'time' && canSet ? (
        <ScheduleForm proposal={p} suggested={suggested} />
      ) : (
        <BookingLink proposal={p} interviewer={interviewer} />
      )}
    </div>
  )
}
