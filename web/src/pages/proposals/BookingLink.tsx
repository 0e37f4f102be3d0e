import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useCreateOffer } from '../../api/appointments'
import type { Proposal } from '../../api/types'
import { CopyButton } from '../../components/CopyButton'
import { ErrorMessage, Field } from '../../components/ui'
import { DurationField } from '../interviews/DurationField'

/**
 * A booking link for a proposal's interview (docs/api-reference.md §18), on
 * the proposal's page: the person chooses one of the interviewer's free
 * times, and the interview takes the time booked. The link is shown once.
 */
export function BookingLink({ proposal: p, interviewer }: { proposal: Proposal; interviewer: string | null }) {
  const { t } = useTranslation('interviews')
  const [email, setEmail] = useState('')
  const [duration, setDuration] = useState('30')
  const [url, setUrl] = useState<string | null>(null)
  const create = useCreateOffer({ onSuccess: (created) => setUrl(created.url) })
  // A phone's share sheet (WhatsApp, Messages, mail) where the browser has one.
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function'
  const name = `${p.fname} ${p.lname}`
  return (
    <form
      className="form-grid booking-link"
      aria-labelledby="booking-link-h"
      onSubmit={(e) => {
        e.preventDefault()
        setUrl(null)
        create.mutate({
          kind: 'proposal',
          proposal_id: p.id,
          email: email.trim() || null,
          interviewer_id: p.interview?.interviewer_id ?? null,
          duration_minutes: Number(duration),
        })
      }}
    >
      <h3 id="booking-link-h" className="span-2">
        {t('offer')}
      </h3>
      <p className="muted small span-2">
        {interviewer ? t('offerFor', { name, interviewer }) : t('offerForPresidency', { name })}
      </p>
      <Field label={t('email')} hint={t('emailHint')}>
        <input type="email" value={email} maxLength={254} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <DurationField value={duration} onChange={setDuration} />
      <div className="span-2">
        <ErrorMessage error={create.error} />
      </div>
      <div className="form-actions span-2">
        <button type="submit" className="button" disabled={create.isPending}>
          {t('makeLink')}
        </button>
      </div>
      {url && (
        <div className="span-2">
          <Field label={t('link')} hint={t('linkHint')}>
            <input readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <div className="button-row">
            <CopyButton text={url} label={t('copy')} copied={t('copied')} />
            {canShare && (
              <button
                type="button"
                className="button"
                onClick={() => void navigator.share({ title: t('shareTitle'), url }).catch(() => undefined)}
              >
                {t('share')}
              </button>
            )}
          </div>
        </div>
      )}
    </form>
  )
}
