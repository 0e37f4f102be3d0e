// The many-stakes deployment (issue 25): stake 1 is the big stake exactly as
// stake-seed.ts makes it, and stakes 2..N are smaller stakes of their own —
// system callings, wards, users, high-council seats and otherSize() proposals
// with the small stake's mix of history, votes, interviews and comments — all
// in one database. Their rows are the same generated rows for every stake
// (stake-data.ts, stake-proposals.ts), given ids of their own and inserted
// across stakes with `stake_id` named, in large multi-row statements.
import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../src/db/database.ts'
import type { DB } from '../src/db/schema.ts'
import { acrossStakes } from '../src/db/stake-scope.ts'
import { SYSTEM_CALLINGS } from '../src/modules/stakes/stakes.service.ts'
import {
  PRESIDENCY,
  WARDS,
  bishopOf,
  firstCouncilor,
  HIGH_COUNCIL_SEATS,
  iso,
  stakeRows,
  type StakeSize,
} from './stake-data.ts'
import { proposalRows } from './stake-proposals.ts'

/**
 * Each other stake: 2,000 proposals, a tenth of them open (the small stake's
 * mix, twice as many), up to 100 stakes; beyond, the same 198,000 proposals
 * shared among them (200 each among 1,000 stakes), every stake with all its
 * users, wards, callings and seats.
 */
export function otherSize(stakes: number): StakeSize {
  const proposals = stakes <= 100 ? 2000 : Math.max(10, Math.round((2000 * 99) / (stakes - 1) / 10) * 10)
  return { open: proposals / 10, closed: (proposals * 9) / 10 }
}
const CUSTOM_CALLINGS = 20

/** Ids of stake k's rows: a block of its own per table (stake 1's ids are all below each block's start). */
const ids = (k: number) => ({
  user: (local: number) => k * 1000 + local,
  ward: (local: number) => k * 100 + local,
  calling: (local: number) => k * 100 + local,
  proposal: (local: number) => k * 100_000 + local,
})

/**
 * Rows into `table` in large statements: on PostgreSQL one JSON parameter per
 * 20,000 rows (json_populate_recordset: far faster to parse and plan than a
 * VALUES list of as many parameters); on SQLite multi-row VALUES, as many rows
 * as fit well under its 32,766 bound parameters.
 */
async function insertAll(db: Kysely<any>, dialect: Dialect, table: string, rows: readonly object[]) {
  if (rows.length === 0) return
  const columns = Object.keys(rows[0]!)
  if (dialect === 'postgres') {
    const list = sql.join(columns.map((c) => sql.ref(c)))
    for (let i = 0; i < rows.length; i += 20_000) {
      const json = JSON.stringify(rows.slice(i, i + 20_000))
      await sql`insert into ${sql.table(table)} (${list})
        select ${list} from json_populate_recordset(null::${sql.table(table)}, ${json})`.execute(db)
    }
    return
  }
  const chunk = Math.max(1, Math.floor(30_000 / columns.length))
  for (let i = 0; i < rows.length; i += chunk) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + chunk))
      .execute()
  }
}

/** Stakes 2..`count`+1 into a database that holds stake 1 already. Returns the rows inserted per table. */
export async function seedOtherStakes(
  database: Kysely<DB>,
  dialect: Dialect,
  count: number,
  passwordHash: string,
): Promise<Record<string, number>> {
  const nowMs = Date.now()
  const now = iso(nowMs)
  const stake = stakeRows(nowMs, passwordHash)
  const proposals = proposalRows(nowMs, otherSize(count + 1))
  const counts: Record<string, number> = {}
  const db = database.withoutPlugins() as unknown as Kysely<any>
  const insert = async (trx: Kysely<any>, table: string, rows: object[]) => {
    await insertAll(trx, dialect, table, rows)
    counts[table] = (counts[table] ?? 0) + rows.length
  }

  await acrossStakes(async () => {
    for (let k = 2; k <= count + 1; k++) {
      const id = ids(k)
      const own = <T extends object>(rows: readonly T[]) => rows.map((row) => ({ ...row, stake_id: k }))
      const callingOf = (key: string) => id.calling(1 + SYSTEM_CALLINGS.findIndex((c) => c.key === key))
      const custom = (i: number) => id.calling(SYSTEM_CALLINGS.length + 1 + i)
      const bishop = callingOf('bishop')
      const councilor = callingOf('high_councilor')
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('stakes')
          .values({
            id: k,
            name: `Bench Stake ${k}`,
            slug: `bench-stake-${k}`,
            timezone: 'America/Denver',
            language: 'en',
            sp_approvals_required: 2,
            hc_approvals_required: 3,
            high_council_seats: HIGH_COUNCIL_SEATS,
            settings_from_env: false,
            created_at: now,
            updated_at: now,
          })
          .execute()
        await insert(
          trx,
          'users',
          own(
            stake.users.map((u) => {
              const email =
                u.id === 1 ? `admin@stake${k}.bench.example.org` : `member${u.id}@stake${k}.bench.example.org`
              return { ...u, id: id.user(u.id), email, email_key: email }
            }),
          ),
        )
        await insert(trx, 'user_permissions', own(stake.grants.map((g) => ({ ...g, user_id: id.user(g.user_id) }))))
        await insert(trx, 'wards', own(stake.wards.map((w) => ({ ...w, id: id.ward(w.id) }))))

        // The system callings (as createStake makes them) and twenty of the stake's own, as stake 1 has.
        const callings = [
          ...SYSTEM_CALLINGS.map((c, i) => ({
            id: id.calling(i + 1),
            name: c.name,
            name_key: c.name.toLowerCase(),
            key: c.key,
            is_public: true,
            system_defined: true,
            max_slots: c.key === 'high_councilor' ? HIGH_COUNCIL_SEATS : c.key === 'bishop' ? WARDS : c.slots,
            created_at: now,
            updated_at: now,
          })),
          ...Array.from({ length: CUSTOM_CALLINGS }, (_, i) => {
            const name = `Stake specialist ${i + 1}`
            return {
              id: custom(i),
              name,
              name_key: name.toLowerCase(),
              key: null,
              is_public: i % 4 !== 0,
              system_defined: false,
              max_slots: 2,
              created_at: now,
              updated_at: now,
            }
          }),
        ]
        await insert(trx, 'callings', own(callings))
        await insert(
          trx,
          'calling_permissions',
          own(
            SYSTEM_CALLINGS.flatMap((c, i) =>
              c.grants.map((permission) => ({ calling_id: id.calling(i + 1), permission })),
            ),
          ),
        )
        // Seats: the presidency, twelve high councilors, a bishop per ward; all filled.
        const seats = [
          ...Object.entries(PRESIDENCY).map(([key, user]) => ({ calling_id: callingOf(key), slot_id: 1, user })),
          ...Array.from({ length: HIGH_COUNCIL_SEATS }, (_, s) => ({
            calling_id: councilor,
            slot_id: s + 1,
            user: firstCouncilor + s,
          })),
        ]
        const bishops = stake.wards.map((w) => ({ calling_id: bishop, slot_id: id.ward(w.id), user: bishopOf(w.id) }))
        await insert(
          trx,
          'calling_slots',
          own([
            ...[...seats, ...bishops].map((s) => ({
              calling_id: s.calling_id,
              slot_id: s.slot_id,
              user_id: id.user(s.user),
              filled_at: now,
              ward_id: s.calling_id === bishop ? s.slot_id : null,
            })),
            ...Array.from({ length: CUSTOM_CALLINGS }, (_, i) => [
              { calling_id: custom(i), slot_id: 1, user_id: id.user(100 + i), filled_at: now, ward_id: null },
              {
                calling_id: custom(i),
                slot_id: 2,
                user_id: i % 3 ? id.user(140 + i) : null,
                filled_at: i % 3 ? now : null,
                ward_id: null,
              },
            ]).flat(),
          ]),
        )
        await insert(
          trx,
          'calling_slot_history',
          own(
            [...seats, ...bishops].flatMap((s, i) => [
              {
                calling_id: s.calling_id,
                slot_id: s.slot_id,
                user_id: id.user(200 + i),
                from_at: '2017-01-01T00:00:00.000Z',
                to_at: '2021-06-01T00:00:00.000Z',
              },
              {
                calling_id: s.calling_id,
                slot_id: s.slot_id,
                user_id: id.user(s.user),
                from_at: '2021-06-01T00:00:00.000Z',
                to_at: null,
              },
            ]),
          ),
        )
        await insert(
          trx,
          'speaking_overrides',
          own(
            stake.overrides.map((o) => ({
              ...o,
              calling_id: councilor,
              ward_id: o.ward_id === null ? null : id.ward(o.ward_id),
            })),
          ),
        )
        await insert(trx, 'speaking_topics', own(stake.topics))

        await insert(
          trx,
          'proposals',
          own(
            proposals.proposals.map((p) => ({
              ...p,
              id: id.proposal(p.id),
              ward_id: id.ward(p.ward_id),
              submitter: id.user(p.submitter),
            })),
          ),
        )
        await insert(
          trx,
          'proposal_history',
          own(
            proposals.history.map((h) => ({
              ...h,
              proposal_id: id.proposal(h.proposal_id),
              by_user_id: id.user(h.by_user_id!),
            })),
          ),
        )
        await insert(
          trx,
          'proposal_votes',
          own(
            proposals.votes.map((v) => ({
              ...v,
              proposal_id: id.proposal(v.proposal_id),
              approver_id: id.user(v.approver_id),
            })),
          ),
        )
        await insert(
          trx,
          'proposal_interviews',
          own(
            proposals.interviews.map((v) => ({
              ...v,
              proposal_id: id.proposal(v.proposal_id),
              interviewer_id: id.user(v.interviewer_id!),
            })),
          ),
        )
        await insert(
          trx,
          'proposal_comments',
          own(
            proposals.comments.map((c) => ({
              ...c,
              proposal_id: id.proposal(c.proposal_id),
              commenter_id: id.user(c.commenter_id),
            })),
          ),
        )
      })
    }
    if (dialect === 'postgres') {
      // Rows were inserted with their ids: move the id sequences past them.
      for (const table of ['stakes', 'users', 'wards', 'callings', 'proposals']) {
        await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(
          db,
        )
      }
    }
  })
  counts.stakes = count
  return counts
}
