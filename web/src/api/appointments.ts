import { useQuery } from '@tanstack/react-query'
import type * as C from '@stake/contract'
import { API_BASE } from '@stake/contract/routes'
import { api } from './client'
import { useChange, type MutationCallbacks } from './mutation'

export type BookingPage = C.BookingPage
export type BookingSlot = C.BookingSlot
export type SundayPlan = C.SundayPlan
export type Sunday = C.Sunday
export type SundayPerson = C.SundayPerson
export type SundayAssignmentInput = C.SundayAssignmentInput
export type Availability = C.Availability
export type AvailabilityInput = C.AvailabilityInput
export type OfferInput = C.OfferInput
export type OfferCreated = C.OfferCreated

/**
 * Query keys of §18: the booking page (keyed by its token, which stays in
 * memory only), availability and the Sunday plan.
 */
const appointmentKeys = {
  all: ['appointments'] as const,
  booking: (token: string) => [...appointmentKeys.all, 'booking', token] as const,
}

const sundayKeys = {
  all: ['sunday-plan'] as const,
  year: (year: number) => [...sundayKeys.all, year] as const,
}

const bookingPath = (token: string) => `/appointments/book/${encodeURIComponent(token)}`

/** The booked interview's calendar file, for a plain download link. */
export const bookingCalendarUrl = (token: string) => `${API_BASE}${bookingPath(token)}/calendar.ics`

/** The booking link's page (no sign-in): the offer, its booked time and the free times. */
export function useBookingPage(token: string) {
  return useQuery({
    queryKey: appointmentKeys.booking(token),
    queryFn: () => api<BookingPage>(bookingPath(token)),
    enabled: token.length > 0,
    retry: false,
  })
}

/** Books (`move: false`) or moves the link's interview; the page is refetched either way (a lost race shows the fresh times). */
export function useBook(
  token: string,
  callbacks: MutationCallbacks<BookingPage, { starts_at: string; move: boolean }> = {},
) {
  return useChange({
    mutationFn: ({ starts_at, move }: { starts_at: string; move: boolean }) =>
      api<BookingPage>(bookingPath(token), { method: move ? 'PUT' : 'POST', body: { starts_at } }),
    ...callbacks,
    invalidates: () => [appointmentKeys.booking(token)],
  })
}

export function useCancelBooking(token: string, callbacks: MutationCallbacks<unknown, void> = {}) {
  return useChange({
    mutationFn: () => api(bookingPath(token), { method: 'DELETE' }),
    ...callbacks,
    invalidates: () => [appointmentKeys.booking(token)],
  })
}

export function useSundayPlan(year: number) {
  return useQuery({ queryKey: sundayKeys.year(year), queryFn: () => api<SundayPlan>(`/sunday-plan/${year}`) })
}

/** Replaces one Sunday's assignments; the answer carries its warnings. */
export function useSaveSunday(
  year: number,
  callbacks: MutationCallbacks<Sunday, { date: string; assignments: SundayAssignmentInput[] }> = {},
) {
  return useChange({
    mutationFn: (body: { date: string; assignments: SundayAssignmentInput[] }) =>
      api<Sunday>('/sunday-plan/assignments', { method: 'PUT', body }),
    ...callbacks,
    invalidates: () => [sundayKeys.year(year)],
  })
}

export type Appointment = C.Appointment

const interviewKeys = {
  all: ['interviews'] as const,
  availability: () => [...interviewKeys.all, 'availability'] as const,
  booked: () => [...interviewKeys.all, 'booked'] as const,
}

/** The signed-in user's own interview times. */
export function useAvailability() {
  return useQuery({
    queryKey: interviewKeys.availability(),
    queryFn: () => api<Availability>('/appointments/availability'),
  })
}

export function useSaveAvailability(callbacks: MutationCallbacks<Availability, AvailabilityInput> = {}) {
  return useChange({
    mutationFn: (body: AvailabilityInput) => api<Availability>('/appointments/availability', { method: 'PUT', body }),
    ...callbacks,
    invalidates: () => [interviewKeys.availability()],
  })
}

export function useCreateOffer(callbacks: MutationCallbacks<OfferCreated, OfferInput> = {}) {
  return useChange({
    mutationFn: (body: OfferInput) => api<OfferCreated>('/appointments/offers', { method: 'POST', body }),
    ...callbacks,
    invalidates: () => [],
  })
}

/** Booked interviews from now on (the caller's; a manager: everyone's). */
export function useBookedInterviews() {
  return useQuery({ queryKey: interviewKeys.booked(), queryFn: () => api<Appointment[]>('/appointments') })
}
