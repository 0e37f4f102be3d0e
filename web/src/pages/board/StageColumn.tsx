import type { KeyboardEvent, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useDroppable } from '@dnd-kit/core'
import { COLUMNS, type Column } from './columns'

export function StageColumn({
  stage,
  count,
  refuse,
  tabbed,
  children,
}: {
  stage: Column
  count: number
  /** During a drag: this column is not a valid target (dimmed, and drops are refused). */
  refuse: boolean
  /** On a phone the column is the panel of its tab, whose title the tab shows. */
  tabbed: boolean
  children: ReactNode
}) {
  const { t } = useTranslation('board')
  const { setNodeRef, isOver } = useDroppable({ id: stage, disabled: refuse })
  return (
    <section
      ref={setNodeRef}
      className={`column ${isOver ? 'column-over' : ''} ${refuse ? 'column-refuse' : ''}`}
      aria-labelledby={tabbed ? `tab-${stage}` : `col-${stage}`}
      role={tabbed ? 'tabpanel' : undefined}
      id={`panel-${stage}`}
      data-stage={stage}
    >
      {!tabbed && (
        <h2 id={`col-${stage}`} className="column-title">
          <span>{t(`columns.${stage}`)}</span>
          <span className="count">
            {count}
            <span className="visually-hidden"> {t('columns.proposals')}</span>
          </span>
        </h2>
      )}
      <div className="column-body">{children}</div>
    </section>
  )
}

/** On a phone: one tab per stage, with its count; arrows move between tabs. */
export function StageTabs({
  counts,
  selected,
  onSelect,
}: {
  counts: Record<Column, number>
  selected: Column
  onSelect(stage: Column): void
}) {
  const { t } = useTranslation('board')
  function onKey(e: KeyboardEvent<HTMLButtonElement>, i: number) {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    e.preventDefault()
    const next = COLUMNS[(i + step + COLUMNS.length) % COLUMNS.length]!
    onSelect(next)
    document.getElementById(`tab-${next}`)?.focus()
  }
  return (
    <div className="stage-tabs" role="tablist" aria-label={t('tabs.label')}>
      {COLUMNS.map((stage, i) => (
        <button
          key={stage}
          type="button"
          role="tab"
          id={`tab-${stage}`}
          aria-selected={stage === selected}
          aria-controls={stage === selected ? `panel-${stage}` : undefined}
          tabIndex={stage === selected ? 0 : -1}
          className="stage-tab"
          onClick={() => onSelect(stage)}
          onKeyDown={(e) => onKey(e, i)}
        >
          <span>{t(`columns.${stage}`)}</span> <span className="count">{counts[stage]}</span>
        </button>
      ))}
    </div>
  )
}
