import { useTranslation } from 'react-i18next'
import { useCallingOptions } from '../../api/callings'
import type { Release } from '../../api/types'
import { Field, type FieldErrors } from '../../components/ui'

const emptyRelease = (): Release => ({ fname: '', lname: '', calling: '', calling_id: null, user_id: null })

/** The ward's seats as the roster has them: one pick names the person and the calling released. */
function useSeats(wardId: number) {
  const callings = useCallingOptions()
  const seats = (callings.data ?? []).flatMap((c) =>
    c.slots
      .filter((slot) => slot.user_id !== null && (slot.ward_id === null || slot.ward_id === wardId))
      .map((slot) => ({
        key: `${c.id}:${slot.user_id}`,
        calling: c,
        userId: slot.user_id!,
        fname: slot.user?.fname ?? '',
        lname: slot.user?.lname ?? '',
        ward: slot.ward_id,
      })),
  )
  seats.sort((a, b) => Number(b.ward !== null) - Number(a.ward !== null) || a.lname.localeCompare(b.lname))
  return seats
}

/** The releases that come with a call: each picked from the ward's seats, or typed for someone not on the roster. */
export function ReleasesFieldset({
  releases,
  wardId,
  errors,
  onChange,
}: {
  releases: Release[]
  wardId: number
  errors: FieldErrors
  onChange(releases: Release[]): void
}) {
  const { t } = useTranslation('sustainings')
  const seats = useSeats(wardId)
  const setRelease = (i: number, patch: Partial<Release>) =>
    onChange(releases.map((r, j) => (j === i ? { ...r, ...patch } : r)))
  return (
    <fieldset className="field span-2 releases">
      <legend>{t('form.releases')}</legend>
      {releases.length === 0 && <p className="muted small">{t('form.noReleases')}</p>}
      {releases.map((r, i) => (
        <div className="release-row" key={i} data-testid={`release-${i}`}>
          <Field label={t('form.releaseSeat')} hint={t('form.releaseSeatHint')}>
            <select
              id={`release-${i}-seat`}
              value={r.calling_id != null && r.user_id != null ? `${r.calling_id}:${r.user_id}` : ''}
              onChange={(e) => {
                const seat = seats.find((x) => x.key === e.target.value)
                setRelease(
                  i,
                  seat
                    ? {
                        fname: seat.fname,
                        lname: seat.lname,
                        calling: seat.calling.name,
                        calling_id: seat.calling.id,
                        user_id: seat.userId,
                      }
                    : { calling_id: null, user_id: null },
                )
              }}
            >
              <option value="">{t('form.notOnRoster')}</option>
              {seats.map((seat) => (
                <option key={seat.key} value={seat.key}>
                  {t('form.seatOption', { name: `${seat.fname} ${seat.lname}`, calling: seat.calling.name })}
                </option>
              ))}
            </select>
          </Field>
          {(r.calling_id == null || r.user_id == null) && (
            <>
              <Field label={t('form.fname')} error={errors[`releases.${i}.fname`]}>
                <input value={r.fname} onChange={(e) => setRelease(i, { fname: e.target.value })} autoComplete="off" />
              </Field>
              <Field label={t('form.lname')} error={errors[`releases.${i}.lname`]}>
                <input value={r.lname} onChange={(e) => setRelease(i, { lname: e.target.value })} autoComplete="off" />
              </Field>
              <Field label={t('form.releasedFrom')} error={errors[`releases.${i}.calling`]}>
                <input
                  value={r.calling}
                  onChange={(e) => setRelease(i, { calling: e.target.value })}
                  autoComplete="off"
                />
              </Field>
            </>
          )}
          <button
            type="button"
            className="button button-small"
            onClick={() => onChange(releases.filter((_, j) => j !== i))}
            aria-label={t('form.removeReleaseOf', { n: i + 1 })}
          >
            {t('form.removeRelease')}
          </button>
        </div>
      ))}
      <button type="button" className="button" onClick={() => onChange([...releases, emptyRelease()])}>
        {t('form.addRelease')}
      </button>
    </fieldset>
  )
}
