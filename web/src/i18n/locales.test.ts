import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'

/**
 * Every namespace exists in English and in Spanish with the same keys, no
 * empty text, and the same {{placeholders}} in both (docs/api-reference.md §13).
 */
const root = path.join(import.meta.dirname, 'locales')
const LANGUAGES = ['en', 'es']

function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  if (typeof value === 'string') {
    out.set(prefix, value)
    return out
  }
  assert.ok(value && typeof value === 'object' && !Array.isArray(value), `${prefix}: not text or an object`)
  for (const [key, inner] of Object.entries(value)) {
    for (const [k, v] of flatten(inner, prefix ? `${prefix}.${key}` : key)) out.set(k, v)
  }
  return out
}

const placeholders = (text: string) => [...text.matchAll(/{{\s*([\w.]+)[^}]*}}/g)].map((m) => m[1]).sort()

function load(language: string, file: string): Map<string, string> {
  return flatten(JSON.parse(fs.readFileSync(path.join(root, language, file), 'utf8')))
}

describe('translations', () => {
  const namespaces = new Set(LANGUAGES.flatMap((language) => fs.readdirSync(path.join(root, language))))

  it('has a common namespace', () => assert.ok(namespaces.has('common.json')))

  for (const file of namespaces) {
    it(`${file}: English and Spanish hold the same keys, none empty, with the same placeholders`, () => {
      for (const language of LANGUAGES) {
        assert.ok(fs.existsSync(path.join(root, language, file)), `${language}/${file} is missing`)
      }
      const [en, es] = LANGUAGES.map((language) => load(language, file)) as [Map<string, string>, Map<string, string>]
      const missingInSpanish = [...en.keys()].filter((key) => !es.has(key))
      const missingInEnglish = [...es.keys()].filter((key) => !en.has(key))
      assert.deepEqual(missingInSpanish, [], `keys missing in es/${file}`)
      assert.deepEqual(missingInEnglish, [], `keys missing in en/${file}`)
      for (const [key, text] of en) {
        const spanish = es.get(key) ?? ''
        assert.ok(text.trim() !== '' && spanish.trim() !== '', `${file} ${key}: empty text`)
        assert.deepEqual(placeholders(spanish), placeholders(text), `${file} ${key}: placeholders differ`)
      }
    })
  }
})
