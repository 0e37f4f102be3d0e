import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { parseConfig } from './config.ts'
import { configTable, SETTINGS, withConfigTable } from './config.settings.ts'

const README = path.join(import.meta.dirname, '../../README.md')

/** Every variable parseConfig reads, found by letting it read an environment that records each name. */
function variablesRead(): string[] {
  const seen = new Set<string>()
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, key) {
      if (typeof key === 'string') seen.add(key)
      return undefined
    },
  })
  parseConfig(env)
  return [...seen].sort()
}

describe('the configuration table (README "Configuration")', () => {
  it('documents exactly the variables config.ts reads, each once', () => {
    const documented = SETTINGS.flatMap((s) => s.names)
    assert.equal(new Set(documented).size, documented.length, 'a variable documented twice')
    assert.deepEqual([...documented].sort(), variablesRead())
  })

  it('the README holds the table the definitions write (npm run docs:config rewrites it)', () => {
    const text = fs.readFileSync(README, 'utf8')
    const expected = withConfigTable(text)
    assert.ok(expected, 'README.md has the configuration table markers')
    assert.equal(text, expected, 'README.md differs from the settings: run `npm run docs:config`')
    assert.equal(text.split(configTable()).length, 2, 'one table, once')
  })

  it('a setting missing from the README table fails the check', () => {
    const text = fs.readFileSync(README, 'utf8')
    const fewer = withConfigTable(text, configTable(SETTINGS.slice(1)))!
    assert.notEqual(withConfigTable(fewer), fewer)
  })
})
