import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useFillSeat, useReleaseSeat } from '../../api/callings'
import type { Calling, Slot } from '../../api/types'
import { useWards, wardName } from '../../api/wards'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { DataTable } from '../../components/lists'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, splitError } from '../../components/ui'
import { UserPicker } from '../../components/UserPicker'

/** A calling's seats: who holds each, and (for a manager) filling and releasing them. */
export function CallingSeats({ calling: c, manage }: { calling: Calling; manage: boolean }) {
  const { t } = useTranslation('callings')
  const notify = useNotify()
  const wards = useWards()
  const [filling, setFilling] = useState<Slot | null>(null)
  const [releasing, setReleasing] = useState<Slot | null>(null)
  const release = useReleaseSeat(c.id, {
    onSuccess: () => {
      setReleasing(null)
      notify(t('seat.released'), 'success')
    },
  })
  const byWard = c.slots.some((s) => s.ward_id != null)

  return (
    <section className="card" aria-labelledby="seats-h">
      <h2 id="seats-h">{t('form.seats')}</h2>
      {c.system_defined && <p className="muted small">{t('calling.systemNote')}</p>}
      <div className="table-scroll">
        <DataTable
          columns={[t('seat.seat'), t('seat.heldBy'), ...(byWard ? [t('seat.ward')] : [])]}
          actionsLabel={manage ? t('common:actions') : undefined}
        >
          {c.slots.map((s) => (
            <tr key={s.slot_id}>
              <td>{s.slot_id}</td>
              <td>
                {s.user ? `${s.user.fname} ${s.user.lname}` : <span className="muted">{t('common:vacant')}</span>}
              </td>
              {byWard && <td>{wardName(wards.data, s.ward_id)}</td>}
              {manage && (
                <td className="actions-cell">
                  {s.filled ? (
                    <button type="button" className="button button-small" onClick={() => setReleasing(s)}>
                      {t('seat.release')}
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="button button-small button-primary"
                      onClick={() => setFilling(s)}
                      aria-label={t('seat.fillLabel', { seat: s.slot_id })}
                    >
                      {t('seat.fill')}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      </div>
      <Dialog
        open={filling !== null}
        onOpenChange={(o) => !o && setFilling(null)}
        title={t('seat.fillTitle', { seat: filling?.slot_id ?? '', name: c.name })}
      >
        {filling && <FillSeatForm key={filling.slot_id} calling={c} seat={filling} onClose={() => setFilling(null)} />}
      </Dialog>
      <ConfirmDialog
        open={releasing !== null}
        onOpenChange={(o) => !o && setReleasing(null)}
        title={t('seat.releaseTitle')}
        message={
          releasing?.user
            ? t('seat.releaseText', { person: `${releasing.user.fname} ${releasing.user.lname}`, name: c.name })
            : ''
        }
        confirmLabel={t('seat.release')}
        busy={release.isPending}
        error={<ErrorMessage error={release.error} />}
        onConfirm={() => releasing && release.mutate(releasing.slot_id)}
      />
    </section>
  )
}

/** Picks the person for a vacant seat; keyed by the seat, so each opening starts empty. */
function FillSeatForm({ calling: c, seat, onClose }: { calling: Calling; seat: Slot; onClose(): void }) {
  const { t } = useTranslation('callings')
  const notify = useNotify()
  const [pick, setPick] = useState<number | null>(null)
  const [pickError, setPickError] = useState<string | undefined>()
  const fill = useFillSeat(c.id, {
    onSuccess: () => {
      onClose()
      notify(t('seat.filled'), 'success')
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'slot_filled') {
        setPickError(t('seat.justFilled'))
      } else {
        const s = splitError(err, ['user_id'])
        setPickError(s.fields.user_id ?? s.general ?? undefined)
      }
    },
  })
  const holderIds = c.slots.filter((s) => s.user_id != null).map((s) => s.user_id as number)
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (pick == null) return setPickError(t('seat.choosePerson'))
        fill.mutate({ slot: seat.slot_id, user: pick })
      }}
    >
      <UserPicker label={t('seat.person')} value={pick} onChange={setPick} exclude={holderIds} error={pickError} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          {t('common:cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={fill.isPending}>
          {t('seat.fillSubmit')}
        </button>
      </div>
    </form>
  )
}
