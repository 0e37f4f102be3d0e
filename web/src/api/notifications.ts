import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, request } from './client'
import { actionKeys } from './actions'
import type { EmailPreference, Notification, NotificationPreferences, Reminded } from './types'

/** Query keys of the inbox, its counts and the mail preference (docs/api-reference.md §11). */
const notificationKeys = {
  all: ['notifications'] as const,
  list: (unreadOnly: boolean, page: number) => ['notifications', 'list', { unreadOnly, page }] as const,
  unread: ['notifications', 'unread'] as const,
  preferences: ['notifications', 'preferences'] as const,
}

export const INBOX_PAGE_SIZE = 20

export interface InboxPage {
  items: Notification[]
  total: number
  unread: number
}

async function inbox(unreadOnly: boolean, limit: number, offset: number): Promise<InboxPage> {
  const res = await request<Notification[]>('/notifications', {
    query: { unread: unreadOnly ? true : undefined, limit, offset },
  })
  const count = (name: string) => Number(res.headers.get(name) ?? 0) || 0
  return { items: res.data, total: count('X-Total-Count'), unread: count('X-Unread-Count') }
}

/** One page of the inbox, newest first. */
export function useInbox(unreadOnly: boolean, page: number) {
  return useQuery({
    queryKey: notificationKeys.list(unreadOnly, page),
    queryFn: () => inbox(unreadOnly, INBOX_PAGE_SIZE, (page - 1) * INBOX_PAGE_SIZE),
    refetchOnWindowFocus: true,
  })
}

/** The bell's count: refetched on focus and once a minute, like the action queue. */
export function useUnreadCount() {
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: async () => (await inbox(true, 0, 0)).unread,
    refetchOnWindowFocus: true,
    refetchInterval: 60_000,
  })
}

/** Mark one read, or all (no id); the inbox and the bell follow. */
export function useMarkRead() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: number | null) =>
      api<null>(id === null ? '/notifications/read-all' : `/notifications/${id}/read`, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  })
}

export function useEmailPreference() {
  return useQuery({
    queryKey: notificationKeys.preferences,
    queryFn: () => api<NotificationPreferences>('/notifications/preferences'),
  })
}

export function useSaveEmailPreference() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (email: EmailPreference) =>
      api<NotificationPreferences>('/notifications/preferences', { method: 'PUT', body: { email } }),
    onSuccess: (saved) => client.setQueryData(notificationKeys.preferences, saved),
  })
}

/** A manager's "Remind": the missing voters of the current stage get a reminder. */
export function useRemind(proposalId: number) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => api<Reminded>(`/calling-kanban/proposals/${proposalId}/remind`, { method: 'POST' }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: notificationKeys.all })
      void client.invalidateQueries({ queryKey: actionKeys.all })
    },
  })
}
