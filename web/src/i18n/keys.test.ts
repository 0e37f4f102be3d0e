import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'

/**
 * Every translation key written as a literal in web/src points at an existing
 * English text (locales.test.ts then checks Spanish has the same keys):
 * `t('key')`, `t('ns:key')`, `t('key', { ns: 'x' })`, `i18next.t('key')` and
 * `<Trans i18nKey="key">`. A key without a namespace is looked up in the
 * namespaces the file names in `useTranslation(...)` (none named: `common`).
 * A template key, t(`stage.${s}`), must at least start with an existing group
 * (`stage`). Keys computed elsewhere (a variable) are not seen.
 */
const src = path.join(import.meta.dirname, '..')
const locales = path.join(import.meta.dirname, 'locales', 'en')

type Tree = { [key: string]: string | Tree }
const namespaces = new Map<string, Tree>(
  fs
    .readdirSync(locales)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f.replace(/\.json$/, ''), JSON.parse(fs.readFileSync(path.join(locales, f), 'utf8')) as Tree]),
)

function lookup(ns: string, key: string): string | Tree | undefined {
  let node: string | Tree | undefined = namespaces.get(ns)
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined
    node = node[part]
  }
  return node
}

/** A text, or a plural family (`key_one`, `key_other`). */
function hasText(ns: string, key: string): boolean {
  return typeof lookup(ns, key) === 'string' || typeof lookup(ns, `${key}_other`) === 'string'
}

/** The literal start of a template key names a group (`stage.`) or a group's start (`form.sunday`). */
function hasPrefix(ns: string, prefix: string): boolean {
  if (prefix === '') return true
  const dot = prefix.lastIndexOf('.')
  const group = dot < 0 ? namespaces.get(ns) : lookup(ns, prefix.slice(0, dot))
  if (!group || typeof group === 'string') return false
  const start = prefix.slice(dot + 1)
  return Object.keys(group).some((k) => k.startsWith(start))
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sourceFiles(full)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : []
  })
}

function fileNamespaces(text: string): string[] {
  const found = new Set<string>()
  for (const m of text.matchAll(/useTranslation\(\s*(?:'([\w-]+)'|\[([^\]]*)\])?/g)) {
    if (m[1]) found.add(m[1])
    else if (m[2]) for (const n of m[2].matchAll(/'([\w-]+)'/g)) found.add(n[1]!)
    else found.add('common')
  }
  if (found.size === 0) found.add('common')
  return [...found]
}

interface Use {
  key: string
  ns?: string
  template: boolean
  line: number
}

function keyUses(text: string): Use[] {
  const uses: Use[] = []
  const lineOf = (index: number) => text.slice(0, index).split('\n').length
  // t('x'), tr('x'), i18n.t('x'), i18next.t('x'), with an optional { ns: 'y' } right after.
  const call =
    /(?<![\w.])(?:t|tr|i18n\.t|i18next\.t)\(\s*(?:'([^'\n]+)'|`([^`\n]+)`)(\s*,\s*\{[^}]*?\bns:\s*'([\w-]+)')?/g
  for (const m of text.matchAll(call)) {
    const literal = m[1] ?? m[2]!
    const template = m[2] !== undefined && m[2].includes('${')
    uses.push({
      key: template ? literal.slice(0, literal.indexOf('${')) : literal,
      ns: m[4],
      template,
      line: lineOf(m.index),
    })
  }
  for (const m of text.matchAll(/i18nKey="([^"]+)"/g)) uses.push({ key: m[1]!, template: false, line: lineOf(m.index) })
  return uses
}

describe('translation keys used in the source', () => {
  const files = sourceFiles(src)
  it('finds the source files and some keys', () => {
    assert.ok(files.length > 20)
    assert.ok(files.reduce((n, f) => n + keyUses(fs.readFileSync(f, 'utf8')).length, 0) > 100)
  })

  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8')
    const uses = keyUses(text)
    if (uses.length === 0) continue
    const rel = path.relative(src, file)
    it(`${rel}: every literal key exists in English`, () => {
      const own = fileNamespaces(text)
      const missing: string[] = []
      for (const use of uses) {
        const colon = use.key.indexOf(':')
        const [candidates, key] =
          colon > 0 ? [[use.key.slice(0, colon)], use.key.slice(colon + 1)] : [use.ns ? [use.ns] : own, use.key]
        const ok = candidates.some((ns) => (use.template ? hasPrefix(ns, key) : hasText(ns, key)))
        if (!ok) missing.push(`line ${use.line}: ${use.key} (in ${candidates.join(', ')})`)
      }
      assert.deepEqual(missing, [], `${rel}: keys with no English text`)
    })
  }
})
