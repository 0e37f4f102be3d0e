import { useDeferredValue } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { isOpenStage } from '@stake/contract/stages'
import { actionKeys } from './actions'
import { api, apiPage } from './client'
import { useChange } from './mutation'
import { proposalKeys } from './proposals'
import { showHtml } from './script-window'
import type { Proposal, Sustainings } from './types'

/**
 * Sustainings and records (docs/api-reference.md §12): each ward's list and script,
 * presentations, the archive and its CSV, and the proposal form's look-ups.
 */
const sustainingKeys = {
  all: ['sustainings'] as const,
  ward: (wardId: number) => [...sustainingKeys.all, wardId] as const,
  // Proposal lists: any change to a proposal makes them stale (api/proposals.ts).
  archive: (filters: ArchiveFilters) => proposalKeys.list({ archive: filters }),
  openFor: (name: string) => proposalKeys.list({ openFor: name }),
}

export function useSustainings(wardId: number | null) {
  return useQuery({
    queryKey: sustainingKeys.ward(wardId ?? 0),
    queryFn: () => api<Sustainings>(`/sustainings/${wardId}`),
    enabled: wardId !== null && wardId > 0,
  })
}

/** POST …/presented; the ward lists, the board, the proposal and the action queue change with it. */
export function usePresent() {
  const qc = useQueryClient()
  return useChange({
    mutationFn: ({ proposalId, wardId, date }: { proposalId: number; wardId: number; date?: string }) =>
      api<Proposal>(`/calling-kanban/proposals/${proposalId}/presented`, {
        method: 'POST',
        body: { ward_id: wardId, ...(date ? { date } : {}) },
      }),
    onSuccess: (proposal) => qc.setQueryData(proposalKeys.detail(proposal.id), proposal),
    invalidates: () => [sustainingKeys.all, proposalKeys.all, actionKeys.all],
  })
}

/**
 * Opens the printable script in a new tab. The tab is opened at the click
 * (so no pop-up blocker stops it) and pointed at the page once it arrives:
 * the script needs the bearer token, which a plain link cannot carry. Its
 * blob: address is revoked once shown (script-window.ts).
 */
export function useOpenScript() {
  return useMutation({
    mutationFn: async ({ wardId, lang }: { wardId: number; lang: 'en' | 'es' }) => {
      const tab = window.open('', '_blank')
      try {
        const html = await api<Blob>(`/sustainings/${wardId}/script`, { query: { lang }, as: 'blob' })
        showHtml(tab, html)
      } catch (error) {
        tab?.close()
        throw error
      }
    },
  })
}

export interface ArchiveFilters {
  stage?: 'done' | 'declined'
  from?: string
  to?: string
  ward_id?: number
  /** docs/api-reference.md §18. */
  kind?: 'call' | 'release' | 'ordination'
  calling?: string
  q?: string
  limit?: number
  offset?: number
}

/** Finished and declined proposals (both when no stage is chosen). */
export function useArchive(filters: ArchiveFilters) {
  return useQuery({
    queryKey: sustainingKeys.archive(filters),
    queryFn: async () => {
      if (filters.stage) return apiPage<Proposal>('/calling-kanban/proposals', { query: { ...filters } })
      // Both closed stages: one page of each, merged by when they closed.
      const [done, declined] = await Promise.all(
        (['done', 'declined'] as const).map((stage) =>
          apiPage<Proposal>('/calling-kanban/proposals', { query: { ...filters, stage, limit: 200, offset: 0 } }),
        ),
      )
      const items = [...done!.items, ...declined!.items].sort((a, b) =>
        b.stage_changed_at.localeCompare(a.stage_changed_at),
      )
      return { items, total: done!.total + declined!.total }
    },
    placeholderData: keepPreviousData,
  })
}

/** Saves the archive's CSV (same filters, every row) as a file. */
export function useDownloadCsv() {
  return useMutation({
    mutationFn: async (filters: Omit<ArchiveFilters, 'limit' | 'offset'>) => {
      const { limit: _l, offset: _o, ...query } = filters as ArchiveFilters
      void _l
      void _o
      const blob = await api<Blob>('/calling-kanban/proposals.csv', { query: { ...query }, as: 'blob' })
      const url = URL.createObjectURL(blob)
      const a = document.createElement('a')
      a.href = url
      a.download = 'proposals.csv'
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    },
  })
}

/** Open proposals for a person of this name (the form's "already proposed" warning). */
export function useOpenProposalsFor(fname: string, lname: string, exceptId?: number) {
  const name = useDeferredValue(`${fname.trim()} ${lname.trim()}`.trim())
  const ready = fname.trim().length > 1 && lname.trim().length > 1
  const query = useQuery({
    queryKey: sustainingKeys.openFor(name.toLowerCase()),
    queryFn: () => apiPage<Proposal>('/calling-kanban/proposals', { query: { q: name, limit: 50 } }),
    enabled: ready,
    staleTime: 30_000,
  })
  const matches = (query.data?.items ?? []).filter(
    (p) => isOpenStage(p.stage) && p.id !== exceptId && `${p.fname} ${p.lname}`.toLowerCase() === name.toLowerCase(),
  )
  return ready ? matches : []
}
