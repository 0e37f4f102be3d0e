import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, apiPage } from './client'
import { useChange, type MutationCallbacks } from './mutation'
import type { CreatedUser, User } from './types'

/** Query keys of the users; everything starts with `['users']`. */
export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (filters: object) => [...userKeys.lists(), filters] as const,
  /** Active users, id and name only. */
  lite: () => [...userKeys.all, 'lite'] as const,
  permissions: (id: number) => [...userKeys.all, 'detail', id, 'permissions'] as const,
}

export interface UserFilters {
  q?: string
  active?: boolean
  limit: number
  offset: number
}

export function useUsers(filters: UserFilters, enabled = true) {
  return useQuery({
    queryKey: userKeys.list(filters),
    queryFn: () => apiPage<User>('/users/', { query: { ...filters } }),
    placeholderData: keepPreviousData,
    enabled,
  })
}

/**
 * Active users (id and name): enough to show who commented or to pick an
 * interviewer. Callers without users.manage get exactly this from the server.
 */
export function useUsersLite() {
  return useQuery({
    queryKey: userKeys.lite(),
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

export function useUserPermissions(id: number) {
  return useQuery({
    queryKey: userKeys.permissions(id),
    queryFn: () => api<{ permissions: string[] }>(`/users/${id}/permissions`),
  })
}

export interface UserBody {
  email?: string | null
  fname: string
  lname: string
  active?: boolean
  language?: string
  /** Creation only: no password; an invitation is sent (docs/api-reference.md §16). */
  invite?: boolean
}

/** The answer carries the temporary password: the only time it is shown. */
export function useCreateUser() {
  return useChange({
    mutationFn: (body: UserBody) => api<CreatedUser>('/users/', { method: 'POST', body }),
    invalidates: () => [userKeys.all],
  })
}

/** PUT /users/{id}: a manager's edit, activation, or the user's own profile and language. */
export function useUpdateUser(callbacks: MutationCallbacks<User, { id: number; body: UserBody }> = {}) {
  return useChange({
    mutationFn: ({ id, body }: { id: number; body: UserBody }) => api<User>(`/users/${id}`, { method: 'PUT', body }),
    ...callbacks,
    invalidates: () => [userKeys.all],
  })
}

export function useSetPermissions(id: number) {
  return useChange({
    mutationFn: (permissions: string[]) => api(`/users/${id}/permissions`, { method: 'PUT', body: { permissions } }),
    invalidates: () => [userKeys.all],
  })
}

/** The user's own password change (the current one is required); the profile is reloaded by the caller. */
export function useChangePassword() {
  return useChange({
    mutationFn: ({ id, oldPassword, newPassword }: { id: number; oldPassword: string; newPassword: string }) =>
      api<User>(`/users/${id}/password`, {
        method: 'PATCH',
        body: { old_password: oldPassword, new_password: newPassword },
      }),
    invalidates: () => [],
  })
}
