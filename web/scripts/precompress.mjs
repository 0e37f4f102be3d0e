// Writes a Brotli (.br) and a gzip (.gz) copy beside every compressible file
// of the build, once, at the highest levels: the server sends them as they are
// (@fastify/static preCompressed) instead of compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|map)$/
const MIN_BYTES = 512
const dist = new URL('../dist/', import.meta.url).pathname

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) yield* files(full)
    else yield full
  }
}

let count = 0
for (const file of files(dist)) {
  if (!COMPRESSIBLE.test(file) || file.includes('/.vite/')) continue
  const body = readFileSync(file)
  if (body.length < MIN_BYTES) continue
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  )
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }))
  count++
}
console.log(`precompressed ${count} files (.br, .gz)`)
