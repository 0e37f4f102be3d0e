import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import { useTestApp, type TestApp } from './harness.ts'

/**
 * A test app serving a built client made for the file: `index.html` (with
 * its `<div id="root">`) and the given files, in a temporary folder removed
 * afterwards.
 */
export function useWebApp(files: Record<string, string | Buffer>): TestApp {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-web-'))
  const all = { 'index.html': '<!doctype html><title>Stake</title><div id="root"></div>', ...files }
  for (const [name, content] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dist, name)), { recursive: true })
    fs.writeFileSync(path.join(dist, name), content)
  }
  const t = useTestApp({}, { config: { webDist: dist } })
  after(() => fs.rmSync(dist, { recursive: true, force: true }))
  return t
}
