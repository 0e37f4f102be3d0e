// `npm test`: the server suite (SQLite, then PostgreSQL when reachable), then
// the browser tests in Debian's Chromium (skipped, and said so, when Chromium
// is not installed; REQUIRE_BROWSER=1 makes that a failure, as in CI).
// Ends with one summary line: "total: N passed, M failed".
import { spawn } from 'node:child_process'
import fs from 'node:fs'

const CHROMIUM = '/usr/bin/chromium'
// eslint-disable-next-line no-control-regex -- matching the ESC of terminal colour codes is the point
const COLOURS = /\x1b\[[0-9;]*m/g
let passed = 0
let failed = 0

function run(command, args, count) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env })
    // Summary lines are counted as they pass by, whole lines only.
    const relay = (stream, out) => {
      let partial = ''
      stream.on('data', (chunk) => {
        out.write(chunk)
        const lines = (partial + chunk.toString()).split('\n')
        partial = lines.pop()
        count(lines.join('\n').replace(COLOURS, ''))
      })
      stream.on('end', () => count(partial.replace(COLOURS, '')))
    }
    relay(child.stdout, process.stdout)
    relay(child.stderr, process.stderr)
    child.on('close', (code) => resolve(code === 0))
  })
}

// node's test runner: "ℹ pass N" / "ℹ fail N" per run (one run per database).
const countNode = (text) => {
  for (const m of text.matchAll(/^ℹ pass (\d+)$/gm)) passed += Number(m[1])
  for (const m of text.matchAll(/^ℹ fail (\d+)$/gm)) failed += Number(m[1])
}
// Playwright: "  17 passed (2.6m)", "  2 failed".
const countPlaywright = (text) => {
  for (const m of text.matchAll(/^\s+(\d+) passed\b/gm)) passed += Number(m[1])
  for (const m of text.matchAll(/^\s+(\d+) failed\b/gm)) failed += Number(m[1])
}

let ok = await run('npm', ['test', '-w', 'server'], countNode)

if (fs.existsSync(CHROMIUM)) {
  ok =
    (await run('npm', ['run', 'test:e2e', '-w', 'web'], (text) => {
      countNode(text) // the client's unit tests run first, on node's runner
      countPlaywright(text)
    })) && ok
} else if (process.env.REQUIRE_BROWSER === '1') {
  console.error(`\nChromium is not installed at ${CHROMIUM}: the browser tests cannot run (REQUIRE_BROWSER=1).`)
  ok = false
} else {
  console.log(
    `\nChromium is not installed at ${CHROMIUM}: skipped the browser tests (apt-get install chromium to run them).`,
  )
}

console.log(`\ntotal: ${passed} passed, ${failed} failed`)
process.exit(ok ? 0 : 1)
