// Prints the size of the JavaScript and CSS the sign-in route loads before any
// lazy route (the entry chunk and its static imports): raw, gzip and Brotli
// (what the server sends), and fails the build when the gzipped JavaScript
// passes the budget (issue 6: 200 KB gzipped).
import { readFileSync } from 'node:fs'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { join } from 'node:path'

const BUDGET_KB = 200
const dist = new URL('../dist/', import.meta.url).pathname
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'))
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)
if (!entryKey) throw new Error('no entry chunk in the Vite manifest')

const js = new Set()
const css = new Set()
const visit = (key) => {
  const chunk = manifest[key]
  if (!chunk || js.has(chunk.file)) return
  js.add(chunk.file)
  for (const c of chunk.css ?? []) css.add(c)
  for (const imp of chunk.imports ?? []) visit(imp) // static imports only; dynamicImports are lazy
}
visit(entryKey)

const kb = (n) => `${(n / 1024).toFixed(1)} KB`
const sizes = (file) => {
  const body = readFileSync(join(dist, file))
  return { raw: body.length, gz: gzipSync(body, { level: 9 }).length, br: brotliCompressSync(body).length }
}
const add = (a, b) => ({ raw: a.raw + b.raw, gz: a.gz + b.gz, br: a.br + b.br })
const row = (name, s) =>
  `  ${name.padEnd(40)} ${kb(s.raw).padStart(10)} ${kb(s.gz).padStart(10)} ${kb(s.br).padStart(10)}`
let jsSum = { raw: 0, gz: 0, br: 0 }
let cssSum = { raw: 0, gz: 0, br: 0 }
console.log('\nInitial load of the sign-in route:')
console.log(`  ${''.padEnd(40)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'brotli'.padStart(10)}`)
for (const f of js) {
  const s = sizes(f)
  jsSum = add(jsSum, s)
  console.log(row(f, s))
}
for (const f of css) {
  const s = sizes(f)
  cssSum = add(cssSum, s)
  console.log(row(f, s))
}
const lazy = Object.values(manifest).filter((c) => c.isDynamicEntry).length
console.log(row('JavaScript total', jsSum))
console.log(row('CSS total', cssSum))
console.log(`  (budget ${BUDGET_KB} KB gzipped JavaScript; ${lazy} lazy route chunks)\n`)
const jsTotal = jsSum.gz
if (jsTotal > BUDGET_KB * 1024) {
  console.error(`Initial JavaScript ${kb(jsTotal)} is over the ${BUDGET_KB} KB budget.`)
  process.exit(1)
}
