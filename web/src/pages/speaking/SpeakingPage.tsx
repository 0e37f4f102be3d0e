import { useLayoutEffect, useMemo, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { useCalendar, useDeleteTopic, useOverride, useRestoreCell, useSaveTopic, useTopics } from '../../api/speaking'
import type { CalendarRow, Topic } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can, fullName } from '../../auth/roles'
import { Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, Field, Loading, PageHeader, splitError } from '../../components/ui'

/** The twelve month names in the user's language (Intl, docs/api-reference.md §13). */
function useMonthNames(): { short: string[]; long: string[] } {
  const { i18n } = useTranslation()
  const language = i18n.language
  return useMemo(() => {
    const names = (month: 'short' | 'long') => {
      const format = new Intl.DateTimeFormat(language, { month })
      return Array.from({ length: 12 }, (_, i) => format.format(new Date(2000, i, 1)))
    }
    return { short: names('short'), long: names('long') }
  }, [language])
}

interface CellTarget {
  row: CalendarRow
  month: number
}

function seatLabel(row: CalendarRow, t: TFunction<'speaking'>): string {
  return row.high_councilor ? fullName(row.high_councilor) : t('vacantSeat', { seat: row.slot_id })
}

/**
 * On a narrow screen the grid scrolls sideways; it opens at the current
 * month (else a phone shows only January to March), once per year shown.
 */
function useScrollToMonth(month: number | null, ready: boolean, year: number) {
  const scroller = useRef<HTMLDivElement>(null)
  const done = useRef<number | null>(null)
  useLayoutEffect(() => {
    const box = scroller.current
    if (!ready || !box || done.current === year) return
    done.current = year
    if (month == null || box.scrollWidth <= box.clientWidth) return
    const header = box.querySelector<HTMLElement>(`thead th[data-month="${month}"]`)
    const seat = box.querySelector<HTMLElement>('thead th.seat-col')
    if (header) box.scrollLeft = header.offsetLeft - (seat?.offsetWidth ?? 0)
  }, [month, ready, year])
  return scroller
}

export default function SpeakingPage() {
  const { t } = useTranslation('speaking')
  const { short: MONTHS, long: MONTHS_LONG } = useMonthNames()
  const me = useMe()
  const notify = useNotify()
  const [params, setParams] = useSearchParams()
  const thisYear = new Date().getFullYear()
  const year = Number(params.get('year')) || thisYear
  const setYear = (y: number) => setParams({ year: String(y) }, { replace: true })
  const manager = can(me, 'speaking.manage')
  const currentMonth = year === thisYear ? new Date().getMonth() + 1 : null

  const calendar = useCalendar(year)
  // The calendar carries each month's topic; older servers may not.
  const topics = useTopics(year, !!calendar.data && !Array.isArray(calendar.data.topics))

  const [cell, setCell] = useState<CellTarget | null>(null)
  const [wardChoice, setWardChoice] = useState<string>('')
  const [topicMonth, setTopicMonth] = useState<number | null>(null)

  const wardName = (id: number | null) =>
    id == null ? '—' : (calendar.data?.wards.find((w) => w.id === id)?.name ?? t('wardNumber', { id }))

  const override = useOverride(year, {
    onSuccess: () => {
      setCell(null)
      notify(t('notice.changed'), 'success')
    },
  })
  const restore = useRestoreCell(year, {
    onSuccess: () => {
      setCell(null)
      notify(t('notice.restored'), 'success')
    },
  })

  function openCell(row: CalendarRow, month: number) {
    const m = row.months.find((x) => x.month === month)
    setWardChoice(m?.ward_id == null ? '' : String(m.ward_id))
    override.reset()
    restore.reset()
    setCell({ row, month })
  }

  const topicFor = (month: number) => {
    const list = Array.isArray(calendar.data?.topics) ? calendar.data.topics : topics.data
    const t = list?.find((x) => x.month === month)
    return t && t.topic ? t : undefined
  }
  const cellMonth = cell ? cell.row.months.find((m) => m.month === cell.month) : undefined
  const scroller = useScrollToMonth(currentMonth, !!calendar.data && calendar.data.rows.length > 0, year)
  const vacancies = calendar.data?.rows.filter((r) => r.high_councilor_id == null).length ?? 0

  return (
    <div className="speaking-page">
      <PageHeader
        title={t('title', { year })}
        actions={
          <div className="year-nav" role="group" aria-label={t('year.group')}>
            <button
              type="button"
              className="button"
              onClick={() => setYear(year - 1)}
              aria-label={t('year.previous', { year: year - 1 })}
            >
              ← {year - 1}
            </button>
            {year !== thisYear && (
              <button type="button" className="button" onClick={() => setYear(thisYear)}>
                {t('year.this')}
              </button>
            )}
            <button
              type="button"
              className="button"
              onClick={() => setYear(year + 1)}
              aria-label={t('year.next', { year: year + 1 })}
            >
              {year + 1} →
            </button>
            <button type="button" className="button no-print" onClick={() => window.print()}>
              {t('print')}
            </button>
          </div>
        }
      />
      {calendar.isLoading && <Loading label={t('loading')} />}
      <ErrorMessage error={calendar.error} />
      {calendar.data && calendar.data.rows.length === 0 && <Empty>{t('noSeats')}</Empty>}
      {calendar.data && calendar.data.rows.length > 0 && (
        <>
          <p className="muted small no-print legend">
            {currentMonth && (
              <span className="legend-item">
                <span className="swatch swatch-current" /> {t('legend.thisMonth')}
              </span>
            )}
            <span className="legend-item">
              <span className="swatch swatch-override" /> {t('legend.changed')}
            </span>
            <span className="legend-item">
              <span className="swatch swatch-mine" /> {t('legend.mine')}
            </span>
            {vacancies > 0 && (
              <span className="legend-item">
                <span className="swatch swatch-vacant" /> {t('legend.vacant', { count: vacancies })}
              </span>
            )}
            {manager && <span>{t('legend.select')}</span>}
            <span className="show-phone-inline">{t('legend.swipe')}</span>
          </p>
          <div className="grid-scroll" tabIndex={0} aria-label={t('grid.label')} ref={scroller}>
            <table className="speaking-grid">
              <caption className="visually-hidden">{t('grid.caption', { year })}</caption>
              <thead>
                <tr>
                  <th scope="col" className="seat-col">
                    {t('grid.seat')}
                  </th>
                  {MONTHS.map((m, i) => (
                    <th
                      scope="col"
                      key={i}
                      data-month={i + 1}
                      title={MONTHS_LONG[i]}
                      className={currentMonth === i + 1 ? 'current-month' : undefined}
                      aria-current={currentMonth === i + 1 ? 'date' : undefined}
                    >
                      {m}
                      {currentMonth === i + 1 && <span className="visually-hidden"> ({t('legend.thisMonth')})</span>}
                    </th>
                  ))}
                </tr>
                <tr className="topics-row">
                  <th scope="row" className="seat-col">
                    {t('grid.topic')}
                  </th>
                  {MONTHS.map((_, i) => {
                    const topic = topicFor(i + 1)
                    return (
                      <td key={i} className={`topic-cell${currentMonth === i + 1 ? ' current-month' : ''}`}>
                        {manager ? (
                          <button
                            type="button"
                            className="cell-button topic-button"
                            onClick={() => setTopicMonth(i + 1)}
                            aria-label={t('topic.editLabel', {
                              month: MONTHS_LONG[i],
                              topic: topic?.topic ?? t('topic.none'),
                            })}
                          >
                            {topic?.topic ?? <span className="muted no-print">{t('topic.add')}</span>}
                          </button>
                        ) : (
                          <span title={topic?.reference ?? undefined}>{topic?.topic ?? ''}</span>
                        )}
                      </td>
                    )
                  })}
                </tr>
              </thead>
              <tbody>
                {calendar.data.rows.map((row) => {
                  const mine = row.high_councilor_id != null && row.high_councilor_id === me.id
                  const vacant = row.high_councilor_id == null
                  const rowClass = [mine && 'mine', vacant && 'vacant'].filter(Boolean).join(' ') || undefined
                  return (
                    <tr key={row.slot_id} className={rowClass}>
                      <th scope="row" className="seat-col">
                        <span className="seat-no">{row.slot_id}</span> {seatLabel(row, t)}
                        {mine && <span className="visually-hidden"> {t('you')}</span>}
                      </th>
                      {Array.from({ length: 12 }, (_, i) => {
                        const m = row.months.find((x) => x.month === i + 1)
                        const name = wardName(m?.ward_id ?? null)
                        const cls = [
                          m?.overridden && 'overridden',
                          mine && 'mine',
                          currentMonth === i + 1 && 'current-month',
                          vacant && m?.ward_id != null && 'vacant',
                        ]
                          .filter(Boolean)
                          .join(' ')
                        const where =
                          m?.ward_id == null
                            ? t('cell.notSpeaking')
                            : vacant
                              ? t('cell.noSpeaker', { ward: name })
                              : name
                        const label = t(m?.overridden ? 'cell.labelChanged' : 'cell.label', {
                          seat: seatLabel(row, t),
                          month: MONTHS_LONG[i],
                          where,
                        })
                        return (
                          <td key={i} className={cls || undefined} data-testid={`cell-${row.slot_id}-${i + 1}`}>
                            {manager && row.high_councilor_id != null ? (
                              <button
                                type="button"
                                className="cell-button"
                                aria-label={label}
                                onClick={() => openCell(row, i + 1)}
                              >
                                {name}
                              </button>
                            ) : (
                              <span aria-label={label}>{name}</span>
                            )}
                          </td>
                        )
                      })}
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
        </>
      )}

      <Dialog
        open={cell !== null}
        onOpenChange={(o) => !o && setCell(null)}
        title={cell ? `${seatLabel(cell.row, t)} — ${MONTHS_LONG[cell.month - 1]} ${year}` : ''}
        description={t('override.description')}
      >
        {cell && (
          <form
            onSubmit={(e) => {
              e.preventDefault()
              override.mutate({
                high_councilor_id: cell.row.high_councilor_id!,
                month: cell.month,
                ward_id: wardChoice === '' ? null : Number(wardChoice),
              })
            }}
          >
            <Field label={t('override.ward')} error={splitError(override.error, ['ward_id']).fields.ward_id}>
              <select value={wardChoice} onChange={(e) => setWardChoice(e.target.value)}>
                <option value="">{t('override.notSpeaking')}</option>
                {calendar.data?.wards.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name}
                  </option>
                ))}
              </select>
            </Field>
            {override.error && <ErrorMessage error={splitError(override.error, ['ward_id']).general} />}
            <ErrorMessage error={restore.error} />
            <div className="dialog-actions">
              {cellMonth?.overridden && (
                <button
                  type="button"
                  className="button"
                  disabled={restore.isPending}
                  onClick={() => restore.mutate({ high_councilor_id: cell.row.high_councilor_id!, month: cell.month })}
                >
                  {t('override.restore')}
                </button>
              )}
              <button type="submit" className="button button-primary" disabled={override.isPending}>
                {t('override.save')}
              </button>
            </div>
          </form>
        )}
      </Dialog>
      {topicMonth !== null && (
        <TopicDialog
          year={year}
          month={topicMonth}
          monthName={MONTHS_LONG[topicMonth - 1] ?? ''}
          topic={topicFor(topicMonth)}
          onClose={() => setTopicMonth(null)}
        />
      )}
    </div>
  )
}

function TopicDialog({
  year,
  month,
  monthName,
  topic,
  onClose,
}: {
  year: number
  month: number
  monthName: string
  topic?: Topic
  onClose(): void
}) {
  const { t } = useTranslation('speaking')
  const notify = useNotify()
  const [text, setText] = useState(topic?.topic ?? '')
  const [reference, setReference] = useState(topic?.reference ?? '')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const save = useSaveTopic(year, month, {
    onSuccess: () => {
      notify(t('notice.topicSaved'), 'success')
      onClose()
    },
    onError: (err) => setErrors(splitError(err, ['topic', 'reference']).fields),
  })
  const del = useDeleteTopic(year, month, {
    onSuccess: () => {
      notify(t('notice.topicRemoved'), 'success')
      onClose()
    },
  })
  const general = splitError(save.error, ['topic', 'reference']).general
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t('topic.title', { month: monthName, year })}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          const errs: Record<string, string> = {}
          if (!text.trim()) errs.topic = t('topic.required')
          else if (text.trim().length > 200) errs.topic = t('topic.tooLong')
          if (reference.length > 2000) errs.reference = t('topic.referenceTooLong')
          setErrors(errs)
          if (Object.keys(errs).length === 0) save.mutate({ topic: text.trim(), reference: reference.trim() || null })
        }}
      >
        <Field label={t('topic.topic')} error={errors.topic}>
          <input value={text} onChange={(e) => setText(e.target.value)} />
        </Field>
        <Field label={t('topic.reference')} error={errors.reference} hint={t('topic.referenceHint')}>
          <textarea rows={3} value={reference} onChange={(e) => setReference(e.target.value)} />
        </Field>
        {general && <ErrorMessage error={general} />}
        <ErrorMessage error={del.error} />
        <div className="dialog-actions">
          {topic && (
            <button
              type="button"
              className="button button-danger"
              onClick={() => del.mutate()}
              disabled={del.isPending}
            >
              {t('topic.remove')}
            </button>
          )}
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {t('topic.save')}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
