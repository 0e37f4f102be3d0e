import { useTranslation } from 'react-i18next'
import type { ImportChange, ImportPreview } from '../../api/types'
import { useWards, wardName } from '../../api/wards'
import { formatDate } from '../../i18n/format'
import { ChangeTable } from './ChangeTable'

const person = (c: ImportChange) => `${c.fname ?? ''} ${c.lname ?? ''}`.trim()

/** The people, callings and seats the import adds or changes, one table each. */
export function ChangeTables({ preview }: { preview: ImportPreview }) {
  const { t } = useTranslation('imports')
  const wards = useWards()
  const of = (target: ImportChange['target'], action: ImportChange['action']) =>
    preview.changes.filter((c) => c.target === target && c.action === action)
  const seat = (c: ImportChange) => (c.ward_id ? `${c.calling} — ${wardName(wards.data, c.ward_id)}` : c.calling)
  const rowCol = { label: t('table.row'), cell: (c: ImportChange) => c.row ?? '—' }
  return (
    <>
      <ChangeTable
        title={t('tables.newPeople')}
        rows={of('user', 'create')}
        columns={[
          { label: t('table.name'), cell: person },
          { label: t('table.email'), cell: (c) => c.email ?? <span className="muted">{t('rosterOnly')}</span> },
          { label: t('table.phone'), cell: (c) => c.phone ?? '—' },
          rowCol,
        ]}
      />
      <ChangeTable
        title={t('tables.updatedPeople')}
        rows={of('user', 'update')}
        columns={[
          { label: t('table.name'), cell: person },
          {
            label: t('table.changes'),
            cell: (c) =>
              Object.entries(c.changes ?? {})
                .map(([field, v]) =>
                  t('changeLine', { field: t(`fields.${field}`), from: v.from ?? '—', to: v.to ?? '—' }),
                )
                .join('; '),
          },
          rowCol,
        ]}
      />
      <ChangeTable
        title={t('tables.newCallings')}
        rows={of('calling', 'create')}
        columns={[{ label: t('table.calling'), cell: (c) => c.calling }, rowCol]}
      />
      <ChangeTable
        title={t('tables.fill')}
        rows={of('slot', 'fill')}
        columns={[
          { label: t('table.calling'), cell: seat },
          { label: t('table.person'), cell: person },
          {
            label: t('table.replaces'),
            cell: (c) => (c.released_user_id ? `${c.released_fname} ${c.released_lname}` : '—'),
          },
          { label: t('table.sustained'), cell: (c) => formatDate(c.sustained) },
          rowCol,
        ]}
      />
      <ChangeTable
        title={t('tables.release')}
        intro={t('tables.releaseIntro')}
        rows={of('slot', 'release')}
        columns={[
          { label: t('table.calling'), cell: seat },
          { label: t('table.person'), cell: person },
        ]}
      />
    </>
  )
}
