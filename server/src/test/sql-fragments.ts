import fs from 'node:fs'
import path from 'node:path'

/** One raw `sql` template of the sources: where it is and its literal text (interpolations as `${}`). */
export interface SqlFragment {
  file: string
  line: number
  text: string
}

/** The end of the template literal whose text starts at `start` (just after its backtick); -1 if unterminated. */
function templateEnd(source: string, start: number): number {
  let i = start
  while (i < source.length) {
    const c = source[i]
    if (c === '\\') i += 2
    else if (c === '`') return i
    else if (c === '$' && source[i + 1] === '{') i = expressionEnd(source, i + 2) + 1
    else i++
  }
  return -1
}

/** The `}` that closes the interpolation starting at `start`, past nested braces, strings and templates. */
function expressionEnd(source: string, start: number): number {
  let depth = 0
  let i = start
  while (i < source.length) {
    const c = source[i]!
    if (c === '`') i = templateEnd(source, i + 1) + 1
    else if (c === "'" || c === '"') {
      i++
      while (i < source.length && source[i] !== c) i += source[i] === '\\' ? 2 : 1
      i++
    } else if (c === '{') {
      depth++
      i++
    } else if (c === '}') {
      if (depth === 0) return i
      depth--
      i++
    } else i++
  }
  return source.length
}

/** The literal text of a template (interpolations replaced by `${}`). */
function literalText(source: string, start: number, end: number): string {
  let text = ''
  let i = start
  while (i < end) {
    if (source[i] === '$' && source[i + 1] === '{') {
      i = expressionEnd(source, i + 2) + 1
      text += '${}'
    } else text += source[i++]
  }
  return text
}

/**
 * Every `sql\`...\`` and `sql<T>\`...\`` template in `source`, nested ones
 * included, and the literal arguments of `sql.raw`, `sql.table`, `sql.ref`
 * and `sql.id` (raw SQL too).
 */
export function sqlFragments(file: string, source: string): SqlFragment[] {
  const out: SqlFragment[] = []
  const tag = /\bsql(?:<[^`;]*?>)?`/g
  for (let m = tag.exec(source); m; m = tag.exec(source)) {
    const start = m.index + m[0].length
    const end = templateEnd(source, start)
    if (end < 0) continue
    out.push({
      file,
      line: source.slice(0, m.index).split('\n').length,
      text: literalText(source, start, end),
    })
  }
  const helper = /\bsql\.(?:raw|table|ref|id)\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g
  for (let m = helper.exec(source); m; m = helper.exec(source)) {
    out.push({ file, line: source.slice(0, m.index).split('\n').length, text: m[2]! })
  }
  return out
}

/** The production sources under `root`: no tests, test helpers or migrations (which run across stakes by design). */
export function productionSources(root: string): string[] {
  const files: string[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!['test', 'migrations', 'node_modules'].includes(entry.name)) walk(full)
      } else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) files.push(full)
    }
  }
  walk(root)
  return files.sort()
}

/**
 * Fragments that name one of `stakeTables` as a word without any `stake_id`
 * in their text: raw SQL the stake-scope plugin never sees, so it must carry
 * its own stake condition.
 */
export function unscopedFragments(fragments: readonly SqlFragment[], stakeTables: ReadonlySet<string>): string[] {
  const out: string[] = []
  for (const f of fragments) {
    const named = [...f.text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)].map((w) => w[0]).filter((w) => stakeTables.has(w))
    if (named.length && !/\bstake_id\b/.test(f.text)) {
      out.push(`${f.file}:${f.line} names ${[...new Set(named)].join(', ')} without a stake_id condition`)
    }
  }
  return out
}
