import { useState } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'
import { qk, useUsersLite, userName, useWards } from '../../api/queries'
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
  splitError,
  timeToMinutes,
  type FieldErrors,
} from '../../components/ui'
import { UserPicker } from '../../components/UserPicker'

/** Ward field speaking_sunday (contract §13): 5 falls back to the last Sunday in a month with four. */
const SPEAKING_SUNDAYS = [
  '1st Sunday',
  '2nd Sunday',
  '3rd Sunday',
  '4th Sunday',
  '5th Sunday (the last when there is no 5th)',
]

function WardForm({ ward, onSaved, onClose }: { ward?: Ward; onSaved(msg: string): void; onClose(): void }) {
  const [name, setName] = useState(ward?.name ?? '')
  const [time, setTime] = useState(ward ? minutesToTime(ward.start_time) : '10:00')
  const [bishop, setBishop] = useState<number | null>(ward?.bishop_id ?? null)
  const [sunday, setSunday] = useState(ward?.speaking_sunday ?? 1)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  return (
    <form
      noValidate
      className="stack"
      onSubmit={async (e) => {
        e.preventDefault()
        const errs: FieldErrors = {}
        const minutes = timeToMinutes(time)
        if (!name.trim()) errs.name = 'Enter a name.'
        if (minutes === null || minutes < 0 || minutes > 1439) errs.start_time = 'Choose a meeting time.'
        setErrors(errs)
        setGeneral(null)
        if (Object.keys(errs).length) return
        setBusy(true)
        try {
          const body = { name: name.trim(), start_time: minutes, bishop_id: bishop, speaking_sunday: sunday }
          if (ward) await api(`/wards/${ward.id}`, { method: 'PUT', body })
          else await api('/wards/', { method: 'POST', body })
          onSaved(ward ? 'Ward saved.' : 'Ward created.')
        } catch (err) {
          const s = splitError(err, ['name', 'start_time', 'bishop_id', 'speaking_sunday'])
          setErrors(s.fields)
          setGeneral(s.general)
        } finally {
          setBusy(false)
        }
      }}
    >
      {general && (
        <p className="error-box" role="alert">
          {general}
        </p>
      )}
      <Field label="Name" error={errors.name}>
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label="Sacrament meeting starts at" error={errors.start_time}>
        <input type="time" step={300} value={time} onChange={(e) => setTime(e.target.value)} />
      </Field>
      <Field label="High council speaker comes on" error={errors.speaking_sunday}>
        <select value={sunday} onChange={(e) => setSunday(Number(e.target.value))}>
          {SPEAKING_SUNDAYS.map((label, i) => (
            <option key={label} value={i + 1}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <UserPicker label="Bishop" value={bishop} onChange={setBishop} allowClear error={errors.bishop_id} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : ward ? 'Save ward' : 'Create ward'}
        </button>
      </div>
    </form>
  )
}

export default function WardsPage() {
  const me = useMe()
  const qc = useQueryClient()
  const notify = useNotify()
  const wards = useWards()
  const users = useUsersLite()
  const manage = can(me, 'wards.manage')
  const [editing, setEditing] = useState<Ward | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Ward | null>(null)

  const saved = (msg: string) => {
    setEditing(null)
    void qc.invalidateQueries({ queryKey: qk.wards })
    void qc.invalidateQueries({ queryKey: ['callings'] })
    notify(msg, 'success')
  }
  const remove = useMutation({
    mutationFn: (w: Ward) => api(`/wards/${w.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      setDeleting(null)
      void qc.invalidateQueries({ queryKey: qk.wards })
      notify('Ward deleted.', 'success')
    },
  })

  return (
    <div>
      <PageHeader
        title="Wards"
        actions={
          manage ? (
            <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
              New ward
            </button>
          ) : undefined
        }
      />
      {wards.isLoading && <Loading />}
      <ErrorMessage error={wards.error} />
      {wards.data && wards.data.length === 0 && <Empty>No wards yet.</Empty>}
      {wards.data && wards.data.length > 0 && (
        <div className="table-scroll table-scroll-cards">
          <table className="table table-cards">
            <thead>
              <tr>
                <th scope="col">Ward</th>
                <th scope="col">Meeting time</th>
                <th scope="col">Bishop</th>
                {manage && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {wards.data.map((w) => (
                <tr key={w.id}>
                  <td className="cell-title">{w.name}</td>
                  <td data-label="Meeting time">{formatMeetingTime(w.start_time)}</td>
                  <td data-label="Bishop">
                    {w.bishop_id ? userName(users.data, w.bishop_id) : <span className="muted">Vacant</span>}
                  </td>
                  {manage && (
                    <td className="actions-cell">
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() => setEditing(w)}
                        aria-label={`Edit ${w.name}`}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() => setDeleting(w)}
                        aria-label={`Delete ${w.name}`}
                      >
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog
        open={editing !== null}
        onOpenChange={(o) => !o && setEditing(null)}
        title={editing === 'new' ? 'New ward' : `Edit ${editing?.name ?? ''}`}
      >
        {editing !== null && (
          <WardForm ward={editing === 'new' ? undefined : editing} onSaved={saved} onClose={() => setEditing(null)} />
        )}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`Delete ${deleting?.name ?? ''}?`}
        message="A ward that proposals or speaking changes refer to cannot be deleted."
        confirmLabel="Delete"
        danger
        busy={remove.isPending}
        error={<ErrorMessage error={remove.error} />}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </div>
  )
}
