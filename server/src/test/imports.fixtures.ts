import assert from 'node:assert/strict'
import { before } from 'node:test'
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib'
import type { LightMyRequestResponse } from 'fastify'
import type { Ward } from '@stake/contract'
import type { As } from './callings.fixtures.ts'
import { ALL_PERMISSIONS, signedIn, unique } from './factories.ts'
import type { TestApp } from './harness.ts'

/**
 * Report files as LCR gives them, made in the test with invented people
 * (docs/api-reference.md §15): CSV (optionally with a BOM and CRLF), a
 * tab-separated paste, and PDFs laid out like LCR's printed reports — a
 * title, the column header on every page, the rows, a page footer.
 */

export const MEMBER_LIST_HEADER = ['Name', 'Gender', 'Age', 'Birth Date', 'Phone Number', 'E-mail']
export const MEMBERS_WITH_CALLINGS_HEADER = [
  'Name',
  'Gender',
  'Age',
  'Birth Date',
  'Phone',
  'Organization',
  'Calling',
  'Sustained',
  'Set Apart',
]
export const CALLINGS_HEADER = ['Organization', 'Calling', 'Name', 'Sustained', 'Set Apart']

const quoteCsv = (cell: string) =>
  /[",\r\n]/.test(cell) || /^\s|\s$/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell

export function csv(rows: string[][], options: { bom?: boolean; crlf?: boolean } = {}): string {
  const eol = options.crlf ? '\r\n' : '\n'
  return (options.bom ? '\uFEFF' : '') + rows.map((r) => r.map(quoteCsv).join(',')).join(eol) + eol
}

/** A table pasted from a browser: tab-separated, cells quoted only when they hold a tab, quote or line break. */
export function tsv(rows: string[][]): string {
  const quote = (cell: string) => (/[\t"\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)
  return rows.map((r) => r.map(quote).join('\t')).join('\n') + '\n'
}

/**
 * A PDF like LCR's printed report: `rowsPerPage` rows a page, the header
 * repeated, "Page n of m" below. A "\n" in a cell wraps its text onto the
 * next line, `lineHeight` below; each row is `padding` above and below its
 * lines, as a browser prints a table whose cells have padding. The default
 * (14, no padding) puts every line 14 units apart.
 */
export async function lcrPdf(
  title: string,
  header: string[],
  rows: string[][],
  options: { rowsPerPage?: number; subtitle?: string; lineHeight?: number; padding?: number } = {},
): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const size = 9
  const perPage = options.rowsPerPage ?? 40
  const lineHeight = options.lineHeight ?? 14
  const padding = options.padding ?? 0
  const widest = (cell: string) => Math.max(...cell.split('\n').map((part) => font.widthOfTextAtSize(part, size)))
  const widths = header.map((h, i) => Math.max(bold.widthOfTextAtSize(h, size), ...rows.map((r) => widest(r[i] ?? ''))))
  const xs: number[] = []
  let x = 36
  for (const w of widths) {
    xs.push(x)
    x += w + 14
  }
  const pageWidth = Math.max(612, x + 36)
  const pages = Math.max(1, Math.ceil(rows.length / perPage))
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([pageWidth, 792])
    let y = 792 - 40
    if (p === 0) {
      page.drawText(title, { x: 36, y, size: 14, font: bold })
      y -= 18
      page.drawText(options.subtitle ?? 'Maple Grove Stake — printed 28 Nov 2026', { x: 36, y, size: 9, font })
      y -= 22
    }
    header.forEach((h, i) => page.drawText(h, { x: xs[i]!, y, size, font: bold }))
    y -= 4
    page.drawLine({ start: { x: 36, y }, end: { x: pageWidth - 36, y }, thickness: 0.5, color: rgb(0.5, 0.5, 0.5) })
    y -= 12
    for (const row of rows.slice(p * perPage, (p + 1) * perPage)) {
      y -= padding
      let lines = 1
      row.forEach((cell, i) => {
        const parts = cell ? cell.split('\n') : []
        parts.forEach((part, n) => page.drawText(part, { x: xs[i]!, y: y - n * lineHeight, size, font }))
        lines = Math.max(lines, parts.length)
      })
      y -= lines * lineHeight + padding
    }
    page.drawText(`Page ${p + 1} of ${pages}`, { x: pageWidth / 2 - 20, y: 24, size: 8, font })
  }
  return Buffer.from(await doc.save())
}

/** POST /api/imports with a raw report body. */
export function postReport(
  t: TestApp,
  token: string,
  body: string | Buffer,
  contentType: string,
  query = '',
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/api/imports${query ? `?${query}` : ''}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: body,
  })
}

/**
 * An importer holding every permission, signed in before the file's tests,
 * and wards made through the API: `{admin: {token, as}, makeWard}`.
 */
export function importerWithWards(t: TestApp) {
  const admin = { token: '', as: (() => Promise.reject(new Error('not signed in yet'))) as As }
  before(async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    Object.assign(admin, { token: a.token, as: a.as })
  })
  const makeWard = async (name = unique('Ward ')): Promise<Ward> => {
    const res = await admin.as('POST', '/api/wards/', { name, start_time: 600 })
    assert.equal(res.statusCode, 201, res.body)
    return res.json()
  }
  return { admin, makeWard }
}
