// `npm start`: builds the web client only when its sources changed since the
// last build, so an unchanged checkout starts serving at once. The sources'
// hash is kept beside the build (web/dist/.build-hash). No type-check here:
// that is `npm run typecheck` and CI.
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Everything the built client depends on, relative to the repository root. */
export const SOURCES = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'packages/contract/src',
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
export function sourceHash(root, sources = SOURCES) {
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
export function buildIfChanged({ root, dist, build, sources = SOURCES, log = console.log }) {
  const stamp = path.join(dist, '.build-hash')
  const current = sourceHash(root, sources)
  const built = fs.existsSync(path.join(dist, 'index.html')) && fs.existsSync(stamp)
  if (built && fs.readFileSync(stamp, 'utf8').trim() === current) {
    log('Web client is up to date (sources unchanged since the last build).')
    return false
  }
  log('Web client sources changed: building…')
  build()
  fs.writeFileSync(stamp, `${current}\n`)
  return true
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  buildIfChanged({
    root,
    dist: path.join(root, 'web/dist'),
    build: () => {
      const result = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' })
      if (result.status !== 0) process.exit(result.status ?? 1)
    },
  })
}
