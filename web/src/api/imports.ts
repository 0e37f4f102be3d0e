import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from './client'
import { callingKeys } from './callings'
import { useChange } from './mutation'
import type { ImportPreview, ImportSummary } from './types'
import { userKeys } from './users'
import { wardKeys } from './wardList'

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

/**
 * GET /imports/{id}: a preview as last answered. The preview and each answer
 * to a possible match put their answer here, so it is fetched again only once
 * the import is applied (its status changes).
 */
export function useImport(id: number | null) {
  return useQuery({
    queryKey: importKeys.detail(id ?? 0),
    queryFn: () => api<ImportPreview>(`/imports/${id}`),
    enabled: id !== null,
    staleTime: Infinity,
  })
}

/** POST /imports: reads the report and answers its preview (nothing changes yet). */
export function usePreviewImport() {
  const qc = useQueryClient()
  return useChange({
    mutationFn: (u: ReportUpload) =>
      api<ImportPreview>('/imports/', {
        method: 'POST',
        raw: { body: u.body, type: u.type },
        query: { ward_id: u.wardId, release_missing: u.releaseMissing ? 'true' : undefined },
      }),
    onSuccess: (preview) => qc.setQueryData(importKeys.detail(preview.id), preview),
    invalidates: () => [],
  })
}

/** POST /imports/{id}/matches: the report's person is the offered user (accept) or a new person. */
export function useAnswerMatch(id: number) {
  const qc = useQueryClient()
  return useChange({
    mutationFn: (answer: { row: number; accept: boolean }) =>
      api<ImportPreview>(`/imports/${id}/matches`, { method: 'POST', body: answer }),
    onSuccess: (preview) => qc.setQueryData(importKeys.detail(id), preview),
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
