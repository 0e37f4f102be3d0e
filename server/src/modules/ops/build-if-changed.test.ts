import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'

interface BuildScript {
  buildIfChanged(options: {
    root: string
    dist: string
    build: () => void
    sources?: string[]
    log?: (line: string) => void
  }): boolean
}

// A plain script (run by `npm start` before any TypeScript loader); imported by path.
const scriptPath = path.resolve(import.meta.dirname, '../../../../scripts/build-if-changed.mjs')

describe('npm start builds the web client only when its sources changed', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-build-'))
  const dist = path.join(root, 'dist')
  fs.mkdirSync(path.join(root, 'src'))
  fs.writeFileSync(path.join(root, 'src', 'main.tsx'), 'export const a = 1')
  fs.writeFileSync(path.join(root, 'index.html'), '<div id="root"></div>')
  let builds = 0
  const build = () => {
    builds++
    fs.mkdirSync(dist, { recursive: true })
    fs.writeFileSync(path.join(dist, 'index.html'), 'built')
  }
  const options = { root, dist, build, sources: ['src', 'index.html'], log: () => {} }
  after(() => fs.rmSync(root, { recursive: true, force: true }))

  it('builds when there is no build, then not again while nothing changed', async () => {
    const { buildIfChanged } = (await import(scriptPath)) as BuildScript
    assert.equal(buildIfChanged(options), true)
    assert.equal(buildIfChanged(options), false)
    assert.equal(buildIfChanged(options), false)
    assert.equal(builds, 1)
  })

  it('builds again when a source file changes, is added, or the build is gone', async () => {
    const { buildIfChanged } = (await import(scriptPath)) as BuildScript
    const before = builds
    fs.writeFileSync(path.join(root, 'src', 'main.tsx'), 'export const a = 2')
    assert.equal(buildIfChanged(options), true)
    fs.writeFileSync(path.join(root, 'src', 'extra.ts'), 'export {}')
    assert.equal(buildIfChanged(options), true)
    assert.equal(buildIfChanged(options), false)
    fs.rmSync(path.join(dist, 'index.html'))
    assert.equal(buildIfChanged(options), true)
    assert.equal(builds, before + 3)
  })

  it('keeps the old hash when the build fails, so the next start tries again', async () => {
    const { buildIfChanged } = (await import(scriptPath)) as BuildScript
    fs.writeFileSync(path.join(root, 'index.html'), '<div id="root" class="x"></div>')
    const failing = () => {
      throw new Error('build failed')
    }
    assert.throws(() => buildIfChanged({ ...options, build: failing }), /build failed/)
    assert.equal(buildIfChanged(options), true)
  })
})
