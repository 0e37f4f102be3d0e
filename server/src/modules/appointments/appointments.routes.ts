import { Type } from 'typebox'
import {
  Appointment,
  Availability,
  AvailabilityInput,
  AvailabilityQuery,
  BookingInput,
  BookingPage,
  BookingTokenParams,
  ErrorBody,
  OfferCreated,
  OfferInput,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { AppointmentsService } from './appointments.service.ts'
import { AvailabilityService } from './availability.service.ts'

const tags = ['appointments']
/** The booking link's token is its credential: no sign-in, and the request line logs the route's pattern, not the path. */
const BOOKING = { auth: 'public' as const, secretPath: true }

/** docs/api-reference.md §18: availability, booking links, and the anonymous booking page's API. */
export default async function appointmentsRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new AppointmentsService(ctx)
  const availability = new AvailabilityService(ctx)

  app.get(
    '/availability',
    {
      schema: {
        tags,
        operationId: 'getAvailability',
        summary: "Your weekly interview windows and dated exceptions (a scheduler may read another's: ?user_id=)",
        querystring: AvailabilityQuery,
        response: { 200: Availability },
      },
    },
    async (request) => availability.availability(requireActor(request), request.query.user_id),
  )

  app.put(
    '/availability',
    {
      schema: {
        tags,
        operationId: 'setAvailability',
        summary: "Replace your interview availability (proposals.manage may set another's: ?user_id=)",
        querystring: AvailabilityQuery,
        body: AvailabilityInput,
        response: { 200: Availability },
      },
    },
    async (request) => availability.setAvailability(requireActor(request), request.query.user_id, request.body),
  )

  app.post(
    '/offers',
    {
      schema: {
        tags,
        operationId: 'createAppointmentOffer',
        summary: 'Make a booking link (valid 14 days) for an interview; the address is shown only once',
        body: OfferInput,
        response: { 201: OfferCreated, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const base = ctx.config.publicUrl ?? `${request.protocol}://${request.host}`
      const created = await service.createOffer(requireActor(request), request.body, base)
      return reply.status(201).send(created)
    },
  )

  app.get(
    '/',
    {
      schema: {
        tags,
        operationId: 'listAppointments',
        summary: 'Your booked interviews from now on (proposals.manage: everyone’s)',
        response: { 200: Type.Array(Appointment) },
      },
    },
    async (request) => service.list(requireActor(request)),
  )

  app.get(
    '/book/:token',
    {
      config: BOOKING,
      schema: {
        tags,
        operationId: 'getBookingPage',
        summary: 'The booking link: the offer, its booked time and the free times (no sign-in)',
        params: BookingTokenParams,
        response: { 200: BookingPage },
      },
    },
    async (request) => service.page(request.params.token),
  )

  app.get(
    '/book/:token/calendar.ics',
    {
      config: BOOKING,
      schema: {
        tags,
        operationId: 'getBookingCalendar',
        summary: 'The booked interview as an iCalendar file to add to a calendar (404 while nothing is booked)',
        params: BookingTokenParams,
        response: { 200: { content: { 'text/calendar': { schema: Type.String() } } } },
      },
    },
    async (request, reply) =>
      reply
        .type('text/calendar; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="interview.ics"')
        .header('Cache-Control', 'private, no-store')
        .send(await service.calendar(request.params.token)),
  )

  app.post(
    '/book/:token',
    {
      config: BOOKING,
      schema: {
        tags,
        operationId: 'bookAppointment',
        summary: 'Book one of the free times (409 slot_taken when someone was quicker)',
        params: BookingTokenParams,
        body: BookingInput,
        response: { 201: BookingPage, 429: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.book(request.params.token, request.body.starts_at, false, request.ip)),
  )

  app.put(
    '/book/:token',
    {
      config: BOOKING,
      schema: {
        tags,
        operationId: 'moveAppointment',
        summary: 'Move the booked time to another free time',
        params: BookingTokenParams,
        body: BookingInput,
        response: { 200: BookingPage, 429: ErrorBody },
      },
    },
    async (request) => service.book(request.params.token, request.body.starts_at, true, request.ip),
  )

  app.delete(
    '/book/:token',
    {
      config: BOOKING,
      schema: {
        tags,
        operationId: 'cancelAppointment',
        summary: 'Cancel the booked time (the link may book again while it is valid)',
        params: BookingTokenParams,
        response: { 204: Type.Null(), 429: ErrorBody },
      },
    },
    async (request, reply) => {
      await service.cancel(request.params.token, request.ip)
      return reply.status(204).send(null)
    },
  )
}
