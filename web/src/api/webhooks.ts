import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type * as C from '@stake/contract'
import { api, apiPage } from './client'

export { WEBHOOK_EVENTS, WEBHOOK_FORMATS } from '@stake/contract/webhook-kinds'

export type Webhook = C.Webhook
export type CreatedWebhook = C.CreatedWebhook
export type WebhookBody = C.WebhookBody
export type WebhookDelivery = C.WebhookDelivery
export type WebhookEvent = C.WebhookEvent
export type WebhookFormat = C.WebhookFormat

/** Query keys of the webhooks (docs/api-reference.md §11, proposals.manage). */
const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: number, page: number) => [...webhookKeys.all, 'deliveries', id, page] as const,
}

export const DELIVERIES_PAGE = 20

export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.list(), queryFn: () => api<Webhook[]>('/webhooks') })
}

/** A webhook's delivery log, newest first; refetched while something is still waiting to be sent. */
export function useWebhookDeliveries(id: number | null, page = 0) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id ?? 0, page),
    queryFn: () =>
      apiPage<WebhookDelivery>(`/webhooks/${id}/deliveries`, {
        query: { limit: DELIVERIES_PAGE, offset: page * DELIVERIES_PAGE },
      }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === 'pending') ? 10_000 : false),
  })
}

/** Every change to webhooks refreshes the list and the delivery logs. */
function useWebhookMutation<V, R>(mutationFn: (vars: V) => Promise<R>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn,
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.all }),
  })
}

/** The answer carries the signing secret: the only time it is ever shown. */
export const useCreateWebhook = () =>
  useWebhookMutation((body: WebhookBody) => api<CreatedWebhook>('/webhooks', { method: 'POST', body }))

export const useUpdateWebhook = () =>
  useWebhookMutation(({ id, body }: { id: number; body: WebhookBody }) =>
    api<Webhook>(`/webhooks/${id}`, { method: 'PUT', body }),
  )

export const useDeleteWebhook = () =>
  useWebhookMutation((id: number) => api<null>(`/webhooks/${id}`, { method: 'DELETE' }))

/** Sends a test message now; the answer is its log entry (delivered, or waiting to retry). */
export const useTestWebhook = () =>
  useWebhookMutation((id: number) => api<WebhookDelivery>(`/webhooks/${id}/test`, { method: 'POST' }))
