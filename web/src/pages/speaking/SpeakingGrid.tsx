import { useTranslation } from 'react-i18next'
import type { CalendarRow, Topic } from '../../api/types'
import { useMonthNames } from './gridHooks'
import { isVacant, seatLabel } from './speakingCalendar'

interface GridProps {
  year: number
  rows: readonly CalendarRow[]
  currentMonth: number | null
  manager: boolean
  meId: number
  wardName(id: number | null): string
  topicFor(month: number): Topic | undefined
  onEditTopic(month: number): void
  onOpenCell(row: CalendarRow, month: number): void
}

const MONTH_NUMBERS = Array.from({ length: 12 }, (_, i) => i + 1)

/** The year's grid: a column a month, a row a seat, with the month's topic on top. */
export function SpeakingGrid(props: GridProps) {
  const { t } = useTranslation('speaking')
  const { short, long } = useMonthNames()
  const { year, rows, currentMonth } = props
  return (
    <table className="speaking-grid">
      <caption className="visually-hidden">{t('grid.caption', { year })}</caption>
      <thead>
        <tr>
          <th scope="col" className="seat-col">
            {t('grid.seat')}
          </th>
          {MONTH_NUMBERS.map((month) => (
            <th
              scope="col"
              key={month}
              data-month={month}
              title={long[month - 1]}
              className={currentMonth === month ? 'current-month' : undefined}
              aria-current={currentMonth === month ? 'date' : undefined}
            >
              {short[month - 1]}
              {currentMonth === month && <span className="visually-hidden"> ({t('legend.thisMonth')})</span>}
            </th>
          ))}
        </tr>
        <TopicsRow {...props} monthNames={long} />
      </thead>
      <tbody>
        {rows.map((row) => (
          <SeatRow key={row.slot_id} {...props} row={row} monthNames={long} />
        ))}
      </tbody>
    </table>
  )
}

function TopicsRow({ currentMonth, manager, topicFor, onEditTopic, monthNames }: GridProps & { monthNames: string[] }) {
  const { t } = useTranslation('speaking')
  return (
    <tr className="topics-row">
      <th scope="row" className="seat-col">
        {t('grid.topic')}
      </th>
      {MONTH_NUMBERS.map((month) => {
        const topic = topicFor(month)
        return (
          <td key={month} className={`topic-cell${currentMonth === month ? ' current-month' : ''}`}>
            {manager ? (
              <button
                type="button"
                className="cell-button topic-button"
                onClick={() => onEditTopic(month)}
                aria-label={t('topic.editLabel', {
                  month: monthNames[month - 1],
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
  )
}

function SeatRow({
  row,
  currentMonth,
  manager,
  meId,
  wardName,
  onOpenCell,
  monthNames,
}: GridProps & { row: CalendarRow; monthNames: string[] }) {
  const { t } = useTranslation('speaking')
  const mine = row.high_councilor_id != null && row.high_councilor_id === meId
  const vacant = isVacant(row)
  const rowClass = [mine && 'mine', vacant && 'vacant'].filter(Boolean).join(' ') || undefined
  return (
    <tr className={rowClass}>
      <th scope="row" className="seat-col">
        <span className="seat-no">{row.slot_id}</span> {seatLabel(row, t)}
        {mine && <span className="visually-hidden"> {t('you')}</span>}
      </th>
      {MONTH_NUMBERS.map((month) => {
        const m = row.months.find((x) => x.month === month)
        const name = wardName(m?.ward_id ?? null)
        const cls = [
          m?.overridden && 'overridden',
          mine && 'mine',
          currentMonth === month && 'current-month',
          vacant && m?.ward_id != null && 'vacant',
        ]
          .filter(Boolean)
          .join(' ')
        const where = m?.ward_id == null ? t('cell.notSpeaking') : vacant ? t('cell.noSpeaker', { ward: name }) : name
        const label = t(m?.overridden ? 'cell.labelChanged' : 'cell.label', {
          seat: seatLabel(row, t),
          month: monthNames[month - 1],
          where,
        })
        return (
          <td key={month} className={cls || undefined} data-testid={`cell-${row.slot_id}-${month}`}>
            {manager && !vacant ? (
              <button type="button" className="cell-button" aria-label={label} onClick={() => onOpenCell(row, month)}>
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
}
