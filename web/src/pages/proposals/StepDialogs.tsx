import { todayIn } from '../../i18n/format'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useCompleteInterview, useDatedStep, useWaiveInterview, type DatedStep } from '../../api/proposals'
import type { Proposal } from '../../api/types'
import { Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Field } from '../../components/ui'

const TITLE: Record<DatedStep, string> = {
  set_apart: 'step.titleSetApart',
  ordain: 'step.titleOrdain',
  record: 'step.titleRecord',
}

interface Props {
  proposal: Proposal
  open: boolean
  onOpenChange(open: boolean): void
}

/**
 * Set apart, ordained, recorded: a small confirmation that asks the day it
 * happened (default today), so one stray click does not close a step
 * (docs/api-reference.md §7, `?date=`).
 */
export function DatedStepDialog({ proposal: p, open, onOpenChange }: Props) {
  const { t } = useTranslation('proposal')
  const notify = useNotify()
  const [date, setDate] = useState(() => todayIn())
  const step = p.stage as DatedStep
  const run = useDatedStep(p.id, {
    onSuccess: () => {
      onOpenChange(false)
      notify(t('stageChanged'), 'success')
    },
  })
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t(TITLE[step] ?? 'step.titleRecord')}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          run.mutate({ step, date: date || undefined })
        }}
      >
        <Field label={t('step.date')} hint={t('step.dateHint')}>
          <input type="date" value={date} max={todayIn()} onChange={(e) => setDate(e.target.value)} required />
        </Field>
        <ErrorMessage error={run.error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => onOpenChange(false)}>
            {t('step.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={run.isPending}>
            {t('step.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  )
}

/**
 * Leaving the interview stage with an interview scheduled and not held asks
 * whether it was held (and when); a manager may instead say it was not
 * needed, which the history records (docs/api-reference.md §7).
 */
export function InterviewHeldDialog({ proposal: p, open, onOpenChange, manager }: Props & { manager: boolean }) {
  const { t } = useTranslation('proposal')
  const notify = useNotify()
  const [date, setDate] = useState(() => todayIn())
  const done = {
    onSuccess: () => {
      onOpenChange(false)
      notify(t('stageChanged'), 'success')
    },
  }
  const held = useCompleteInterview(p.id, done)
  const waive = useWaiveInterview(p.id, done)
  /** Today: now (never before the submission, never ahead); an earlier day: its noon, local time. */
  const heldAt = (): string | undefined =>
    !date || date >= todayIn() ? undefined : new Date(`${date}T12:00:00`).toISOString()
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('step.heldTitle')}
      description={t('step.heldText', { name: `${p.fname} ${p.lname}` })}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          held.mutate(heldAt())
        }}
      >
        <Field label={t('step.heldOn')}>
          <input type="date" value={date} max={todayIn()} onChange={(e) => setDate(e.target.value)} required />
        </Field>
        <ErrorMessage error={held.error ?? waive.error} />
        <div className="dialog-actions">
          {manager && (
            <button
              type="button"
              className="button"
              disabled={waive.isPending}
              title={t('step.notNeededHint')}
              onClick={() => waive.mutate()}
            >
              {t('step.notNeeded')}
            </button>
          )}
          <button type="submit" className="button button-primary" disabled={held.isPending}>
            {t('step.markHeld')}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
