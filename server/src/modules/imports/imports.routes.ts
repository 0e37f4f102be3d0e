import { Type } from 'typebox'
import { ErrorBody, Id, ImportApplied, ImportMatchAnswer, ImportPreview, ImportQuery } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { FastifyTypebox } from '../../http.ts'
import { invalid } from '../../errors.ts'
import { requireActor } from '../../plugins/auth.ts'
import { ImportsService } from './imports.service.ts'
import { REPORT_TYPES, type ReportType } from './tables.ts'

const ImportParams = Type.Object({ import_id: Id })
const tags = ['imports']

/** At most 5 MiB of report (docs/api-reference.md §15): 413 above. */
const REPORT_LIMIT = 5 * 1024 * 1024

/**
 * The raw report, kept out of sight of the generic input checks: they walk a
 * body's values (a PDF's bytes are not text), and the report is read as a
 * table by the service instead.
 */
class ReportBody {
  readonly #data: Buffer
  constructor(data: Buffer) {
    this.#data = data
  }
  get data(): Buffer {
    return this.#data
  }
}

const mediaType = (header: string | undefined): string => (header ?? '').split(';', 1)[0]!.trim().toLowerCase()

/** Imports of LCR reports (docs/api-reference.md §15): users.manage and callings.manage. */
export default async function importsRoutes(app: FastifyTypebox, ctx: AppContext) {
  const service = new ImportsService(ctx)

  // Only this module's routes read these types, as raw bytes.
  app.removeContentTypeParser('text/plain')
  app.addContentTypeParser([...REPORT_TYPES], { parseAs: 'buffer', bodyLimit: REPORT_LIMIT }, (_req, body, done) =>
    done(null, new ReportBody(body as Buffer)),
  )

  app.post(
    '/',
    {
      bodyLimit: REPORT_LIMIT,
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'createImport',
        tags,
        summary:
          'Preview an LCR report (CSV, tab-separated paste or PDF as the raw body, at most 5 MiB); needs users.manage and callings.manage; nothing changes until applied',
        consumes: [...REPORT_TYPES],
        querystring: ImportQuery,
        response: { 201: ImportPreview, 404: ErrorBody, 413: ErrorBody },
      },
    },
    async (request, reply) => {
      const type = mediaType(request.headers['content-type'])
      if (!(request.body instanceof ReportBody) || !(REPORT_TYPES as readonly string[]).includes(type)) {
        throw invalid(
          ['header', 'content-type'],
          `Send the report as ${REPORT_TYPES.join(', ')}; got ${type || 'none'}`,
          'content_type',
        )
      }
      // A client that goes away stops the reading of its report (a PDF's worker is ended).
      const gone = new AbortController()
      // The response closing before it was written means the connection is gone.
      const onClose = () => {
        if (!reply.raw.writableFinished) gone.abort()
      }
      reply.raw.once('close', onClose)
      try {
        const preview = await service.preview(
          requireActor(request),
          request.query,
          type as ReportType,
          request.body.data,
          gone.signal,
        )
        return reply.status(201).send(preview)
      } finally {
        reply.raw.off('close', onClose)
      }
    },
  )

  app.get(
    '/:import_id',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'getImport',
        tags,
        summary: "An import's preview (or, once applied, what it did); only its importer sees it, for 24 hours",
        params: ImportParams,
        response: { 200: ImportPreview },
      },
    },
    async (request) => service.get(requireActor(request), request.params.import_id),
  )

  app.post(
    '/:import_id/matches',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'answerImportMatch',
        tags,
        summary:
          "Confirm or reject a preview's possible match (the report's person is that user, or a new person); answers the preview worked out again",
        params: ImportParams,
        body: ImportMatchAnswer,
        response: { 200: ImportPreview, 409: ErrorBody },
      },
    },
    async (request) => service.answerMatch(requireActor(request), request.params.import_id, request.body),
  )

  app.post(
    '/:import_id/apply',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'applyImport',
        tags,
        summary:
          "Apply an import's preview in one transaction; 409 stale_import when the stake changed since, 409 already_applied the second time",
        params: ImportParams,
        response: { 200: ImportApplied, 409: ErrorBody },
      },
    },
    async (request) => service.apply(requireActor(request), request.params.import_id),
  )
}
