import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useParams } from 'react-router'
import { useCalling, useDeleteCalling, useUpdateCalling } from '../../api/callings'
import type { Calling } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { CallingForm } from './CallingForm'
import { CallingHistory } from './CallingHistory'
import { CallingSeats } from './CallingSeats'

export default function CallingPage() {
  const { t } = useTranslation('callings')
  const id = Number(useParams().id)
  const me = useMe()
  const manage = can(me, 'callings.manage')
  const calling = useCalling(id)
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)

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
          <CallingSeats calling={c} manage={manage} />
          <AboutCalling calling={c} />
        </div>
        <CallingHistory id={id} />
      </div>
      <Dialog open={editing} onOpenChange={setEditing} title={t('calling.editTitle', { name: c.name })}>
        <EditCallingForm calling={c} onClose={() => setEditing(false)} />
      </Dialog>
      <DeleteCallingDialog calling={c} open={deleting} onOpenChange={setDeleting} />
    </div>
  )
}

function AboutCalling({ calling: c }: { calling: Calling }) {
  const { t } = useTranslation('callings')
  return (
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
  )
}

function EditCallingForm({ calling: c, onClose }: { calling: Calling; onClose(): void }) {
  const { t } = useTranslation('callings')
  const notify = useNotify()
  const update = useUpdateCalling(c.id)
  return (
    <CallingForm
      initial={c}
      submitLabel={t('common:save')}
      onCancel={onClose}
      onSubmit={async (v) => {
        await update.mutateAsync(v)
        onClose()
        notify(t('calling.saved'), 'success')
      }}
    />
  )
}

function DeleteCallingDialog({
  calling: c,
  open,
  onOpenChange,
}: {
  calling: Calling
  open: boolean
  onOpenChange(open: boolean): void
}) {
  const { t } = useTranslation('callings')
  const notify = useNotify()
  const navigate = useNavigate()
  const remove = useDeleteCalling(c.id, {
    onSuccess: () => {
      notify(t('calling.deleted'), 'success')
      navigate(ROUTES.callings, { replace: true })
    },
  })
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('calling.deleteTitle', { name: c.name })}
      message={t('calling.deleteText')}
      confirmLabel={t('common:delete')}
      danger
      busy={remove.isPending}
      error={<ErrorMessage error={remove.error} />}
      onConfirm={() => remove.mutate()}
    />
  )
}
