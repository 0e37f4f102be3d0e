import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useOverride, useRestoreCell } from '../../api/speaking'
import type { Calendar } from '../../api/types'
import { Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Field, splitError } from '../../components/ui'
import { useMonthNames } from './gridHooks'
import { seatLabel, type CellTarget } from './speakingCalendar'

interface OverrideProps {
  year: number
  cell: CellTarget | null
  wards: Calendar['wards']
  onClose(): void
}

/** Changes one seat's ward for one month, or gives the month back to the rotation. */
export function OverrideDialog({ year, cell, wards, onClose }: OverrideProps) {
  const { t } = useTranslation('speaking')
  const { long } = useMonthNames()
  return (
    <Dialog
      open={cell !== null}
      onOpenChange={(o) => !o && onClose()}
      title={cell ? `${seatLabel(cell.row, t)} — ${long[cell.month - 1]} ${year}` : ''}
      description={t('override.description')}
    >
      {cell && (
        <OverrideForm
          key={`${cell.row.slot_id}-${cell.month}`}
          year={year}
          cell={cell}
          wards={wards}
          onClose={onClose}
        />
      )}
    </Dialog>
  )
}

/** Keyed by the cell, so each opening starts from its ward and without the last one's errors. */
function OverrideForm({ year, cell, wards, onClose }: OverrideProps & { cell: CellTarget }) {
  const { t } = useTranslation('speaking')
  const notify = useNotify()
  const current = cell.row.months.find((m) => m.month === cell.month)
  const [wardChoice, setWardChoice] = useState(current?.ward_id == null ? '' : String(current.ward_id))
  const closeWith = (message: string) => () => {
    onClose()
    notify(message, 'success')
  }
  const override = useOverride(year, { onSuccess: closeWith(t('notice.changed')) })
  const restore = useRestoreCell(year, { onSuccess: closeWith(t('notice.restored')) })
  const seat = { high_councilor_id: cell.row.high_councilor_id!, month: cell.month }
  const errors = splitError(override.error, ['ward_id'])
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        override.mutate({ ...seat, ward_id: wardChoice === '' ? null : Number(wardChoice) })
      }}
    >
      <Field label={t('override.ward')} error={errors.fields.ward_id}>
        <select value={wardChoice} onChange={(e) => setWardChoice(e.target.value)}>
          <option value="">{t('override.notSpeaking')}</option>
          {wards.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </Field>
      {override.error && <ErrorMessage error={errors.general} />}
      <ErrorMessage error={restore.error} />
      <div className="dialog-actions">
        {current?.overridden && (
          <button type="button" className="button" disabled={restore.isPending} onClick={() => restore.mutate(seat)}>
            {t('override.restore')}
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={override.isPending}>
          {t('override.save')}
        </button>
      </div>
    </form>
  )
}
