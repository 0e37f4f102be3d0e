import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useCalendar, useTopics } from '../../api/speaking'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { useMonthNames, useScrollToMonth } from './gridHooks'
import { OverrideDialog } from './OverrideDialog'
import { SpeakingGrid } from './SpeakingGrid'
import { SpeakingLegend } from './SpeakingLegend'
import type { CellTarget } from './speakingCalendar'
import { TopicDialog } from './TopicDialog'
import { YearNav } from './YearNav'

export default function SpeakingPage() {
  const { t } = useTranslation('speaking')
  const { long: MONTHS_LONG } = useMonthNames()
  const me = useMe()
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
  const [topicMonth, setTopicMonth] = useState<number | null>(null)

  const wardName = (id: number | null) =>
    id == null ? '—' : (calendar.data?.wards.find((w) => w.id === id)?.name ?? t('wardNumber', { id }))
  const topicFor = (month: number) => {
    const list = Array.isArray(calendar.data?.topics) ? calendar.data.topics : topics.data
    const found = list?.find((x) => x.month === month)
    return found && found.topic ? found : undefined
  }
  const rows = calendar.data?.rows ?? []
  const scroller = useScrollToMonth(currentMonth, rows.length > 0, year)

  return (
    <div className="speaking-page">
      <PageHeader
        title={t('title', { year })}
        actions={<YearNav year={year} thisYear={thisYear} setYear={setYear} />}
      />
      {calendar.isLoading && <Loading label={t('loading')} />}
      <ErrorMessage error={calendar.error} />
      {calendar.data && rows.length === 0 && <Empty>{t('noSeats')}</Empty>}
      {rows.length > 0 && (
        <>
          <SpeakingLegend rows={rows} year={year} currentMonth={currentMonth} manager={manager} />
          <div className="grid-scroll" tabIndex={0} aria-label={t('grid.label')} ref={scroller}>
            <SpeakingGrid
              year={year}
              rows={rows}
              currentMonth={currentMonth}
              manager={manager}
              meId={me.id}
              wardName={wardName}
              topicFor={topicFor}
              onEditTopic={setTopicMonth}
              onOpenCell={(row, month) => setCell({ row, month })}
            />
          </div>
        </>
      )}

      <OverrideDialog year={year} cell={cell} wards={calendar.data?.wards ?? []} onClose={() => setCell(null)} />
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
