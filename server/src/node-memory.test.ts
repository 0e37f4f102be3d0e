import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { ADMIN_PASSWORD, NODE_MEMORY_ENV, request, startServer } from './test/process.ts'

// V8's memory settings (docs/performance.md) live in server/node-memory.env alone;
// every way of starting the compiled server reads that file with `node --env-file`.
const ROOT = path.resolve(path.dirname(NODE_MEMORY_ENV), '..')
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8')
const nodeOptions = /^NODE_OPTIONS="([^"]*)"$/m.exec(fs.readFileSync(NODE_MEMORY_ENV, 'utf8'))?.[1] ?? ''
const flag = (name: string) => Number(new RegExp(`--${name}=(\\d+)`).exec(nodeOptions)?.[1])
const MEMORY_FLAG = /--max-(semi|old)-space-size/

describe("V8's memory settings, in one file", () => {
  it('are the young and old generations’ caps', () => {
    assert.ok(flag('max-semi-space-size') > 0, nodeOptions)
    assert.ok(flag('max-old-space-size') > 0, nodeOptions)
  })

  it('are read by npm start, the systemd unit and the demo, which name no setting of their own', () => {
    const launchers: Record<string, [text: string, reads: string]> = {
      'npm start': [JSON.parse(read('package.json')).scripts.start as string, '--env-file=server/node-memory.env'],
      'npm start -w server': [
        JSON.parse(read('server/package.json')).scripts.start as string,
        '--env-file=node-memory.env',
      ],
      'deploy/stake-admin.service': [
        /^ExecStart=(.*)$/m.exec(read('deploy/stake-admin.service'))?.[1] ?? '',
        '--env-file=server/node-memory.env',
      ],
      'npm run demo': [read('scripts/demo.mjs'), "'server/node-memory.env'"],
    }
    for (const [launcher, [text, expected]] of Object.entries(launchers)) {
      assert.ok(text.includes(expected), `${launcher} reads the file: ${text}`)
      assert.doesNotMatch(text, MEMORY_FLAG, launcher)
    }
  })

  describe('a compiled server started so', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-memory-'))
    const metricsToken = 'memory-settings-test-token'
    after(() => fs.rmSync(dir, { recursive: true, force: true }))

    it('runs with them: its young generation is within the cap once ready', async () => {
      const server = await startServer(
        {
          DATABASE_URL: `sqlite:${path.join(dir, 'stake.db')}`,
          INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
          ADMIN_EMAIL: 'admin@example.com',
          METRICS_TOKEN: metricsToken,
        },
        { compiled: true },
      )
      try {
        const metrics = await request(`${server.base}/metrics`, {
          headers: { authorization: `Bearer ${metricsToken}` },
        })
        assert.equal(metrics.status, 200)
        const newSpace = Number(
          /^nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)/m.exec(await metrics.text())?.[1],
        )
        // Starting allocates enough to grow the young generation to whatever cap it has (two semi-spaces;
        // 64 MB without the file). A NODE_OPTIONS in the environment, even empty, takes the file's place.
        assert.ok(newSpace > 0 && newSpace <= 2 * flag('max-semi-space-size') * 2 ** 20, `new space ${newSpace} bytes`)
      } finally {
        server.child.kill('SIGTERM')
        await server.exited
      }
    })
  })
})
