import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createQueryId } from 'kysely'
import { STAGES } from '@stake/contract'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, injectAs, signedIn } from '../../test/factories.ts'
import { countingApp } from '../../test/query-counter.ts'
import { createWard, submit } from '../../test/proposals.fixtures.ts'

/**
 * The board's stage conditions carry the stage names in the statement's text:
 * PostgreSQL's reused (generic) plan then sees how few proposals are open and
 * reads them by proposals_stage_idx, not the whole stake (docs/performance.md,
 * "Plans reused on PostgreSQL"). Sent as parameters, the same plan read every
 * proposal of the stake.
 */
describe('the board names its stages in its statements, not as parameters', () => {
  const t = useTestApp()

  it('GET /board and /board/compact: every stage list is literal, no stage name is a parameter', async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    await submit(admin.as, await createWard(t.database.db))
    const { app, counter } = await countingApp(t)
    try {
      for (const url of ['/api/calling-kanban/board', '/api/calling-kanban/board/compact']) {
        counter.statements = []
        assert.equal((await injectAs({ ...t, app }, admin.token)('GET', url)).statusCode, 200)
        const compiled = counter.statements.map((node) =>
          t.database.db.getExecutor().compileQuery(node, createQueryId()),
        )
        const staged = compiled.filter((c) => /"p"\."stage" in \('/.test(c.sql))
        assert.ok(staged.length >= 2, `${url}: the cards' and the votes' (or the closed counts') statements`)
        for (const c of compiled) {
          const stageParameters = c.parameters.filter((v) => (STAGES as readonly unknown[]).includes(v))
          assert.deepEqual(stageParameters, [], `${url}: ${c.sql}`)
        }
      }
    } finally {
      await app.close()
    }
  })
})
