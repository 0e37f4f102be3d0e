import { acrossStakes, setScope } from '../../db/stake-scope.ts'
import crypto from 'node:crypto'
import type { SpeakingFeedStatus } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { retrying } from '../../db/transaction.ts'
import { notFound } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { feedMonths, speakingDay, zonedInstant } from './feed.dates.ts'
import * as feeds from './feed.repository.ts'
import * as repo from './speaking.repository.ts'
import { toCalendar } from './speaking.service.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import { addPlanEvents } from '../appointments/appointments.feed.ts'

/** 256 random bits, URL-safe: 43 characters of base64url. */
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{43})\.ics$/

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

/** `/api/speaking/feed/{token}.ics` under PUBLIC_URL, or under the origin the request came to. */
export function feedUrl(base: string, token: string): string {
  return `${base}/api/speaking/feed/${token}.ics`
}

/**
 * The speaking calendar feed (docs/api-reference.md §13): a secret per-user address that
 * calendar apps poll without signing in. What it holds is decided when it is
 * read, from the owner's seat and permissions at that moment.
 */
export class FeedService {
  constructor(private readonly ctx: AppContext) {}

  /** Creates or rotates the caller's feed; the token is returned once and kept only as its hash. */
  async create(actor: Actor): Promise<string> {
    // Drawn outside the retried statement: a re-run writes the same token it returns.
    const token = crypto.randomBytes(32).toString('base64url')
    const hash = hashToken(token)
    await retrying(() => feeds.upsertFeed(this.ctx.db, actor.id, hash, this.ctx.clock.iso()))
    return token
  }

  /** The profile's line (S13): whether a feed exists and since when, so an owner sees one he did not make. */
  async status(actor: Actor): Promise<SpeakingFeedStatus> {
    const row = await feeds.findFeed(this.ctx.db, actor.id)
    return { active: row !== undefined, created_at: row?.created_at ?? null }
  }

  /** Idempotent: a user without a feed gets 204 too. */
  async revoke(actor: Actor): Promise<void> {
    await retrying(() => feeds.deleteFeed(this.ctx.db, actor.id))
  }

  /** The iCalendar text for `{token}.ics`; an unknown, revoked or malformed name is 404, like any absent page. */
  async render(file: string): Promise<string> {
    const token = TOKEN_PATTERN.exec(file)?.[1]
    // The token names its owner, and the owner the stake: found across stakes,
    // then the feed is built in that stake alone (docs/api-reference.md §14).
    const owner = token
      ? await acrossStakes(() => feeds.findFeedOwner(this.ctx.db, this.ctx.dialect, hashToken(token)))
      : undefined
    if (!owner) throw notFound('Feed')
    setScope({ stakeId: owner.stakeId })

    const { db, clock } = this.ctx
    const wholeStake = owner.permissions.has('speaking.manage')
    const { timezone } = await currentStakeSettings(db)
    const months = feedMonths(clock.now(), timezone)
    const [seats, wards] = await Promise.all([repo.listSeats(db), feeds.listFeedWards(db)])
    const mine = seats.some((s) => s.user_id === owner.id)

    // Loaded on the first feed fetched, not at start (docs/performance.md).
    const { default: ical } = await import('ical-generator')
    const cal = ical({
      name: wholeStake ? 'Stake speaking schedule' : 'My speaking assignments',
      prodId: { company: 'Stake Administration Service', product: 'speaking-feed', language: 'EN' },
      ttl: 6 * 3600,
    })
    // §18: the owner's interviews and the Sunday plan, whoever the owner is.
    await addPlanEvents(cal, db, { id: owner.id, wholeStake }, clock.now(), timezone, months)
    if (!wholeStake && !mine) return withFinalCrlf(cal.toString())

    const wardById = new Map(wards.map((w) => [w.id, w]))
    for (const year of [...new Set(months.map((m) => m.year))]) {
      const [overrides, topics] = await Promise.all([repo.listOverrides(db, year), repo.listTopics(db, year)])
      const calendar = toCalendar(year, seats, wards, overrides, topics)
      const topicOf = new Map(calendar.topics.map((t) => [t.month, t]))
      for (const { month } of months.filter((m) => m.year === year)) {
        for (const row of calendar.rows) {
          const cell = row.months[month - 1]!
          const ward = cell.ward_id === null ? undefined : wardById.get(cell.ward_id)
          if (!ward || !row.high_councilor) continue
          if (!wholeStake && row.high_councilor.id !== owner.id) continue
          const start = zonedInstant(
            { year, month, day: speakingDay(year, month, ward.speaking_sunday) },
            ward.start_time,
            timezone,
          )
          const speaker = `${row.high_councilor.fname} ${row.high_councilor.lname}`.trim()
          const topic = topicOf.get(month)
          cal.createEvent({
            // The seat's month: a changed ward, time or speaker updates the same event.
            id: `speaking-${row.slot_id}-${year}-${String(month).padStart(2, '0')}@stake-administration`,
            start,
            end: new Date(start.getTime() + 3600 * 1000),
            stamp: clock.now(),
            summary: wholeStake ? `Speaking: ${ward.name} — ${speaker}` : `Speaking: ${ward.name}`,
            description: topic?.topic ? [topic.topic, topic.reference].filter(Boolean).join('\n') : null,
          })
        }
      }
    }
    return withFinalCrlf(cal.toString())
  }
}

/** RFC 5545 ends every content line, the last one too, with CRLF; ical-generator leaves the last bare. */
const withFinalCrlf = (text: string) => (text.endsWith('\r\n') ? text : `${text}\r\n`)
