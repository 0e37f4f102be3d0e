import { useQuery } from '@tanstack/react-query'
import { api, apiPage } from './client'
import type { User, Ward } from './types'

export const qk = {
  wards: ['wards'] as const,
  usersLite: ['users', 'lite'] as const,
  users: (params: object) => ['users', 'list', params] as const,
  board: ['board'] as const,
  proposal: (id: number) => ['proposal', id] as const,
  calendar: (year: number) => ['speaking', 'calendar', year] as const,
  topics: (year: number) => ['speaking', 'topics', year] as const,
  callings: (params: object) => ['callings', 'list', params] as const,
  calling: (id: number) => ['callings', 'one', id] as const,
  sessions: ['sessions'] as const,
}

export function useWards() {
  return useQuery({
    queryKey: qk.wards,
    queryFn: () => api<Ward[]>('/wards/'),
    staleTime: 60_000,
  })
}

export function wardName(wards: Ward[] | undefined, id: number | null | undefined): string {
  if (id == null) return '—'
  return wards?.find((w) => w.id === id)?.name ?? `Ward ${id}`
}

/**
 * Active users (id and name): enough to show who commented or to pick an
 * interviewer. Callers without users.manage get exactly this from the server.
 */
export function useUsersLite() {
  return useQuery({
    queryKey: qk.usersLite,
    queryFn: async () => {
      const all: User[] = []
      for (let offset = 0; offset < 2000; offset += 200) {
        const page = await apiPage<User>('/users/', { query: { limit: 200, offset, active: true } })
        all.push(...page.items)
        if (page.items.length < 200 || all.length >= page.total) break
      }
      return all
    },
    staleTime: 60_000,
  })
}

export function userName(users: User[] | undefined, id: number | null | undefined): string {
  if (id == null) return '—'
  const u = users?.find((x) => x.id === id)
  return u ? `${u.fname} ${u.lname}` : `User #${id}`
}
