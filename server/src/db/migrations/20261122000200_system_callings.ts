import type { Kysely } from 'kysely'

const ALL = [
  'users.manage',
  'callings.manage',
  'wards.manage',
  'speaking.manage',
  'proposals.submit',
  'proposals.view',
  'proposals.manage',
]

/**
 * The system callings of docs/api-reference.md §4 with their default grants. Keys are
 * stable; names may be shown to users. The High Councilor slot count is
 * brought to HIGH_COUNCIL_SEATS at start-up; Bishop slots are made per ward.
 */
const SYSTEM_CALLINGS: { key: string; name: string; slots: number; grants: string[] }[] = [
  { key: 'stake_president', name: 'Stake President', slots: 1, grants: ALL },
  { key: 'stake_first_counselor', name: 'Stake First Counselor', slots: 1, grants: ALL },
  { key: 'stake_second_counselor', name: 'Stake Second Counselor', slots: 1, grants: ALL },
  { key: 'stake_executive_secretary', name: 'Stake Executive Secretary', slots: 1, grants: ALL },
  { key: 'stake_clerk', name: 'Stake Clerk', slots: 1, grants: ALL },
  { key: 'high_councilor', name: 'High Councilor', slots: 12, grants: ['proposals.submit', 'proposals.view'] },
  { key: 'bishop', name: 'Bishop', slots: 0, grants: ['proposals.submit'] },
]

export async function up(db: Kysely<any>): Promise<void> {
  const now = new Date().toISOString()
  for (const calling of SYSTEM_CALLINGS) {
    const { id } = await db
      .insertInto('callings')
      .values({
        name: calling.name,
        name_key: calling.name.toLowerCase(),
        key: calling.key,
        is_public: true,
        system_defined: true,
        max_slots: calling.slots,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('calling_permissions')
      .values(calling.grants.map((permission) => ({ calling_id: id, permission })))
      .execute()
    if (calling.slots > 0) {
      await db
        .insertInto('calling_slots')
        .values(Array.from({ length: calling.slots }, (_, i) => ({ calling_id: id, slot_id: i + 1 })))
        .execute()
    }
  }
}
