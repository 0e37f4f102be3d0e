import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PDFDocument, PDFName } from 'pdf-lib'
import { useTestApp } from '../../test/harness.ts'
import { ALL_PERMISSIONS, signedIn, unique } from '../../test/factories.ts'
import { expectError } from '../../test/callings.fixtures.ts'
import { csv, MEMBER_LIST_HEADER, postReport } from '../../test/imports.fixtures.ts'
import { waitFor } from '../../test/process.ts'
import { readsInProgress } from './imports.limits.ts'
import { threadsStarted } from './reader.ts'

/**
 * The bounds of importing (docs/api-reference.md §15): over a limit a clear
 * 413, 422 or 429 naming it, and nothing stored.
 */
describe('imports are bounded', () => {
  const t = useTestApp()
  const stored = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('imports')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const tiny = (last: string) => csv([MEMBER_LIST_HEADER, [`${last}, Ada`, 'F', '40', '1 Jan 1986', '', '']])

  /** A PDF of `pages` pages, each drawing the same compressed stream of `bytes` of line operators (directly, or as a form). */
  async function drawingPdf(pages: number, bytes: number, asForm = false): Promise<Buffer> {
    const doc = await PDFDocument.create()
    const operators = Buffer.from('0 0 m 1 1 l S\n'.repeat(Math.floor(bytes / 14)))
    const drawing = asForm
      ? doc.context.flateStream(operators, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 612, 792] })
      : doc.context.flateStream(operators)
    const ref = doc.context.register(drawing)
    for (let i = 0; i < pages; i++) {
      const page = doc.addPage([612, 792])
      if (!asForm) page.node.set(PDFName.of('Contents'), ref)
      else {
        page.node.set(PDFName.of('Resources'), doc.context.obj({ XObject: { F1: ref } }))
        page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream('/F1 Do')))
      }
    }
    return Buffer.from(await doc.save())
  }

  it('a page drawing more than 2 MB (directly or through a form) → 413 naming the limit, before any reading; nothing stored', async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const before = await stored()
    for (const asForm of [false, true]) {
      // About 10 MB of drawing operators, compressed once, on each of 40 pages: small to send, long to read.
      const pdf = await drawingPdf(40, 10_000_000, asForm)
      assert.ok(pdf.length < 200_000, `${pdf.length} bytes`)
      const started = Date.now()
      const res = await postReport(t, a.token, pdf, 'application/pdf')
      expectError(res, 413, 'report_too_large')
      assert.match(res.json().detail, /^Page 1 of the PDF holds more than 2 MB of drawing/)
      // Reading its pages would take seconds; measuring them takes milliseconds (the worker's start included).
      assert.ok(Date.now() - started < 5_000, `${Date.now() - started} ms`)
    }
    // Under the limit on every page, a real report reads as before.
    const fine = await postReport(t, a.token, await drawingPdf(1, 1_000_000), 'application/pdf')
    assert.notEqual(fine.statusCode, 413, fine.body)
    assert.equal(await stored(), before)
  })

  it('a hostile PDF under the page limit (200 pages drawing one compressed stream) ends with a clear 422 within the time limit; others are answered meanwhile', async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const pdf = await drawingPdf(200, 1_990_000)
    assert.ok(pdf.length < 200_000, `${pdf.length} bytes`)
    const before = await stored()
    const started = Date.now()
    const reading = postReport(t, a.token, pdf, 'application/pdf')
    // Meanwhile the server answers: the reading is on a worker thread.
    await new Promise((r) => setTimeout(r, 1500))
    const ping = Date.now()
    assert.equal((await a.as('GET', '/api/wards/')).statusCode, 200)
    assert.ok(Date.now() - ping < 1000, `a request meanwhile took ${Date.now() - ping} ms`)
    const res = await reading
    const took = Date.now() - started
    assert.equal(res.statusCode, 422, res.body)
    assert.match(res.json().detail[0].msg, /10 seconds/)
    assert.ok(took < 13_000, `${took} ms`)
    assert.equal(await stored(), before)
  })

  it('a CSV, a pasted page and a PDF are each read on a thread of their own, not on the thread that answers requests', async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const before = threadsStarted()
    expectError(await postReport(t, a.token, tiny(unique('Thread')), 'text/csv'), 201)
    const pasted = `Members\nName\tGender\tAge\tBirth Date\tPhone Number\tE-mail\n${unique('Paste')}, Ada\tF\t40\t1 Jan 1986\t\t\n`
    expectError(await postReport(t, a.token, Buffer.from(pasted), 'text/plain'), 201)
    expectError(await postReport(t, a.token, await drawingPdf(1, 1_000), 'application/pdf'), 422)
    assert.equal(threadsStarted(), before + 3)
  })

  it('more than 200 pages → 413 naming the limit; more than 10,000 rows → 422 naming it; nothing stored', async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const doc = await PDFDocument.create()
    for (let i = 0; i < 201; i++) doc.addPage([100, 100])
    const before = await stored()
    const pages = await postReport(t, a.token, Buffer.from(await doc.save()), 'application/pdf')
    expectError(pages, 413, 'report_too_large')
    assert.match(pages.json().message ?? pages.body, /200 pages/)
    const rows = Array.from({ length: 10_001 }, (_, i) => [`Row${i}, Ada`, '555-0100'])
    const many = await postReport(t, a.token, csv([['Name', 'Phone'], ...rows]), 'text/csv')
    assert.equal(many.statusCode, 422, many.body)
    assert.match(many.body, /10000 rows/)
    assert.equal(await stored(), before)
  })

  it('one report read at a time per stake: a second meanwhile → 429', async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const doc = await PDFDocument.create()
    // Long enough to read that the second request arrives while it is read.
    for (let page = 0; page < 60; page++) {
      const p = doc.addPage([612, 792])
      for (let line = 0; line < 40; line++)
        p.drawText(`Name ${page}-${line}    Phone`, { x: 40, y: 750 - line * 16, size: 9 })
    }
    const slow = postReport(t, a.token, Buffer.from(await doc.save()), 'application/pdf')
    assert.ok(await waitFor(() => readsInProgress() > 0, 20_000), 'the first report was never read')
    const second = await postReport(t, a.token, tiny(unique('Busy')), 'text/csv')
    expectError(second, 429, 'import_limit')
    assert.match(second.body, /one import is read at a time/)
    await slow
    assert.equal((await postReport(t, a.token, tiny(unique('Later')), 'text/csv')).statusCode, 201)
  })

  it('at most 20 open previews per stake and 30 imports an hour per user → 429 naming the limit, nothing stored', async () => {
    const a = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const last = unique('Capped')
    const open = Number(
      (
        await t.database.db
          .selectFrom('imports')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'preview')
          .executeTakeFirstOrThrow()
      ).n,
    )
    const ids: number[] = []
    for (let i = open; i < 20; i++) {
      const res = await postReport(t, a.token, tiny(unique(last)), 'text/csv')
      assert.equal(res.statusCode, 201, res.body)
      ids.push(res.json().id)
    }
    const before = await stored()
    const full = await postReport(t, a.token, tiny(last), 'text/csv')
    expectError(full, 429, 'import_limit')
    assert.match(full.body, /20 open previews/)
    assert.equal(await stored(), before)
    // Applied previews are no longer open; the user's hourly count still grows.
    for (const id of ids) assert.equal((await a.as('POST', `/api/imports/${id}/apply`)).statusCode, 200)
    for (let i = ids.length; i < 30; i++) {
      assert.equal((await postReport(t, a.token, tiny(unique(last)), 'text/csv')).statusCode, 201)
    }
    const hourly = await postReport(t, a.token, tiny(last), 'text/csv')
    expectError(hourly, 429, 'import_limit')
    assert.match(hourly.body, /30 reports in the last hour/)
    t.clock.advance(3601)
    // An hour later this user may preview again (the stake's open previews permitting).
    const later = await postReport(t, a.token, tiny(last), 'text/csv')
    assert.notEqual(later.json().message ?? '', hourly.json().message)
  })
})
