import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, ApiError } from '../../api/client'
import { qk, useUsersLite, userName, useWards, wardName } from '../../api/queries'
import type { Calling, CallingHistoryRow, Slot } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, formatDateTime, Loading, PageHeader, splitError } from '../../components/ui'
import { UserPicker } from '../../components/UserPicker'
import { ROUTES } from '../../routes'
import { CallingForm } from './CallingForm'

export default function CallingPage() {
  const id = Number(useParams().id)
  const me = useMe()
  const qc = useQueryClient()
  const notify = useNotify()
  const navigate = useNavigate()
  const users = useUsersLite()
  const wards = useWards()
  const manage = can(me, 'callings.manage')
  const calling = useQuery({ queryKey: qk.calling(id), queryFn: () => api<Calling>(`/callings/${id}`) })
  const history = useQuery({
    queryKey: [...qk.calling(id), 'history'],
    queryFn: () => api<CallingHistoryRow[]>(`/callings/${id}/history`),
  })
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [filling, setFilling] = useState<Slot | null>(null)
  const [releasing, setReleasing] = useState<Slot | null>(null)
  const [pick, setPick] = useState<number | null>(null)
  const [pickError, setPickError] = useState<string | undefined>()

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['callings'] })
  }

  const fill = useMutation({
    mutationFn: ({ slot, user }: { slot: number; user: number }) =>
      api(`/callings/${id}/${slot}`, { method: 'PUT', body: { user_id: user } }),
    onSuccess: () => {
      setFilling(null)
      notify('Seat filled.', 'success')
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'slot_filled') {
        setPickError('Someone has just filled this seat. Release it first.')
      } else {
        const s = splitError(err, ['user_id'])
        setPickError(s.fields.user_id ?? s.general ?? undefined)
      }
    },
    onSettled: refresh,
  })
  const release = useMutation({
    mutationFn: (slot: number) => api(`/callings/${id}/${slot}`, { method: 'DELETE' }),
    onSuccess: () => {
      setReleasing(null)
      notify('Seat released.', 'success')
    },
    onSettled: refresh,
  })
  const remove = useMutation({
    mutationFn: () => api(`/callings/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      refresh()
      notify('Calling deleted.', 'success')
      navigate(ROUTES.callings, { replace: true })
    },
  })

  if (calling.isLoading) return <Loading />
  if (calling.error)
    return (
      <div className="card">
        <ErrorMessage error={calling.error} />
        <Link to={ROUTES.callings}>Back to callings</Link>
      </div>
    )
  const c = calling.data
  if (!c) return null
  const holderIds = c.slots.filter((s) => s.user_id != null).map((s) => s.user_id as number)

  return (
    <div>
      <p className="breadcrumb">
        <Link to={ROUTES.callings}>← Callings</Link>
      </p>
      <PageHeader
        title={c.name}
        actions={
          manage && !c.system_defined ? (
            <>
              <button type="button" className="button" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
                Delete
              </button>
            </>
          ) : undefined
        }
      />
      <div className="proposal-grid">
        <div className="stack">
          <section className="card" aria-labelledby="seats-h">
            <h2 id="seats-h">Seats</h2>
            {c.system_defined && (
              <p className="muted small">System calling: its name and access are fixed, but its seats can be filled.</p>
            )}
            <div className="table-scroll">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Seat</th>
                    <th scope="col">Held by</th>
                    {c.slots.some((s) => s.ward_id != null) && <th scope="col">Ward</th>}
                    {manage && (
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {c.slots.map((s) => (
                    <tr key={s.slot_id}>
                      <td>{s.slot_id}</td>
                      <td>{s.user ? `${s.user.fname} ${s.user.lname}` : <span className="muted">Vacant</span>}</td>
                      {c.slots.some((x) => x.ward_id != null) && <td>{wardName(wards.data, s.ward_id)}</td>}
                      {manage && (
                        <td className="actions-cell">
                          {s.filled ? (
                            <button type="button" className="button button-small" onClick={() => setReleasing(s)}>
                              Release
                            </button>
                          ) : (
                            <button
                              type="button"
                              className="button button-small button-primary"
                              onClick={() => {
                                setPick(null)
                                setPickError(undefined)
                                setFilling(s)
                              }}
                              aria-label={`Fill seat ${s.slot_id}`}
                            >
                              Fill
                            </button>
                          )}
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          <section className="card" aria-labelledby="about-h">
            <h2 id="about-h">About</h2>
            <dl className="details">
              <dt>Kind</dt>
              <dd>{c.system_defined ? 'System' : 'User-made'}</dd>
              <dt>Public</dt>
              <dd>{c.is_public ? 'Yes' : 'No'}</dd>
              <dt>Access granted</dt>
              <dd>
                {c.permissions.length
                  ? c.permissions.map((p) => (
                      <code key={p} className="perm">
                        {p}
                      </code>
                    ))
                  : 'None'}
              </dd>
            </dl>
          </section>
        </div>
        <section className="card" aria-labelledby="chist-h">
          <h2 id="chist-h">History</h2>
          {history.isLoading && <Loading />}
          <ErrorMessage error={history.error} />
          {history.data && history.data.length === 0 && <Empty>No one has held this calling yet.</Empty>}
          <ol className="timeline">
            {history.data?.map((h, i) => (
              <li key={h.id ?? i}>
                <div className="timeline-dot" aria-hidden="true" />
                <div>
                  <div>
                    <strong>{h.user ? `${h.user.fname} ${h.user.lname}` : userName(users.data, h.user_id)}</strong>,
                    seat {h.slot_id}
                  </div>
                  <div className="muted small">
                    {formatDateTime(h.from)} – {h.to ? formatDateTime(h.to) : 'now'}
                  </div>
                </div>
              </li>
            ))}
          </ol>
        </section>
      </div>

      <Dialog open={editing} onOpenChange={setEditing} title={`Edit ${c.name}`}>
        <CallingForm
          initial={c}
          submitLabel="Save"
          onCancel={() => setEditing(false)}
          onSubmit={async (v) => {
            const updated = await api<Calling>(`/callings/${id}`, { method: 'PUT', body: v })
            if (updated && typeof updated === 'object' && 'id' in updated) qc.setQueryData(qk.calling(id), updated)
            refresh()
            setEditing(false)
            notify('Calling saved.', 'success')
          }}
        />
      </Dialog>
      <Dialog
        open={filling !== null}
        onOpenChange={(o) => !o && setFilling(null)}
        title={`Fill seat ${filling?.slot_id ?? ''} of ${c.name}`}
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            if (pick == null) return setPickError('Choose a person.')
            if (filling) fill.mutate({ slot: filling.slot_id, user: pick })
          }}
        >
          <UserPicker label="Person" value={pick} onChange={setPick} exclude={holderIds} error={pickError} />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setFilling(null)}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={fill.isPending}>
              Fill seat
            </button>
          </div>
        </form>
      </Dialog>
      <ConfirmDialog
        open={releasing !== null}
        onOpenChange={(o) => !o && setReleasing(null)}
        title="Release this seat?"
        message={
          releasing?.user ? `${releasing.user.fname} ${releasing.user.lname} will be released from ${c.name}.` : ''
        }
        confirmLabel="Release"
        busy={release.isPending}
        error={<ErrorMessage error={release.error} />}
        onConfirm={() => releasing && release.mutate(releasing.slot_id)}
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete ${c.name}?`}
        message="Only a calling with no filled seat can be deleted."
        confirmLabel="Delete"
        danger
        busy={remove.isPending}
        error={<ErrorMessage error={remove.error} />}
        onConfirm={() => remove.mutate()}
      />
    </div>
  )
}
