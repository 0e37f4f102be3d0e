import type { Kysely } from 'kysely'
import { createVersionCounter } from '../version-counter.ts'

/**
 * `speaking_version`: a change counter (see db/version-counter.ts) over what
 * the speaking calendar shows — wards, the High Councilor seats and their
 * holders' names, overrides and topics.
 */
const CALENDAR_TABLES = [
  'wards',
  'callings',
  'calling_slots',
  'users',
  'speaking_overrides',
  'speaking_topics',
] as const

export async function up(db: Kysely<any>): Promise<void> {
  await createVersionCounter(db, 'speaking_version', CALENDAR_TABLES)
}
