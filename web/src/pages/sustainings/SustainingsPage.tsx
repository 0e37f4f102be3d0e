import { comingSunday, formatLocalDate } from '../../i18n/format'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useWards } from '../../api/wards'
import { useSustainings } from '../../api/sustainings'
import type { Proposal } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { bishopWards, can } from '../../auth/roles'
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { PresentDialog, ScriptActions } from './SustainingDialogs'
import { readingOrder } from './sustainingLines'
import { SustainingSection } from './SustainingSection'

/** The parts of the Sunday's list, in the order they are read. */
const SECTIONS = ['releases', 'calls', 'ordinations'] as const

/** A ward's sustainings for this Sunday (docs/api-reference.md §12): releases first, then calls. */
export default function SustainingsPage() {
  const { t } = useTranslation('sustainings')
  const me = useMe()
  const wards = useWards()
  const [params, setParams] = useSearchParams()
  const [confirm, setConfirm] = useState<Proposal | null>(null)

  const stakeWide = can(me, 'proposals.view') || can(me, 'proposals.manage')
  const own = bishopWards(me, wards.data ?? [])
  const choosable = stakeWide ? (wards.data ?? []) : own
  const requested = Number(params.get('ward'))
  const wardId = choosable.some((w) => w.id === requested) ? requested : (own[0]?.id ?? choosable[0]?.id ?? null)

  const list = useSustainings(wardId)

  if (wards.isLoading) return <Loading label={t('loading')} />
  if (wards.error) return <ErrorMessage error={wards.error} />

  const items = list.data?.items ?? []
  const lines = readingOrder(items, (office) => t(`page.ordainedAs.${office}`))
  const sunday = formatLocalDate(comingSunday(), 'full')
  const wardName = choosable.find((w) => w.id === wardId)?.name ?? ''

  return (
    <div>
      <PageHeader title={t('page.title')} actions={wardId !== null && <ScriptActions wardId={wardId} />} />
      {choosable.length > 1 && (
        <div className="filters">
          <label className="field field-inline">
            <span>{t('page.ward')}</span>
            <select value={wardId ?? ''} onChange={(e) => setParams({ ward: e.target.value })}>
              {choosable.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      {wardId === null ? (
        <Empty>{t('page.noWard')}</Empty>
      ) : (
        <>
          <p className="lead">{t('page.sunday', { ward: wardName, date: sunday })}</p>
          {list.isLoading && <Loading label={t('loading')} />}
          {list.error && <ErrorMessage error={list.error} />}
          {list.data && items.length === 0 && <Empty>{t('page.nothing')}</Empty>}
          {SECTIONS.map((part) => (
            <SustainingSection
              key={part}
              title={t(`page.${part}`)}
              intro={t(`page.${part}Intro`)}
              lines={lines[part]}
              testId={`sustaining-${part}`}
              onPresent={setConfirm}
            />
          ))}
        </>
      )}
      <PresentDialog proposal={confirm} wardId={wardId} wardName={wardName} onClose={() => setConfirm(null)} />
    </div>
  )
}
