// Seeds the benchmark's stake into a migrated, empty database: bulk inserts of
// generated rows in one transaction (not through HTTP, which would take hours
// at the production argon2 cost and the per-request checks).
import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../src/db/database.ts'
import type { DB } from '../src/db/schema.ts'
import { PRESIDENCY, bishopOf, firstCouncilor, HIGH_COUNCIL_SEATS, stakeRows, type StakeSize } from './stake-data.ts'
import { proposalRows } from './stake-proposals.ts'

/** Rows of every table in statements of `chunk` rows (well under both databases' bound-parameter limits). */
async function insertAll(db: Kysely<any>, table: string, rows: readonly object[], chunk = 500) {
  for (let i = 0; i < rows.length; i += chunk) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + chunk))
      .execute()
  }
}

export async function seedStake(
  db: Kysely<DB>,
  dialect: Dialect,
  size: StakeSize,
  passwordHash: string,
  { analyze = true }: { analyze?: boolean } = {},
): Promise<Record<string, number>> {
  const nowMs = Date.now()
  const now = new Date(nowMs).toISOString()
  const stake = stakeRows(nowMs, passwordHash)
  const proposals = proposalRows(nowMs, size)
  await db.transaction().execute(async (trx) => {
    const any = trx as unknown as Kysely<any>
    await insertAll(any, 'users', stake.users)
    await insertAll(any, 'user_permissions', stake.grants)
    await insertAll(any, 'wards', stake.wards)

    const callings = await trx.selectFrom('callings').select(['id', 'key']).execute()
    const callingId = (key: string) => callings.find((c) => c.key === key)!.id
    const bishop = callingId('bishop')
    const councilor = callingId('high_councilor')
    await insertAll(
      any,
      'calling_slots',
      stake.wards.map((w) => ({
        calling_id: bishop,
        slot_id: w.id,
        ward_id: w.id,
        user_id: bishopOf(w.id),
        filled_at: now,
      })),
    )
    const seats: { calling_id: number; slot_id: number; user_id: number }[] = Object.entries(PRESIDENCY).map(
      ([key, user_id]) => ({
        calling_id: callingId(key),
        slot_id: 1,
        user_id,
      }),
    )
    for (let s = 1; s <= HIGH_COUNCIL_SEATS; s++)
      seats.push({ calling_id: councilor, slot_id: s, user_id: firstCouncilor + s - 1 })
    for (const seat of seats) {
      await trx
        .updateTable('calling_slots')
        .set({ user_id: seat.user_id, filled_at: now })
        .where('calling_id', '=', seat.calling_id)
        .where('slot_id', '=', seat.slot_id)
        .execute()
    }
    await customCallings(any, now)
    const history = [
      ...seats,
      ...stake.wards.map((w) => ({ calling_id: bishop, slot_id: w.id, user_id: bishopOf(w.id) })),
    ]
    await insertAll(
      any,
      'calling_slot_history',
      history.flatMap((seat, i) => [
        { ...seat, user_id: 200 + i, from_at: '2017-01-01T00:00:00.000Z', to_at: '2021-06-01T00:00:00.000Z' },
        { ...seat, from_at: '2021-06-01T00:00:00.000Z', to_at: null },
      ]),
    )

    await insertAll(
      any,
      'speaking_overrides',
      stake.overrides.map((o) => ({ ...o, calling_id: councilor })),
    )
    await insertAll(any, 'speaking_topics', stake.topics)

    await insertAll(any, 'proposals', proposals.proposals)
    await insertAll(any, 'proposal_history', proposals.history)
    await insertAll(any, 'proposal_votes', proposals.votes)
    await insertAll(any, 'proposal_interviews', proposals.interviews)
    await insertAll(any, 'proposal_comments', proposals.comments)
  })
  if (dialect === 'postgres') {
    // Rows were inserted with their ids: move the id sequences past them.
    for (const table of ['users', 'wards', 'proposals']) {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(
        db,
      )
    }
    // A database that grew over years has been vacuumed and analysed by autovacuum.
    if (analyze) await sql`vacuum analyze`.execute(db)
  }
  return {
    users: stake.users.length,
    wards: stake.wards.length,
    proposals: proposals.proposals.length,
    history: proposals.history.length,
    votes: proposals.votes.length,
    comments: proposals.comments.length,
    interviews: proposals.interviews.length,
    overrides: stake.overrides.length,
  }
}

/** Twenty stake callings of the stake's own, two slots each, most filled. */
async function customCallings(db: Kysely<any>, now: string) {
  for (let i = 0; i < 20; i++) {
    const name = `Stake specialist ${i + 1}`
    const { id } = await db
      .insertInto('callings')
      .values({
        name,
        name_key: name.toLowerCase(),
        key: null,
        is_public: i % 4 !== 0,
        system_defined: false,
        max_slots: 2,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await insertAll(db, 'calling_slots', [
      { calling_id: id, slot_id: 1, user_id: 100 + i, filled_at: now },
      { calling_id: id, slot_id: 2, user_id: i % 3 ? 140 + i : null, filled_at: i % 3 ? now : null },
    ])
  }
}
