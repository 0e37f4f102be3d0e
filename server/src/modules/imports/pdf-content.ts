import { inflateSync } from 'node:zlib'
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, decodePDFRawStream } from 'pdf-lib'
import type { PDFObject } from 'pdf-lib'
import { PDF_MAX_PAGE_CONTENT } from './limits.ts'

/**
 * How much drawing each page of a PDF holds, measured before its text is
 * read (docs/api-reference.md §15). A printed LCR page holds 10–20 KB of
 * drawing operators; a hostile PDF draws one small compressed stream of
 * megabytes of operators on every page, which costs seconds of CPU a page to
 * read. Its decompressed size is known in milliseconds, so such a page is
 * refused before any reading. Runs inside the report reader's thread (read-thread.ts):
 * plain erasable TypeScript.
 *
 * Returns the first page (1-based) over the limit with its size, or null.
 * Whatever this reader cannot follow (a damaged or encrypted file) is left to
 * the text reader, which has its own time and memory limits.
 */
export function pageOverContentLimit(data: Uint8Array): Promise<{ page: number; bytes: number } | null> {
  return measure(data).catch(() => null)
}

async function measure(data: Uint8Array): Promise<{ page: number; bytes: number } | null> {
  const doc = await PDFDocument.load(data, { ignoreEncryption: true, updateMetadata: false })
  // A stream drawn on many pages is decompressed once.
  const sizes = new Map<PDFObject, number>()
  const sizeOf = (stream: PDFRawStream): number => {
    let size = sizes.get(stream)
    if (size === undefined) {
      size = decodedSize(stream)
      sizes.set(stream, size)
    }
    return size
  }
  const pages = doc.getPages()
  for (let i = 0; i < pages.length; i++) {
    const node = pages[i]!.node
    const seen = new Set<PDFObject>()
    let bytes = 0
    const add = (object: PDFObject | undefined) => {
      const stream = object instanceof PDFRef ? doc.context.lookup(object) : object
      if (!(stream instanceof PDFRawStream) || seen.has(stream)) return
      seen.add(stream)
      bytes += sizeOf(stream)
      // A form the page draws is drawing too, and so are the forms it draws.
      addForms(stream.dict.lookup(PDFName.of('Resources')))
    }
    const addForms = (resources: PDFObject | undefined) => {
      if (!(resources instanceof PDFDict)) return
      const forms = resources.lookup(PDFName.of('XObject'))
      if (!(forms instanceof PDFDict)) return
      for (const value of forms.values()) {
        const form = value instanceof PDFRef ? doc.context.lookup(value) : value
        if (form instanceof PDFRawStream && form.dict.lookup(PDFName.of('Subtype')) === PDFName.of('Form')) add(form)
      }
    }
    const contents = node.Contents()
    if (contents instanceof PDFArray) for (const part of contents.asArray()) add(part)
    else add(contents)
    addForms(node.Resources())
    if (bytes > PDF_MAX_PAGE_CONTENT) return { page: i + 1, bytes }
  }
  return null
}

/** A stream's size once decompressed; inflating stops just past the limit. */
function decodedSize(stream: PDFRawStream): number {
  const filter = stream.dict.lookup(PDFName.of('Filter'))
  if (filter === undefined) return stream.contents.length
  try {
    if (filter === PDFName.of('FlateDecode')) {
      return inflateSync(stream.contents, { maxOutputLength: PDF_MAX_PAGE_CONTENT + 1 }).length
    }
    return decodePDFRawStream(stream).decode().length
  } catch (error) {
    // Past the limit while inflating; anything else (damaged data) counts as it stands.
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      ? PDF_MAX_PAGE_CONTENT + 1
      : stream.contents.length
  }
}
