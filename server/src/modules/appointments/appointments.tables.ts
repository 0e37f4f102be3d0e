import type { Generated, SqlBool } from 'kysely'
import type { AppointmentKind, SundayAssignmentKind } from '@stake/contract'
import { stakeTable, type RowsOf } from '../../db/table.ts'

/** Table types of appointments and the Sunday plan (migration 20261129040100_appointments). */
export interface AppointmentWindowsTable {
  stake_id: Generated<number>
  id: Generated<number>
  user_id: number
  /** 0 (Sunday) – 6: a weekly window; null for a dated exception. */
  weekday: number | null
  /** YYYY-MM-DD: a dated exception; null for a weekly window. */
  date: string | null
  /** Minutes of the local day in the stake's time zone. */
  start_minute: number
  end_minute: number
  /** Weekly windows are open; an exception either adds time (open) or takes it away. */
  open: SqlBool
}

export interface AppointmentOffersTable {
  stake_id: Generated<number>
  id: Generated<number>
  /** SHA-256 (hex) of the link's token; the token itself is never stored. */
  token_hash: string
  kind: AppointmentKind
  proposal_id: number | null
  person_name: string
  email: string | null
  phone: string | null
  /** null: any member of the stake presidency with availability. */
  interviewer_id: number | null
  duration_minutes: number
  created_by: number
  created_at: string
  expires_at: string
}

export interface AppointmentsTable {
  stake_id: Generated<number>
  id: Generated<number>
  offer_id: number
  interviewer_id: number
  starts_at: string
  ends_at: string
  created_at: string
  updated_at: string
  /** When the day-before reminder was queued (the daily job claims it by setting this). */
  reminded_at: string | null
}

export interface AppointmentBlocksTable {
  stake_id: Generated<number>
  interviewer_id: number
  /** A quarter hour the appointment holds (ISO UTC); the primary key gives each quarter to one appointment. */
  block_start: string
  appointment_id: number
}

/** Where an interviewer holds interviews (migration 20261201300100_interview_places). */
export interface InterviewPlacesTable {
  stake_id: Generated<number>
  user_id: number
  /** Free text ("Stake offices") or a video link. */
  place: string
}

export interface SundayAssignmentsTable {
  stake_id: Generated<number>
  id: Generated<number>
  date: string
  user_id: number
  kind: SundayAssignmentKind
  ward_id: number | null
  session: string | null
  start_minute: number
  duration_minutes: number
  updated_at: string
}

/** The appointments domain's tables (db/table.ts). */
export const appointmentsTables = {
  appointment_windows: stakeTable<AppointmentWindowsTable>({
    transfer: { id: true, refs: { user_id: 'users' }, booleans: ['open'], orderBy: ['id'] },
  }),
  // Booking links are credentials (token hashes), and the bookings hang off them.
  appointment_offers: stakeTable<AppointmentOffersTable>({
    transfer: { never: 'credentials (booking-link token hashes)' },
  }),
  appointments: stakeTable<AppointmentsTable>({ transfer: { never: 'bookings made through those links' } }),
  appointment_blocks: stakeTable<AppointmentBlocksTable>({
    transfer: { never: 'the quarter hours of those bookings' },
  }),
  interview_places: stakeTable<InterviewPlacesTable>({
    transfer: { refs: { user_id: 'users' }, orderBy: ['user_id'] },
  }),
  sunday_assignments: stakeTable<SundayAssignmentsTable>({
    transfer: { id: true, refs: { user_id: 'users', ward_id: 'wards' }, orderBy: ['id'] },
  }),
}
export type AppointmentsTables = RowsOf<typeof appointmentsTables>
