import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { useSaveStewardships, useStewardships } from '../../api/stewardships'
import type { Stewardships, Ward } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Loading } from '../../components/ui'

const seatLabel = (t: TFunction<'wards'>, seat: Stewardships['seats'][number]): string =>
  seat.high_councilor
    ? t('stewardships.seatOf', {
        seat: seat.slot_id,
        name: `${seat.high_councilor.fname} ${seat.high_councilor.lname}`,
      })
    : t('stewardships.vacantSeat', { seat: seat.slot_id })

/**
 * High-council stewardships (docs/api-reference.md §18): who oversees each
 * ward and which stake organizations. Everyone signed in reads them;
 * speaking.manage edits them here (they stay with the seat when its holder
 * changes).
 */
export function StewardshipsSection({ wards }: { wards: Ward[] }) {
  const { t } = useTranslation('wards')
  const me = useMe()
  const notify = useNotify()
  const data = useStewardships()
  const manage = can(me, 'speaking.manage')
  const [editing, setEditing] = useState(false)

  return (
    <section className="card" aria-labelledby="stewardships-h" data-testid="stewardships">
      <h2 id="stewardships-h">{t('stewardships.title')}</h2>
      <p className="muted">{t('stewardships.intro')}</p>
      {data.isLoading && <Loading />}
      <ErrorMessage error={data.error} />
      {data.data && !editing && (
        <>
          {data.data.seats.length === 0 && <p className="muted">{t('stewardships.noSeats')}</p>}
          {data.data.seats.map((seat) => (
            <div key={seat.slot_id} className="stewardship-seat">
              <h3>{seatLabel(t, seat)}</h3>
              <p>
                {seat.wards.length > 0 ? seat.wards.map((w) => w.name).join(', ') : t('stewardships.noWards')}
                {seat.organizations.length > 0 && (
                  <>
                    <br />
                    <span className="muted">{seat.organizations.join(', ')}</span>
                  </>
                )}
              </p>
            </div>
          ))}
          {manage && data.data.seats.length > 0 && (
            <button type="button" className="button" onClick={() => setEditing(true)}>
              {t('stewardships.edit')}
            </button>
          )}
        </>
      )}
      {data.data && editing && (
        <StewardshipsForm
          data={data.data}
          wards={wards}
          onDone={() => {
            setEditing(false)
            notify(t('stewardships.saved'), 'success')
          }}
          onCancel={() => setEditing(false)}
        />
      )}
    </section>
  )
}

function StewardshipsForm({
  data,
  wards,
  onDone,
  onCancel,
}: {
  data: Stewardships
  wards: Ward[]
  onDone(): void
  onCancel(): void
}) {
  const { t } = useTranslation('wards')
  const [wardSeat, setWardSeat] = useState<Record<number, number | ''>>(() =>
    Object.fromEntries(
      wards.map((w) => [w.id, data.seats.find((s) => s.wards.some((x) => x.id === w.id))?.slot_id ?? '']),
    ),
  )
  const [organizations, setOrganizations] = useState<Record<number, string>>(() =>
    Object.fromEntries(data.seats.map((s) => [s.slot_id, s.organizations.join(', ')])),
  )
  const save = useSaveStewardships({ onSuccess: onDone })

  function submit(e: FormEvent) {
    e.preventDefault()
    save.mutate({
      seats: data.seats.map((s) => ({
        slot_id: s.slot_id,
        ward_ids: wards.filter((w) => wardSeat[w.id] === s.slot_id).map((w) => w.id),
        organizations: (organizations[s.slot_id] ?? '')
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      })),
    })
  }

  return (
    <form onSubmit={submit} noValidate className="form-grid">
      <fieldset className="field span-2">
        <legend>{t('stewardships.wardsLegend')}</legend>
        {wards.map((w) => (
          <div className="field" key={w.id}>
            <label htmlFor={`steward-ward-${w.id}`}>{w.name}</label>
            <select
              id={`steward-ward-${w.id}`}
              value={wardSeat[w.id] ?? ''}
              onChange={(e) => setWardSeat((x) => ({ ...x, [w.id]: e.target.value ? Number(e.target.value) : '' }))}
            >
              <option value="">{t('stewardships.nobody')}</option>
              {data.seats.map((s) => (
                <option key={s.slot_id} value={s.slot_id}>
                  {seatLabel(t, s)}
                </option>
              ))}
            </select>
          </div>
        ))}
      </fieldset>
      <fieldset className="field span-2">
        <legend>{t('stewardships.organizationsLegend')}</legend>
        <p className="muted small">{t('stewardships.organizationsHint')}</p>
        {data.seats.map((s) => (
          <div className="field" key={s.slot_id}>
            <label htmlFor={`steward-orgs-${s.slot_id}`}>{seatLabel(t, s)}</label>
            <input
              id={`steward-orgs-${s.slot_id}`}
              value={organizations[s.slot_id] ?? ''}
              onChange={(e) => setOrganizations((x) => ({ ...x, [s.slot_id]: e.target.value }))}
              autoComplete="off"
            />
          </div>
        ))}
      </fieldset>
      <div className="span-2">
        <ErrorMessage error={save.error} />
      </div>
      <div className="form-actions span-2">
        <button type="button" className="button" onClick={onCancel}>
          {t('common:cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {t('stewardships.save')}
        </button>
      </div>
    </form>
  )
}
