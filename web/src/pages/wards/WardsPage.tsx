import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useDeleteWard, useWards } from '../../api/wards'
import type { Ward } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { StewardshipsSection } from './StewardshipsSection'
import { WardForm } from './WardForm'
import { WardsTable } from './WardsTable'

export default function WardsPage() {
  const { t } = useTranslation('wards')
  const me = useMe()
  const notify = useNotify()
  const wards = useWards()
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
        <WardsTable wards={wards.data} manage={manage} onEdit={setEditing} onDelete={setDeleting} />
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
