import { inflateSync } from 'node:zlib'

/**
 * The text of a PDF printed by Chromium, without a PDF library: inflate the
 * streams, read each font's ToUnicode CMap, and decode the hex glyph strings
 * of the page content with every CMap (Chromium's fonts are Identity-H
 * subsets: glyph ids mean nothing without their own font's map). Returns one
 * decoding per CMap; a phrase set in one font appears whole in one of them.
 */
function pdfTexts(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1')
  const streams: string[] = []
  const re = /stream\r?\n/g
  let m: RegExpExecArray | null
  while ((m = re.exec(raw))) {
    const start = m.index + m[0].length
    const end = raw.indexOf('endstream', start)
    if (end < 0) break
    const bytes = Buffer.from(raw.slice(start, end), 'latin1')
    try {
      streams.push(inflateSync(bytes).toString('latin1'))
    } catch {
      streams.push(bytes.toString('latin1'))
    }
    re.lastIndex = end + 'endstream'.length
  }
  const cmaps = streams.filter((s) => s.includes('beginbfchar') || s.includes('beginbfrange')).map(parseCMap)
  const content = streams.filter((s) => /\bBT\b/.test(s) && /T[jJ]\b/.test(s))
  const glyphRuns: string[] = []
  for (const c of content) for (const h of c.matchAll(/<([0-9A-Fa-f\s]+)>/g)) glyphRuns.push(h[1]!.replace(/\s/g, ''))
  return cmaps.map((map) => glyphRuns.map((run) => decode(run, map)).join(''))
}

const utf16 = (hex: string): string => {
  let out = ''
  for (let i = 0; i + 4 <= hex.length; i += 4) out += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16))
  return out
}

function parseCMap(text: string): Map<number, string> {
  const map = new Map<number, string>()
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const pair of block[1]!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g))
      map.set(parseInt(pair[1]!, 16), utf16(pair[2]!))
  }
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const r of block[1]!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])/g)) {
      const lo = parseInt(r[1]!, 16)
      const hi = parseInt(r[2]!, 16)
      if (r[3]!.startsWith('[')) {
        const dsts = [...r[3]!.matchAll(/<([0-9A-Fa-f]+)>/g)].map((d) => utf16(d[1]!))
        dsts.forEach((d, i) => map.set(lo + i, d))
      } else {
        const base = r[3]!.slice(1, -1)
        const first = parseInt(base.slice(-4), 16)
        for (let c = lo; c <= hi; c++) map.set(c, utf16(base.slice(0, -4)) + String.fromCharCode(first + c - lo))
      }
    }
  }
  return map
}

function decode(run: string, map: Map<number, string>): string {
  let out = ''
  for (let i = 0; i + 4 <= run.length; i += 4) out += map.get(parseInt(run.slice(i, i + 4), 16)) ?? ''
  return out
}

/** Whether the PDF holds the phrase (spaces ignored: Chromium positions words rather than printing spaces). */
export function pdfHasText(pdf: Buffer, phrase: string): boolean {
  const squash = (s: string) => s.replace(/\s+/g, '')
  return pdfTexts(pdf).some((t) => squash(t).includes(squash(phrase)))
}
