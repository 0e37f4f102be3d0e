import { api } from './client'
import { callingKeys } from './callings'
import { useChange } from './mutation'
import type { ImportPreview, ImportSummary } from './types'
import { userKeys } from './users'
import { wardKeys } from './wards'

/** Query keys of LCR imports (docs/api-reference.md §15): one preview by id. */
const importKeys = {
  all: ['imports'] as const,
  detail: (id: number) => [...importKeys.all, 'detail', id] as const,
}

export interface ReportUpload {
  /** A file (CSV or PDF) or pasted text. */
  body: Blob | string
  type: string
  wardId: number | null
  releaseMissing: boolean
}

/** The content type to send a chosen file as: by its type, else by its name. */
export function reportType(file: File): string {
  const name = file.name.toLowerCase()
  if (file.type === 'application/pdf' || name.endsWith('.pdf')) return 'application/pdf'
  if (name.endsWith('.tsv') || name.endsWith('.txt')) return 'text/plain'
  return 'text/csv'
}

/** POST /imports: reads the report and answers its preview (nothing changes yet). */
export function usePreviewImport() {
  return useChange({
    mutationFn: (u: ReportUpload) =>
      api<ImportPreview>('/imports/', {
        method: 'POST',
        raw: { body: u.body, type: u.type },
        query: { ward_id: u.wardId, release_missing: u.releaseMissing ? 'true' : undefined },
      }),
    invalidates: () => [],
  })
}

/** POST /imports/{id}/apply: people, callings and seats change, so their lists are refetched. */
export function useApplyImport() {
  return useChange({
    mutationFn: (id: number) => api<{ summary: ImportSummary }>(`/imports/${id}/apply`, { method: 'POST' }),
    invalidates: (id) => [importKeys.detail(id), userKeys.all, callingKeys.all, wardKeys.all],
  })
}
