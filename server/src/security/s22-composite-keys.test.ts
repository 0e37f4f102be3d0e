import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isForeignKeyViolation } from '../db/database.ts'
import { acrossStakes, inStake } from '../db/stake-scope.ts'
import { createUser, unique } from '../test/factories.ts'
import { useTestApp } from '../test/harness.ts'
import { createUserIn, otherStake } from '../test/stakes.fixtures.ts'

/**
 * S22, composite keys (docs/api-reference.md §14): a foreign key between two
 * stake-owned tables is `(stake_id, x)` → `(stake_id, id)`, so the database
 * itself refuses a row of one stake that points at another stake's row, even
 * when the query's own filter is gone (straight through the database here).
 * The keys keep their delete behaviour: a cascade still cascades, and a
 * nulling key nulls its column and never the stake.
 */
describe('S22: the database refuses a reference into another stake', () => {
  const t = useTestApp()
  const db = () => t.database.db

  async function refused(fn: () => Promise<unknown>, what: string) {
    await assert.rejects(fn, (error) => isForeignKeyViolation(error), what)
  }

  it('a grant or a feed of stake 1 for a user of stake 2 is refused; the same for stake 1’s user passes', async () => {
    const other = await otherStake(t)
    const stranger = await createUserIn(t, other.stakeId)
    const own = await createUser(t)
    await refused(
      () =>
        inStake(1, () =>
          db().insertInto('user_permissions').values({ user_id: stranger.id, permission: 'users.manage' }).execute(),
        ),
      'a grant to another stake’s user',
    )
    await inStake(1, () =>
      db().insertInto('user_permissions').values({ user_id: own.id, permission: 'users.manage' }).execute(),
    )
    // The other way round, the stake named explicitly as the operator's work across stakes does.
    const feed = (stakeId: number, userId: number) =>
      acrossStakes(() =>
        db()
          .insertInto('speaking_feeds')
          .values({ stake_id: stakeId, user_id: userId, token_hash: unique('h'), created_at: t.clock.iso() })
          .execute(),
      )
    await refused(() => feed(other.stakeId, own.id), 'a feed of stake 2 for stake 1’s user')
    await feed(1, own.id)
  })

  it('deleting a user cascades to its rows and nulls a nulling key’s column, never the stake', async () => {
    const other = await otherStake(t)
    const user = await createUserIn(t, other.stakeId, { permissions: ['users.manage'] })
    const now = t.clock.iso()
    const mail = await inStake(other.stakeId, () =>
      db()
        .insertInto('mail_outbox')
        .values({
          user_id: user.id,
          to_address: user.email,
          kind: 'test',
          subject: 's',
          text_body: '',
          html_body: '',
          status: 'sent',
          attempts: 1,
          next_attempt_at: now,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    )
    await inStake(other.stakeId, () => db().deleteFrom('users').where('id', '=', user.id).execute())
    const row = await acrossStakes(() =>
      db()
        .selectFrom('mail_outbox')
        .select(['user_id', 'stake_id'])
        .where('id', '=', mail.id)
        .executeTakeFirstOrThrow(),
    )
    assert.deepEqual(row, { user_id: null, stake_id: other.stakeId })
    const grants = await acrossStakes(() =>
      db().selectFrom('user_permissions').select('user_id').where('user_id', '=', user.id).execute(),
    )
    assert.deepEqual(grants, [])
  })
})
