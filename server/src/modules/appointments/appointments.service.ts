import crypto from 'node:crypto'
import type { Appointment, BookingPage, OfferCreated, OfferInput } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { isUniqueViolation } from '../../db/database.ts'
import { acrossStakes, setScope } from '../../db/stake-scope.ts'
import { withTransaction } from '../../db/transaction.ts'
import type { Executor } from '../../db/types.ts'
import { conflict, forbidden, invalid, notFound } from '../../errors.ts'
import type { Actor } from '../../actor.ts'
import { audited, record } from '../../events/record.ts'
import { LIMITS, addressKey, spend } from '../limits/limits.ts'
import { insertNotifications } from '../notifications/notifications.repository.ts'
import { insertOutbox } from '../notifications/outbox.repository.ts'
import { upsertInterview } from '../proposals/interview.repository.ts'
import { canSee } from '../proposals/proposals.policy.ts'
import { findProposal, rolesOf, touchProposal } from '../proposals/proposals.repository.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import { effectivePermissionsOf } from '../users/permissions.repository.ts'
import * as repo from './appointments.repository.ts'
import { isScheduler } from './availability.service.ts'
import { bookingCalendar } from './appointments.calendar.ts'
import { appointmentTarget, BOOKING_LINK, offerFacts } from './appointments.audit.ts'
import { offeredSlots, quarters, type Slot } from './appointments.slots.ts'
import { inboxText, memberMail, type Change } from './appointments.texts.ts'

/** 256 random bits, URL-safe: 43 characters of base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/
const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex')
const OFFER_DAYS = 14
/** How far ahead the page offers times, and how soon the first may start. */
const HORIZON_DAYS = 28
const NOTICE_MINUTES = 60
const DAY_MS = 24 * 3600 * 1000

/** The booking page's address: the token after `#`, so no server (nor its log) ever receives the page's own URL with it. */
const bookingUrl = (base: string, token: string) => `${base}/booking#${token}`

const linkNotFound = () => notFound('Booking link')
const slotTaken = () => conflict('slot_taken', 'That time was just taken; please pick another')

type Offer = NonNullable<Awaited<ReturnType<typeof repo.findOffer>>>
type Booking = NonNullable<Awaited<ReturnType<typeof repo.findBooking>>>

/** Appointments with booking links (docs/api-reference.md §18). */
export class AppointmentsService {
  constructor(private readonly ctx: AppContext) {}

  // ------------------------------------------------------------ offers

  async createOffer(actor: Actor, input: OfferInput, base: string): Promise<OfferCreated> {
    const db = this.ctx.db
    if (!(await isScheduler(db, actor)))
      throw forbidden('Only the stake presidency and proposal managers send booking links')
    await spend(this.ctx, LIMITS.offers, String(actor.id)) // S20: each link may mail someone
    let name = input.name?.trim() || null
    const proposalId = input.proposal_id ?? null
    if (input.kind === 'proposal' && proposalId === null)
      throw invalid(['body', 'proposal_id'], 'A proposal interview needs its proposal', 'missing')
    if (proposalId !== null) {
      const proposal = await findProposal(db, proposalId)
      const viewer = { id: actor.id, permissions: actor.permissions, roles: await rolesOf(db, actor.id) }
      if (!proposal || !canSee(viewer, proposal)) throw invalid(['body', 'proposal_id'], 'Proposal not found')
      name ??= `${proposal.fname} ${proposal.lname}`.trim()
    }
    if (!name) throw invalid(['body', 'name'], 'The person to be interviewed needs a name', 'missing')
    const interviewerId = input.interviewer_id ?? null
    if (interviewerId !== null) {
      const interviewer = await repo.findUser(db, interviewerId)
      if (!interviewer || !interviewer.active)
        throw invalid(['body', 'interviewer_id'], 'The interviewer must be an active user')
      if ((await repo.listWindows(db, [interviewerId])).every((w) => w.weekday === null))
        throw invalid(['body', 'interviewer_id'], 'The interviewer has not published any interview times')
      if (proposalId !== null) {
        // S10: an interviewer who cannot see the proposal cannot hold its interview.
        const proposal = (await findProposal(db, proposalId))!
        const viewer = {
          id: interviewerId,
          permissions: await effectivePermissionsOf(db, interviewerId),
          roles: await rolesOf(db, interviewerId),
        }
        if (!canSee(viewer, proposal))
          throw invalid(['body', 'interviewer_id'], 'The interviewer cannot see this proposal')
      }
    } else if ((await repo.presidencyInterviewers(db)).length === 0) {
      throw invalid(['body', 'interviewer_id'], 'No member of the stake presidency has published interview times')
    }
    const token = crypto.randomBytes(32).toString('base64url')
    const now = this.ctx.clock.now()
    const expiresAt = new Date(now.getTime() + OFFER_DAYS * DAY_MS).toISOString()
    const values = {
      token_hash: hashToken(token),
      kind: input.kind,
      proposal_id: proposalId,
      person_name: name,
      email: input.email?.trim() || null,
      phone: input.phone?.trim() || null,
      interviewer_id: interviewerId,
      duration_minutes: input.duration_minutes,
      created_by: actor.id,
      created_at: now.toISOString(),
      expires_at: expiresAt,
    }
    const id = await withTransaction(db, async (trx) => {
      const id = await repo.insertOffer(trx, values)
      const who = { by: actor.id, at: values.created_at }
      await record(trx, this.ctx, audited(who, 'appointment.offer', appointmentTarget(id), offerFacts(values)))
      return id
    })
    return { id, url: bookingUrl(base, token), expires_at: expiresAt }
  }

  /** The caller's booked appointments as interviewer (a manager: everyone's), from now on. */
  async list(actor: Actor): Promise<Appointment[]> {
    const all = actor.permissions.has('proposals.manage')
    const rows = await repo.listAppointments(this.ctx.db, all ? null : actor.id, this.ctx.clock.iso())
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      name: r.person_name,
      proposal_id: r.proposal_id,
      interviewer_id: r.interviewer_id,
      starts_at: r.starts_at,
      ends_at: r.ends_at,
    }))
  }

  // ------------------------------------------------------------ the booking page (no sign-in)

  /**
   * The offer of a token, found across stakes and then served in its own
   * stake alone (as the calendar feed, docs/api-reference.md §14). A link
   * lives 14 days, or until its booked time when that is later (so a booking
   * can still be moved or cancelled); after that it answers as a missing one.
   */
  private async open(token: string): Promise<{ offer: Offer; booking: Booking | undefined }> {
    if (!TOKEN_PATTERN.test(token)) throw linkNotFound()
    const hash = hashToken(token)
    const found = await acrossStakes(() => repo.findOfferStake(this.ctx.db, hash))
    if (!found) throw linkNotFound()
    setScope({ stakeId: found.stake_id })
    const offer = await repo.findOffer(this.ctx.db, hash)
    if (!offer) throw linkNotFound()
    const booking = await repo.findBooking(this.ctx.db, offer.id)
    const now = this.ctx.clock.iso()
    if (now >= offer.expires_at && !(booking && now < booking.starts_at)) throw linkNotFound()
    return { offer, booking }
  }

  private async candidates(offer: Offer): Promise<number[]> {
    return offer.interviewer_id !== null ? [offer.interviewer_id] : repo.presidencyInterviewers(this.ctx.db)
  }

  /** Free slots per start (ISO), with the interviewers free then; `except`: the booking being moved. */
  private async freeSlots(offer: Offer, except: Booking | undefined, taken = true) {
    const { timezone } = await currentStakeSettings(this.ctx.db)
    const now = this.ctx.clock.now()
    const from = new Date(now.getTime() + NOTICE_MINUTES * 60_000)
    const until = new Date(now.getTime() + HORIZON_DAYS * DAY_MS)
    const ids = await this.candidates(offer)
    const windows = await repo.listWindows(this.ctx.db, ids)
    const free = new Map<string, { slot: Slot; interviewers: number[] }>()
    for (const id of ids) {
      const held = taken
        ? await repo.takenQuarters(this.ctx.db, id, from.toISOString(), until.toISOString(), except?.id ?? null)
        : undefined
      const mine = windows.filter((w) => w.user_id === id)
      for (const slot of offeredSlots({
        windows: mine,
        timeZone: timezone,
        from,
        until,
        duration: offer.duration_minutes,
        taken: held,
      })) {
        const key = slot.start.toISOString()
        const entry = free.get(key) ?? { slot, interviewers: [] }
        entry.interviewers.push(id)
        free.set(key, entry)
      }
    }
    return { timezone, free }
  }

  async page(token: string): Promise<BookingPage> {
    const { offer, booking } = await this.open(token)
    const { timezone, free } = await this.freeSlots(offer, booking)
    const interviewerId = booking?.interviewer_id ?? offer.interviewer_id
    const interviewer = interviewerId === null ? null : await repo.findUser(this.ctx.db, interviewerId)
    return {
      kind: offer.kind,
      name: offer.person_name,
      interviewer: interviewer ? `${interviewer.fname} ${interviewer.lname}`.trim() : null,
      duration_minutes: offer.duration_minutes,
      timezone,
      expires_at: offer.expires_at,
      booking: booking ? { starts_at: booking.starts_at, ends_at: booking.ends_at } : null,
      place: interviewerId === null ? null : await repo.findPlace(this.ctx.db, interviewerId),
      slots: [...free.values()]
        .sort((a, b) => a.slot.start.getTime() - b.slot.start.getTime())
        .map(({ slot }) => ({ starts_at: slot.start.toISOString(), ends_at: slot.end.toISOString() })),
    }
  }

  /** The booked interview as an iCalendar file; 404 while nothing is booked. */
  async calendar(token: string): Promise<string> {
    const { offer, booking } = await this.open(token)
    if (!booking) throw notFound('Booking')
    const interviewer = await repo.findUser(this.ctx.db, booking.interviewer_id)
    const { language } = await currentStakeSettings(this.ctx.db)
    return bookingCalendar({
      id: booking.id,
      language,
      interviewer: interviewer ? `${interviewer.fname} ${interviewer.lname}`.trim() : offer.person_name,
      place: await repo.findPlace(this.ctx.db, booking.interviewer_id),
      starts_at: booking.starts_at,
      ends_at: booking.ends_at,
      now: this.ctx.clock.now(),
    })
  }

  /**
   * A booking action's link, once the action is counted (S20): per client
   * address before the link is looked up (a guessed token costs the same),
   * then per link; 429 past either.
   */
  private async act(token: string, ip: string) {
    await spend(this.ctx, LIMITS.bookingIp, addressKey(ip))
    const opened = await this.open(token)
    await spend(this.ctx, LIMITS.bookingLink, String(opened.offer.id))
    return opened
  }

  /** Books (no booking yet) or moves (one exists) the link's interview to `startsAt`. */
  async book(token: string, startsAt: string, move: boolean, ip: string): Promise<BookingPage> {
    const { offer, booking } = await this.act(token, ip)
    if (!move && booking) throw conflict('already_booked', 'This link already has a booked time; change it instead')
    if (move && !booking) throw notFound('Booking')
    if (booking && booking.starts_at <= this.ctx.clock.iso())
      throw conflict('conflict', 'The interview has already begun')
    const at = new Date(startsAt)
    if (Number.isNaN(at.getTime()))
      throw invalid(['body', 'starts_at'], 'Input should be a valid date-time', 'date_time_parsing')
    const key = at.toISOString()
    const offered = (await this.freeSlots(offer, booking, false)).free.get(key)
    if (!offered) throw invalid(['body', 'starts_at'], 'That is not one of the offered times')
    const { timezone, free } = await this.freeSlots(offer, booking)
    const open = free.get(key)
    if (!open) throw slotTaken()
    // Each interviewer free then, in turn: the quarters' primary key decides, so
    // of two people taking the same time at the same moment one gets it.
    for (const interviewerId of open.interviewers) {
      try {
        await withTransaction(this.ctx.db, async (trx) => {
          const now = this.ctx.clock.iso()
          const values = { interviewer_id: interviewerId, starts_at: key, ends_at: open.slot.end.toISOString() }
          let id: number
          if (booking) {
            id = booking.id
            await repo.moveBooking(trx, id, values, now)
          } else {
            id = await repo.insertBooking(trx, { offer_id: offer.id, ...values }, now)
          }
          await repo.holdQuarters(trx, id, interviewerId, quarters(open.slot.start, open.slot.end))
          if (offer.proposal_id !== null) await this.proposalTakesTime(trx, offer.proposal_id, interviewerId, key, now)
          if (booking && booking.interviewer_id !== interviewerId)
            await this.tell(trx, offer, booking.interviewer_id, 'cancelled', booking.starts_at, timezone, false)
          await this.tell(trx, offer, interviewerId, booking ? 'moved' : 'booked', key, timezone, true)
          const facts = { ...offerFacts(offer), interviewer_id: interviewerId, starts_at: key }
          await record(
            trx,
            this.ctx,
            booking
              ? audited(BOOKING_LINK(now), 'appointment.move', appointmentTarget(offer.id), {
                  ...facts,
                  from: booking.starts_at,
                })
              : audited(BOOKING_LINK(now), 'appointment.book', appointmentTarget(offer.id), facts),
          )
        })
        return this.page(token)
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
      }
    }
    throw slotTaken()
  }

  async cancel(token: string, ip: string): Promise<void> {
    const { offer, booking } = await this.act(token, ip)
    if (!booking) throw notFound('Booking')
    if (booking.starts_at <= this.ctx.clock.iso()) throw conflict('conflict', 'The interview has already begun')
    const { timezone } = await currentStakeSettings(this.ctx.db)
    await withTransaction(this.ctx.db, async (trx) => {
      const now = this.ctx.clock.iso()
      await repo.deleteBooking(trx, booking.id)
      if (offer.proposal_id !== null) {
        await repo.clearInterviewTime(trx, offer.proposal_id, booking.starts_at, now)
        await touchProposal(trx, offer.proposal_id, now)
      }
      await this.tell(trx, offer, booking.interviewer_id, 'cancelled', booking.starts_at, timezone, true)
      await record(
        trx,
        this.ctx,
        audited(BOOKING_LINK(now), 'appointment.cancel', appointmentTarget(offer.id), {
          ...offerFacts(offer),
          interviewer_id: booking.interviewer_id,
          starts_at: booking.starts_at,
        }),
      )
    })
  }

  /** A proposal still at its interview stage has its interview scheduled at the booked time with this interviewer. */
  private async proposalTakesTime(trx: Executor, proposalId: number, interviewerId: number, at: string, now: string) {
    const proposal = await findProposal(trx, proposalId)
    if (proposal?.stage !== 'interview') return
    await upsertInterview(trx, { proposal_id: proposalId, interviewer_id: interviewerId, scheduled_for: at }, now)
    await touchProposal(trx, proposalId, now)
  }

  /**
   * The interviewer's inbox line and, when the person gave an email and mail
   * is on, the person's mail: written in the booking's own transaction, sent
   * later by the outbox worker.
   */
  private async tell(
    trx: Executor,
    offer: Offer,
    interviewerId: number,
    change: Exclude<Change, 'reminder'>,
    at: string,
    timeZone: string,
    mailMember: boolean,
  ) {
    const now = this.ctx.clock.iso()
    const interviewer = await repo.findUser(trx, interviewerId)
    if (!interviewer) return
    if (interviewer.active)
      await insertNotifications(trx, [
        {
          user_id: interviewerId,
          kind: 'interview_assigned',
          proposal_id: null,
          text: inboxText(interviewer.language, change, offer.person_name, at, timeZone),
          created_at: now,
          read_at: null,
          mail: null,
        },
      ])
    if (!mailMember || !offer.email || this.ctx.config.smtpUrl === null) return
    const { language } = await currentStakeSettings(trx)
    const name = `${interviewer.fname} ${interviewer.lname}`.trim()
    const mail = memberMail(language, change, offer.person_name, name, at, timeZone)
    await insertOutbox(trx, [
      {
        user_id: null,
        to_address: offer.email,
        kind: 'appointment',
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html,
        next_attempt_at: now,
        claimed_until: null,
        last_error: null,
        created_at: now,
        sent_at: null,
      },
    ])
  }
}
