import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useUsersLite, userName } from '../../api/users'
import { useDeleteWard, useSaveWard, useWards } from '../../api/wards'
import type { Ward } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import {
  Empty,
  ErrorMessage,
  Field,
  formatMeetingTime,
  Loading,
  minutesToTime,
  PageHeader,
  timeToMinutes,
  type FieldErrors,
} from '../../components/ui'
import { UserPicker } from '../../components/UserPicker'
import { useFormState } from '../../components/useFormState'

/** Ward field speaking_sunday (docs/api-reference.md §13): 5 falls back to the last Sunday in a month with four. */
const SPEAKING_SUNDAYS = [1, 2, 3, 4, 5] as const

function WardForm({ ward, onSaved, onClose }: { ward?: Ward; onSaved(msg: string): void; onClose(): void }) {
  const { t } = useTranslation('wards')
  const [name, setName] = useState(ward?.name ?? '')
  const [time, setTime] = useState(ward ? minutesToTime(ward.start_time) : '10:00')
  const [bishop, setBishop] = useState<number | null>(ward?.bishop_id ?? null)
  const [sunday, setSunday] = useState(ward?.speaking_sunday ?? 1)
  const { errors, general, busy, check, run } = useFormState()
  const save = useSaveWard()

  return (
    <form
      noValidate
      className="stack"
      onSubmit={async (e) => {
        e.preventDefault()
        const errs: FieldErrors = {}
        const minutes = timeToMinutes(time)
        if (!name.trim()) errs.name = t('form.enterName')
        if (minutes === null || minutes < 0 || minutes > 1439) errs.start_time = t('form.chooseTime')
        if (!check(errs)) return
        await run(['name', 'start_time', 'bishop_id', 'speaking_sunday'], async () => {
          const body = { name: name.trim(), start_time: minutes, bishop_id: bishop, speaking_sunday: sunday }
          await save.mutateAsync({ id: ward?.id, body })
          onSaved(ward ? t('form.saved') : t('form.created'))
        })
      }}
    >
      {general && (
        <p className="error-box" role="alert">
          {general}
        </p>
      )}
      <Field label={t('form.name')} error={errors.name}>
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label={t('form.startsAt')} error={errors.start_time}>
        <input type="time" step={300} value={time} onChange={(e) => setTime(e.target.value)} />
      </Field>
      <Field label={t('form.speakingSunday')} error={errors.speaking_sunday}>
        <select value={sunday} onChange={(e) => setSunday(Number(e.target.value))}>
          {SPEAKING_SUNDAYS.map((n) => (
            <option key={n} value={n}>
              {t(`form.sunday${n}`)}
            </option>
          ))}
        </select>
      </Field>
      <UserPicker label={t('bishop')} value={bishop} onChange={setBishop} allowClear error={errors.bishop_id} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          {t('common:cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('common:saving') : ward ? t('form.save') : t('form.create')}
        </button>
      </div>
    </form>
  )
}

import { StewardshipsSection } from './StewardshipsSection'
import { stewardOf, useStewardships } from '../../api/stewardships'

export default function WardsPage() {
  const { t } = useTranslation('wards')
  const me = useMe()
  const notify = useNotify()
  const wards = useWards()
  const users = useUsersLite()
  const stewardships = useStewardships()
  const manage = can(me, 'wards.manage')
  const [editing, setEditing] = useState<Ward | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Ward | null>(null)

  const saved = (msg: string) => {
    setEditing(null)
    notify(msg, 'success')
  }
  const remove = useDeleteWard({
    onSuccess: () => {
      setDeleting(null)
      notify(t('deleted'), 'success')
    },
  })

  return (
    <div>
      <PageHeader
        title={t('title')}
        actions={
          manage ? (
            <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
              {t('new')}
            </button>
          ) : undefined
        }
      />
      {wards.isLoading && <Loading />}
      <ErrorMessage error={wards.error} />
      {wards.data && wards.data.length === 0 && <Empty>{t('none')}</Empty>}
      {wards.data && wards.data.length > 0 && (
        <div className="table-scroll table-scroll-cards">
          <table className="table table-cards">
            <thead>
              <tr>
                <th scope="col">{t('ward')}</th>
                <th scope="col">{t('meetingTime')}</th>
                <th scope="col">{t('bishop')}</th>
                <th scope="col">{t('stewardships.steward')}</th>
                {manage && (
                  <th scope="col">
                    <span className="visually-hidden">{t('common:actions')}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {wards.data.map((w) => (
                <tr key={w.id}>
                  <td className="cell-title">{w.name}</td>
                  <td data-label={t('meetingTime')}>{formatMeetingTime(w.start_time)}</td>
                  <td data-label={t('bishop')}>
                    {w.bishop_id ? (
                      userName(users.data, w.bishop_id)
                    ) : (
                      <span className="muted">{t('common:vacant')}</span>
                    )}
                  </td>
                  <td data-label={t('stewardships.steward')}>
                    {(() => {
                      const hc = stewardOf(stewardships.data, w.id)?.high_councilor
                      return hc ? `${hc.fname} ${hc.lname}` : <span className="muted">—</span>
                    })()}
                  </td>
                  {manage && (
                    <td className="actions-cell">
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() => setEditing(w)}
                        aria-label={t('editTitle', { name: w.name })}
                      >
                        {t('common:edit')}
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() => setDeleting(w)}
                        aria-label={t('deleteLabel', { name: w.name })}
                      >
                        {t('common:delete')}
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {wards.data && <StewardshipsSection wards={wards.data} />}
      <Dialog
        open={editing !== null}
        onOpenChange={(o) => !o && setEditing(null)}
        title={editing === 'new' ? t('new') : t('editTitle', { name: editing?.name ?? '' })}
      >
        {editing !== null && (
          <WardForm ward={editing === 'new' ? undefined : editing} onSaved={saved} onClose={() => setEditing(null)} />
        )}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={t('deleteTitle', { name: deleting?.name ?? '' })}
        message={t('deleteText')}
        confirmLabel={t('common:delete')}
        danger
        busy={remove.isPending}
        error={<ErrorMessage error={remove.error} />}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </div>
  )
}
