import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type * as C from '@stake/contract'
import { apiPage } from './client'
import type { User } from './types'

export type AuditEntry = C.AuditEntry
export { AUDIT_ACTIONS, AUDIT_GROUPS } from '@stake/contract/audit-actions'

/** GET /audit filters (docs/api-reference.md §13): `action` is one action or a group with a trailing dot; dates are days. */
export interface AuditParams {
  actor_id?: number
  action?: string
  from?: string
  to?: string
  limit: number
  offset: number
}

/** Query keys of the audit log; every key starts with `['audit']`. */
const auditKeys = {
  all: ['audit'] as const,
  list: (params: AuditParams) => ['audit', 'list', params] as const,
  people: ['audit', 'people'] as const,
}

/** One page of the audit log, newest first, with the total. */
export function useAuditLog(params: AuditParams) {
  return useQuery({
    queryKey: auditKeys.list(params),
    queryFn: () => apiPage<AuditEntry>('/audit/', { query: { ...params } }),
    placeholderData: keepPreviousData,
  })
}

/**
 * Everyone, inactive users included, to name the actors and targets of the
 * log (a deactivated user's old changes still need a name). The audit page
 * is for users.manage, who may list every user.
 */
export function useAuditPeople() {
  return useQuery({
    queryKey: auditKeys.people,
    queryFn: async () => {
      const all: User[] = []
      for (let offset = 0; offset < 5000; offset += 200) {
        const page = await apiPage<User>('/users/', { query: { limit: 200, offset } })
        all.push(...page.items)
        if (page.items.length < 200 || all.length >= page.total) break
      }
      return new Map(all.map((u) => [u.id, `${u.fname} ${u.lname}`]))
    },
    staleTime: 60_000,
  })
}
