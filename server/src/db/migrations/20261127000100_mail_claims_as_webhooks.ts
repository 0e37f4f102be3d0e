import type { Kysely } from 'kysely'

/**
 * Mail is claimed like webhook deliveries now (delivery/outbox.ts): the claim
 * counts the attempt and leases the row through `next_attempt_at`, the row
 * staying `pending`. A message a worker of the old kind had claimed
 * (`sending` until `claimed_until`) becomes such a claim, due again when its
 * lease ends; `sending` and `claimed_until` are no longer written.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({ status: 'pending', next_attempt_at: eb.ref('claimed_until'), attempts: eb('attempts', '+', 1) }))
    .where('status', '=', 'sending')
    .execute()
}
