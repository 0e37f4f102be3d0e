import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { useChange } from './mutation'
import type * as C from '@stake/contract'

/** Query keys of Web Push: the caller's devices and this browser's own subscription. */
const pushKeys = {
  all: ['push'] as const,
  devices: ['push', 'devices'] as const,
  here: ['push', 'here'] as const,
}

export type PushDevice = C.PushDevice
export type PushTestResult = C.PushTestResult

/** Whether this browser can receive pushes at all (a service worker, the Push API, notifications). */
export function pushSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  )
}

/** This browser's current push subscription, if any (null without a service worker). */
async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null
  const registration = await navigator.serviceWorker.getRegistration()
  return (await registration?.pushManager.getSubscription()) ?? null
}

export function usePushDevices() {
  return useQuery({ queryKey: pushKeys.devices, queryFn: () => api<PushDevice[]>('/notifications/push/devices') })
}

/** The endpoint of this browser's subscription (to mark "this device"), or null. */
export function useThisDevice() {
  return useQuery({
    queryKey: pushKeys.here,
    queryFn: async () => (await currentSubscription())?.endpoint ?? null,
  })
}

/** A name for this device in the profile's list ("Chrome on Android"), from what the browser tells. */
function deviceLabel(): string {
  const ua = navigator.userAgent
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser'
  const system = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : ''
  return system ? `${browser} on ${system}` : browser
}

/** Raised when the user (or the browser) refused notifications. */
export class PushDenied extends Error {}

/**
 * Turns push on for this device: asks for permission (only now, on the
 * user's tap), subscribes with the server's VAPID key and saves the
 * subscription as one of the user's devices.
 */
export function useEnablePush() {
  return useChange<PushDevice, void>({
    mutationFn: async () => {
      if ((await Notification.requestPermission()) !== 'granted') throw new PushDenied()
      const registration = await navigator.serviceWorker.ready
      const { public_key } = await api<C.PushKey>('/notifications/push/key')
      const key = Uint8Array.from(atob(public_key.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }))
      const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } }
      return api<PushDevice>('/notifications/push/devices', {
        method: 'POST',
        body: { endpoint: json.endpoint, keys: json.keys, label: deviceLabel() },
      })
    },
    invalidates: () => [pushKeys.all],
  })
}

/** Turns push off for one device; for this device the browser's subscription ends too. */
export function useRemovePushDevice() {
  return useChange<void, PushDevice>({
    mutationFn: async (device) => {
      await api(`/notifications/push/devices/${device.id}`, { method: 'DELETE' })
      const here = await currentSubscription()
      if (here?.endpoint === device.endpoint) await here.unsubscribe()
    },
    invalidates: () => [pushKeys.all],
  })
}

export function useTestPush() {
  return useChange<PushTestResult, number>({
    mutationFn: (id) => api<PushTestResult>(`/notifications/push/devices/${id}/test`, { method: 'POST' }),
    invalidates: () => [pushKeys.devices],
  })
}

/**
 * Signing out on this device ends its pushes: the next person using the
 * browser must not see this user's notifications. Best effort.
 */
export async function forgetThisDevice(): Promise<void> {
  try {
    const here = await currentSubscription()
    if (!here) return
    const devices = await api<PushDevice[]>('/notifications/push/devices')
    const mine = devices.find((d) => d.endpoint === here.endpoint)
    if (mine) await api(`/notifications/push/devices/${mine.id}`, { method: 'DELETE' })
    await here.unsubscribe()
  } catch {
    // Offline or already signed out: the push service drops the subscription with the browser's.
  }
}

/**
 * The installed app's badge shows the "needs me" count (Badging API) where
 * the browser supports it; 0 clears it.
 */
export function setAppBadge(count: number): void {
  const nav = navigator as Navigator & {
    setAppBadge?: (n?: number) => Promise<void>
    clearAppBadge?: () => Promise<void>
  }
  if (count > 0) void nav.setAppBadge?.(count).catch(() => undefined)
  else void nav.clearAppBadge?.().catch(() => undefined)
}
