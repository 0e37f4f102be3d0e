// `npm start` (and `npm run cli`): builds the web client and compiles the
// server only when their sources changed since the last build, so an
// unchanged checkout starts serving at once. Each build keeps its sources'
// hash beside it (web/dist/.build-hash, server/dist/.build-hash). No
// type-check here: that is `npm run typecheck` and CI.
// `node scripts/build-if-changed.mjs server` builds only the server.
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Everything the built client depends on, relative to the repository root. */
export const WEB_SOURCES = [
  'web/src',
  'web/scripts',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'packages/contract/src',
  'package-lock.json',
]

/** Everything the compiled server (server/dist, run by plain node) depends on. */
export const SERVER_SOURCES = [
  'server/src',
  'server/tsconfig.json',
  'server/tsconfig.build.json',
  'packages/contract/src',
  'packages/contract/tsconfig.json',
  'packages/contract/tsconfig.build.json',
  'packages/contract/package.json',
  'package-lock.json',
]

function* walk(root, relative) {
  const full = path.join(root, relative)
  if (!fs.existsSync(full)) return
  if (fs.statSync(full).isDirectory()) {
    for (const name of fs.readdirSync(full).sort()) yield* walk(root, path.join(relative, name))
  } else {
    yield relative
  }
}

/** A hash of the sources' names and contents (not their times: a fresh clone matches). */
export function sourceHash(root, sources) {
  const hash = crypto.createHash('sha256')
  for (const source of sources) {
    for (const file of walk(root, source)) {
      hash
        .update(file.split(path.sep).join('/'))
        .update('\0')
        .update(fs.readFileSync(path.join(root, file)))
        .update('\0')
    }
  }
  return hash.digest('hex')
}

/**
 * Runs `build` when the stored hash differs from the sources' or the build is
 * missing; records the new hash only after a successful build.
 * Returns whether it built.
 */
export function buildIfChanged({
  root,
  dist,
  build,
  sources,
  entry = 'index.html',
  what = 'Web client',
  log = console.log,
}) {
  const stamp = path.join(dist, '.build-hash')
  const current = sourceHash(root, sources)
  const built = fs.existsSync(path.join(dist, entry)) && fs.existsSync(stamp)
  if (built && fs.readFileSync(stamp, 'utf8').trim() === current) {
    log(`${what} is up to date (sources unchanged since the last build).`)
    return false
  }
  log(`${what} sources changed: building…`)
  build()
  fs.writeFileSync(stamp, `${current}\n`)
  return true
}

function run(root, command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const only = process.argv[2]
  // Before the CLI only the server is built, and its one line goes to stderr: stdout is the command's (--json).
  const log = only === 'server' ? console.error : console.log
  if (only !== 'server') {
    buildIfChanged({
      root,
      dist: path.join(root, 'web/dist'),
      sources: WEB_SOURCES,
      build: () => run(root, 'npm', ['run', 'build', '-w', 'web']),
    })
  }
  buildIfChanged({
    root,
    dist: path.join(root, 'server/dist'),
    sources: SERVER_SOURCES,
    entry: 'main.js',
    what: 'Server',
    log,
    build: () => {
      // A clean output: a removed source file must not linger as compiled JavaScript.
      fs.rmSync(path.join(root, 'server/dist'), { recursive: true, force: true })
      fs.rmSync(path.join(root, 'packages/contract/dist'), { recursive: true, force: true })
      const tsc = path.join(root, 'node_modules/typescript/bin/tsc')
      run(root, process.execPath, [tsc, '-p', 'packages/contract/tsconfig.build.json'])
      run(root, process.execPath, [tsc, '-p', 'server/tsconfig.build.json'])
    },
  })
}
