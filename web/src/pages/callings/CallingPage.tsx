import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useParams } from 'react-router'
import { ApiError } from '../../api/client'
import {
  useCalling,
  useCallingHistory,
  useDeleteCalling,
  useFillSeat,
  useReleaseSeat,
  useUpdateCalling,
} from '../../api/callings'
import { useUsersLite, userName } from '../../api/users'
import { useWards, wardName } from '../../api/wards'
import type { Slot } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, formatDateTime, Loading, PageHeader, splitError } from '../../components/ui'
import { UserPicker } from '../../components/UserPicker'
import { ROUTES } from '../../routes'
import { CallingForm } from './CallingForm'

export default function CallingPage() {
  const { t } = useTranslation('callings')
  const id = Number(useParams().id)
  const me = useMe()
  const notify = useNotify()
  const navigate = useNavigate()
  const users = useUsersLite()
  const wards = useWards()
  const manage = can(me, 'callings.manage')
  const calling = useCalling(id)
  const history = useCallingHistory(id)
  const update = useUpdateCalling(id)
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [filling, setFilling] = useState<Slot | null>(null)
  const [releasing, setReleasing] = useState<Slot | null>(null)
  const [pick, setPick] = useState<number | null>(null)
  const [pickError, setPickError] = useState<string | undefined>()

  const fill = useFillSeat(id, {
    onSuccess: () => {
      setFilling(null)
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
  const release = useReleaseSeat(id, {
    onSuccess: () => {
      setReleasing(null)
      notify(t('seat.released'), 'success')
    },
  })
  const remove = useDeleteCalling(id, {
    onSuccess: () => {
      notify(t('calling.deleted'), 'success')
      navigate(ROUTES.callings, { replace: true })
    },
  })

  if (calling.isLoading) return <Loading />
  if (calling.error)
    return (
      <div className="card">
        <ErrorMessage error={calling.error} />
        <Link to={ROUTES.callings}>{t('calling.back')}</Link>
      </div>
    )
  const c = calling.data
  if (!c) return null
  const holderIds = c.slots.filter((s) => s.user_id != null).map((s) => s.user_id as number)

  return (
    <div>
      <p className="breadcrumb">
        <Link to={ROUTES.callings}>← {t('list.title')}</Link>
      </p>
      <PageHeader
        title={c.name}
        actions={
          manage && !c.system_defined ? (
            <>
              <button type="button" className="button" onClick={() => setEditing(true)}>
                {t('common:edit')}
              </button>
              <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
                {t('common:delete')}
              </button>
            </>
          ) : undefined
        }
      />
      <div className="proposal-grid">
        <div className="stack">
          <section className="card" aria-labelledby="seats-h">
            <h2 id="seats-h">{t('form.seats')}</h2>
            {c.system_defined && <p className="muted small">{t('calling.systemNote')}</p>}
            <div className="table-scroll">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">{t('seat.seat')}</th>
                    <th scope="col">{t('seat.heldBy')}</th>
                    {c.slots.some((s) => s.ward_id != null) && <th scope="col">{t('seat.ward')}</th>}
                    {manage && (
                      <th scope="col">
                        <span className="visually-hidden">{t('common:actions')}</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {c.slots.map((s) => (
                    <tr key={s.slot_id}>
                      <td>{s.slot_id}</td>
                      <td>
                        {s.user ? (
                          `${s.user.fname} ${s.user.lname}`
                        ) : (
                          <span className="muted">{t('common:vacant')}</span>
                        )}
                      </td>
                      {c.slots.some((x) => x.ward_id != null) && <td>{wardName(wards.data, s.ward_id)}</td>}
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
                              onClick={() => {
                                setPick(null)
                                setPickError(undefined)
                                setFilling(s)
                              }}
                              aria-label={t('seat.fillLabel', { seat: s.slot_id })}
                            >
                              {t('seat.fill')}
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
            <h2 id="about-h">{t('calling.about')}</h2>
            <dl className="details">
              <dt>{t('kind')}</dt>
              <dd>{c.system_defined ? t('system') : t('userMade')}</dd>
              <dt>{t('public')}</dt>
              <dd>{c.is_public ? t('common:yes') : t('common:no')}</dd>
              <dt>{t('calling.accessGranted')}</dt>
              <dd>
                {c.permissions.length
                  ? c.permissions.map((p) => (
                      <code key={p} className="perm" title={t(`common:permission.${p}`)}>
                        {p}
                      </code>
                    ))
                  : t('common:none')}
              </dd>
            </dl>
          </section>
        </div>
        <section className="card" aria-labelledby="chist-h">
          <h2 id="chist-h">{t('calling.history')}</h2>
          {history.isLoading && <Loading />}
          <ErrorMessage error={history.error} />
          {history.data && history.data.length === 0 && <Empty>{t('calling.noHistory')}</Empty>}
          <ol className="timeline">
            {history.data?.map((h, i) => (
              <li key={h.id ?? i}>
                <div className="timeline-dot" aria-hidden="true" />
                <div>
                  <div>
                    <strong>{h.user ? `${h.user.fname} ${h.user.lname}` : userName(users.data, h.user_id)}</strong>,{' '}
                    {t('calling.seatN', { seat: h.slot_id })}
                  </div>
                  <div className="muted small">
                    {formatDateTime(h.from)} – {h.to ? formatDateTime(h.to) : t('calling.now')}
                  </div>
                </div>
              </li>
            ))}
          </ol>
        </section>
      </div>

      <Dialog open={editing} onOpenChange={setEditing} title={t('calling.editTitle', { name: c.name })}>
        <CallingForm
          initial={c}
          submitLabel={t('common:save')}
          onCancel={() => setEditing(false)}
          onSubmit={async (v) => {
            await update.mutateAsync(v)
            setEditing(false)
            notify(t('calling.saved'), 'success')
          }}
        />
      </Dialog>
      <Dialog
        open={filling !== null}
        onOpenChange={(o) => !o && setFilling(null)}
        title={t('seat.fillTitle', { seat: filling?.slot_id ?? '', name: c.name })}
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            if (pick == null) return setPickError(t('seat.choosePerson'))
            if (filling) fill.mutate({ slot: filling.slot_id, user: pick })
          }}
        >
          <UserPicker label={t('seat.person')} value={pick} onChange={setPick} exclude={holderIds} error={pickError} />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setFilling(null)}>
              {t('common:cancel')}
            </button>
            <button type="submit" className="button button-primary" disabled={fill.isPending}>
              {t('seat.fillSubmit')}
            </button>
          </div>
        </form>
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
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={t('calling.deleteTitle', { name: c.name })}
        message={t('calling.deleteText')}
        confirmLabel={t('common:delete')}
        danger
        busy={remove.isPending}
        error={<ErrorMessage error={remove.error} />}
        onConfirm={() => remove.mutate()}
      />
    </div>
  )
}
