import type { Kysely } from 'kysely'
import type { Config } from '../../config.ts'
import type { DB } from '../../db/schema.ts'
import { withTransaction } from '../../db/transaction.ts'
import { insertOutbox, outboxRow } from '../notifications/outbox.repository.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import * as repo from './appointments.repository.ts'
import { addDays, localDate, localInstant } from './appointments.slots.ts'
import { memberMail } from './appointments.texts.ts'

/**
 * The day-before reminder (docs/api-reference.md §18), one of the daily jobs
 * of the current stake: every appointment on the stake's next local day
 * whose person gave an email gets one mail, claimed by setting
 * `reminded_at` (a second run, or another instance, finds nothing). Moving
 * an appointment clears the claim, so the new day is reminded again.
 */
export async function sendAppointmentReminders(deps: { db: Kysely<DB>; config: Config }, now: Date): Promise<number> {
  if (deps.config.smtpUrl === null) return 0
  const { timezone, language } = await currentStakeSettings(deps.db)
  const tomorrow = addDays(localDate(now, timezone), 1)
  const from = localInstant(tomorrow, 0, timezone).toISOString()
  const until = localInstant(addDays(tomorrow, 1), 0, timezone).toISOString()
  const at = now.toISOString()
  let sent = 0
  for (const due of await repo.dueReminders(deps.db, from, until)) {
    sent += await withTransaction(deps.db, async (trx) => {
      if (!(await repo.claimReminder(trx, due.id, at))) return 0
      const interviewer = `${due.fname} ${due.lname}`.trim()
      const mail = memberMail(language, 'reminder', due.person_name, interviewer, due.starts_at, timezone)
      await insertOutbox(trx, [outboxRow({ user_id: null, to_address: due.email!, kind: 'appointment' }, mail, at)])
      return 1
    })
  }
  return sent
}
