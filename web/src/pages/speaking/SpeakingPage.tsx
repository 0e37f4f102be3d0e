import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'
import { qk } from '../../api/queries'
import type { Calendar, CalendarRow, Topic } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can, fullName } from '../../auth/roles'
import { Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, Field, Loading, PageHeader, splitError } from '../../components/ui'

const MONTHS = Array.from({ length: 12 }, (_, i) =>
  new Date(2000, i, 1).toLocaleDateString(undefined, { month: 'short' }),
)
const MONTHS_LONG = Array.from({ length: 12 }, (_, i) =>
  new Date(2000, i, 1).toLocaleDateString(undefined, { month: 'long' }),
)

interface CellTarget {
  row: CalendarRow
  month: number
}

function seatLabel(row: CalendarRow): string {
  return row.high_councilor ? fullName(row.high_councilor) : `Seat ${row.slot_id} (vacant)`
}

export default function SpeakingPage() {
  const me = useMe()
  const qc = useQueryClient()
  const notify = useNotify()
  const [params, setParams] = useSearchParams()
  const thisYear = new Date().getFullYear()
  const year = Number(params.get('year')) || thisYear
  const setYear = (y: number) => setParams({ year: String(y) }, { replace: true })
  const manager = can(me, 'speaking.manage')

  const calendar = useQuery({
    queryKey: qk.calendar(year),
    queryFn: () => api<Calendar>(`/speaking/calendar/${year}`),
  })
  const topics = useQuery({
    queryKey: qk.topics(year),
    queryFn: () => api<Topic[]>(`/speaking/topics/${year}`),
    // The calendar carries each month's topic; older servers may not.
    enabled: !!calendar.data && !Array.isArray(calendar.data.topics),
  })

  const [cell, setCell] = useState<CellTarget | null>(null)
  const [wardChoice, setWardChoice] = useState<string>('')
  const [topicMonth, setTopicMonth] = useState<number | null>(null)

  const wardName = (id: number | null) =>
    id == null ? '—' : (calendar.data?.wards.find((w) => w.id === id)?.name ?? `Ward ${id}`)

  const override = useMutation({
    mutationFn: (v: { high_councilor_id: number; month: number; ward_id: number | null }) =>
      api<Calendar>('/speaking/calendar/override', { method: 'PUT', body: { ...v, year } }),
    onSuccess: (cal) => {
      // The response is the whole year, so a swap shows at once.
      if (cal && Array.isArray(cal.rows)) qc.setQueryData(qk.calendar(year), cal)
      else void qc.invalidateQueries({ queryKey: qk.calendar(year) })
      setCell(null)
      notify('Speaking assignment changed.', 'success')
    },
  })
  const restore = useMutation({
    mutationFn: (v: { high_councilor_id: number; month: number }) =>
      api('/speaking/calendar/override', { method: 'DELETE', query: { ...v, year } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: qk.calendar(year) })
      setCell(null)
      notify('Rotation restored for that month.', 'success')
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

  return (
    <div className="speaking-page">
      <PageHeader
        title={`Speaking schedule ${year}`}
        actions={
          <div className="year-nav" role="group" aria-label="Year">
            <button
              type="button"
              className="button"
              onClick={() => setYear(year - 1)}
              aria-label={`Previous year, ${year - 1}`}
            >
              ← {year - 1}
            </button>
            {year !== thisYear && (
              <button type="button" className="button" onClick={() => setYear(thisYear)}>
                This year
              </button>
            )}
            <button
              type="button"
              className="button"
              onClick={() => setYear(year + 1)}
              aria-label={`Next year, ${year + 1}`}
            >
              {year + 1} →
            </button>
            <button type="button" className="button no-print" onClick={() => window.print()}>
              Print
            </button>
          </div>
        }
      />
      {calendar.isLoading && <Loading label="Loading the schedule…" />}
      <ErrorMessage error={calendar.error} />
      {calendar.data && calendar.data.rows.length === 0 && <Empty>There are no high council seats.</Empty>}
      {calendar.data && calendar.data.rows.length > 0 && (
        <>
          <p className="muted small no-print legend">
            <span className="legend-item">
              <span className="swatch swatch-override" /> changed from the rotation
            </span>
            <span className="legend-item">
              <span className="swatch swatch-mine" /> your assignments
            </span>
            {manager && <span>Select a cell to change it.</span>}
          </p>
          <div className="grid-scroll" tabIndex={0} aria-label="Speaking schedule grid, scrolls sideways">
            <table className="speaking-grid">
              <caption className="visually-hidden">High councilor speaking assignments by month, {year}</caption>
              <thead>
                <tr>
                  <th scope="col" className="seat-col">
                    Seat
                  </th>
                  {MONTHS.map((m, i) => (
                    <th scope="col" key={m} title={MONTHS_LONG[i]}>
                      {m}
                    </th>
                  ))}
                </tr>
                <tr className="topics-row">
                  <th scope="row" className="seat-col">
                    Topic
                  </th>
                  {MONTHS.map((_, i) => {
                    const t = topicFor(i + 1)
                    return (
                      <td key={i} className="topic-cell">
                        {manager ? (
                          <button
                            type="button"
                            className="cell-button topic-button"
                            onClick={() => setTopicMonth(i + 1)}
                            aria-label={`Topic for ${MONTHS_LONG[i]}: ${t?.topic ?? 'none'}. Edit`}
                          >
                            {t?.topic ?? <span className="muted no-print">+ topic</span>}
                          </button>
                        ) : (
                          <span title={t?.reference ?? undefined}>{t?.topic ?? ''}</span>
                        )}
                      </td>
                    )
                  })}
                </tr>
              </thead>
              <tbody>
                {calendar.data.rows.map((row) => {
                  const mine = row.high_councilor_id != null && row.high_councilor_id === me.id
                  return (
                    <tr key={row.slot_id} className={mine ? 'mine' : undefined}>
                      <th scope="row" className="seat-col">
                        <span className="seat-no">{row.slot_id}</span> {seatLabel(row)}
                        {mine && <span className="visually-hidden"> (you)</span>}
                      </th>
                      {Array.from({ length: 12 }, (_, i) => {
                        const m = row.months.find((x) => x.month === i + 1)
                        const name = wardName(m?.ward_id ?? null)
                        const cls = `${m?.overridden ? 'overridden' : ''} ${mine ? 'mine' : ''}`
                        const label = `${seatLabel(row)}, ${MONTHS_LONG[i]}: ${m?.ward_id == null ? 'not speaking' : name}${m?.overridden ? ' (changed)' : ''}`
                        return (
                          <td key={i} className={cls} data-testid={`cell-${row.slot_id}-${i + 1}`}>
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
        title={cell ? `${seatLabel(cell.row)} — ${MONTHS_LONG[cell.month - 1]} ${year}` : ''}
        description="Choose the ward this high councilor speaks in. If another seat has that ward this month, the two swap."
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
            <Field label="Ward" error={splitError(override.error, ['ward_id']).fields.ward_id}>
              <select value={wardChoice} onChange={(e) => setWardChoice(e.target.value)}>
                <option value="">Not speaking this month</option>
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
                  Restore rotation
                </button>
              )}
              <button type="submit" className="button button-primary" disabled={override.isPending}>
                Save
              </button>
            </div>
          </form>
        )}
      </Dialog>
      {topicMonth !== null && (
        <TopicDialog year={year} month={topicMonth} topic={topicFor(topicMonth)} onClose={() => setTopicMonth(null)} />
      )}
    </div>
  )
}

function TopicDialog({ year, month, topic, onClose }: { year: number; month: number; topic?: Topic; onClose(): void }) {
  const qc = useQueryClient()
  const notify = useNotify()
  const [text, setText] = useState(topic?.topic ?? '')
  const [reference, setReference] = useState(topic?.reference ?? '')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const save = useMutation({
    mutationFn: () =>
      api(`/speaking/topics/${year}/${month}`, {
        method: 'PUT',
        body: { topic: text.trim(), reference: reference.trim() || null },
      }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: qk.topics(year) })
      void qc.invalidateQueries({ queryKey: qk.calendar(year) })
      notify('Topic saved.', 'success')
      onClose()
    },
    onError: (err) => setErrors(splitError(err, ['topic', 'reference']).fields),
  })
  const del = useMutation({
    mutationFn: () => api(`/speaking/topics/${year}/${month}`, { method: 'DELETE' }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: qk.topics(year) })
      notify('Topic removed.', 'success')
      onClose()
    },
  })
  const general = splitError(save.error, ['topic', 'reference']).general
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={`Topic for ${MONTHS_LONG[month - 1]} ${year}`}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          const errs: Record<string, string> = {}
          if (!text.trim()) errs.topic = 'Enter a topic.'
          else if (text.trim().length > 200) errs.topic = 'At most 200 characters.'
          if (reference.length > 2000) errs.reference = 'At most 2,000 characters.'
          setErrors(errs)
          if (Object.keys(errs).length === 0) save.mutate()
        }}
      >
        <Field label="Topic" error={errors.topic}>
          <input value={text} onChange={(e) => setText(e.target.value)} />
        </Field>
        <Field label="Reference" error={errors.reference} hint="Optional: a talk, scripture or link">
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
              Remove topic
            </button>
          )}
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            Save topic
          </button>
        </div>
      </form>
    </Dialog>
  )
}
