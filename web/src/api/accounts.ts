import { useMutation, useQuery } from '@tanstack/react-query'
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser'
import type * as C from '@stake/contract'
import { api } from './client'
import { useChange, type MutationCallbacks } from './mutation'
import type { TokenResponse } from './types'

/**
 * Accounts without an administrator (docs/api-reference.md §16): invitations,
 * the forgotten password, passkeys.
 */
export type Passkey = C.Passkey
export type PendingInvitation = C.PendingInvitation
export type InvitationInfo = C.InvitationInfo
export type InvitationSent = C.InvitationSent
export type PasswordResetRequested = C.PasswordResetRequested

const accountKeys = {
  passkeys: ['passkeys'] as const,
  invitations: ['invitations', 'pending'] as const,
  invitation: (token: string) => ['invitations', 'token', token] as const,
}

/** Who an invitation link is for; a 404 when it is unknown, used or expired. */
export function useInvitation(token: string) {
  return useQuery({
    queryKey: accountKeys.invitation(token),
    queryFn: () => api<InvitationInfo>(`/auth/invitations/${encodeURIComponent(token)}`, { anonymous: true }),
    enabled: token.length > 0,
    retry: false,
    staleTime: Infinity,
  })
}

/**
 * Chooses the password of an invited account and signs in through `beginSession`
 * (AuthProvider's, handed in by the caller: the data layer imports no UI).
 */
export function useAcceptInvitation(beginSession: (tokens: TokenResponse) => Promise<void>) {
  return useMutation({
    mutationFn: async ({ token, password }: { token: string; password: string }) => {
      const tokens = await api<TokenResponse>(`/auth/invitations/${encodeURIComponent(token)}`, {
        method: 'POST',
        body: { password },
        anonymous: true,
      })
      await beginSession(tokens)
    },
  })
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) =>
      api<PasswordResetRequested>('/auth/password-reset', { method: 'POST', body: { email }, anonymous: true }),
  })
}

export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: ({ token, password }: { token: string; password: string }) =>
      api<{ detail: string }>('/auth/password-reset/confirm', {
        method: 'POST',
        body: { token, new_password: password },
        anonymous: true,
      }),
  })
}

/** Administrators: who has not accepted an invitation yet. */
export function usePendingInvitations(enabled = true) {
  return useQuery({
    queryKey: accountKeys.invitations,
    queryFn: () => api<PendingInvitation[]>('/users/invitations'),
    enabled,
  })
}

export function useInviteUser(callbacks: MutationCallbacks<InvitationSent, number> = {}) {
  return useChange({
    mutationFn: (userId: number) => api<InvitationSent>(`/users/${userId}/invite`, { method: 'POST' }),
    ...callbacks,
    invalidates: () => [accountKeys.invitations],
  })
}

/** An administrator's password reset: a reset link mailed, or (mail off) handed back to pass on. */
export function useIssueResetLink(callbacks: MutationCallbacks<C.ResetLinkSent, number> = {}) {
  return useChange({
    mutationFn: (userId: number) => api<C.ResetLinkSent>(`/users/${userId}/reset-link`, { method: 'POST' }),
    ...callbacks,
    invalidates: () => [],
  })
}

/**
 * The WebAuthn library, fetched when a passkey is first used (the sign-in
 * page's autofill starts it after the page is drawn): ~5 KB compressed off
 * the sign-in page's first download.
 */
type WebAuthn = typeof import('@simplewebauthn/browser')
let webauthnLoaded: WebAuthn | null = null
const webauthn = async (): Promise<WebAuthn> => (webauthnLoaded ??= await import('@simplewebauthn/browser'))

/** Whether this browser has WebAuthn at all (what the library's browserSupportsWebAuthn checks). */
export const passkeysSupported = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'

export function usePasskeys() {
  return useQuery({ queryKey: accountKeys.passkeys, queryFn: () => api<Passkey[]>('/auth/passkeys') })
}

/** Registers a passkey on this device: the server's options, the browser's prompt, the server's check. */
export function useAddPasskey(callbacks: MutationCallbacks<Passkey, string | undefined> = {}) {
  return useChange({
    mutationFn: async (name: string | undefined) => {
      const optionsJSON = await api<PublicKeyCredentialCreationOptionsJSON>('/auth/passkeys/options', {
        method: 'POST',
      })
      const credential = await (await webauthn()).startRegistration({ optionsJSON })
      return api<Passkey>('/auth/passkeys', { method: 'POST', body: { credential, ...(name ? { name } : {}) } })
    },
    ...callbacks,
    invalidates: () => [accountKeys.passkeys],
  })
}

export function useRenamePasskey(callbacks: MutationCallbacks<Passkey, { id: number; name: string }> = {}) {
  return useChange({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      api<Passkey>(`/auth/passkeys/${id}`, { method: 'PATCH', body: { name } }),
    ...callbacks,
    invalidates: () => [accountKeys.passkeys],
  })
}

export function useRemovePasskey(callbacks: MutationCallbacks<unknown, Passkey> = {}) {
  return useChange({
    mutationFn: (p: Passkey) => api(`/auth/passkeys/${p.id}`, { method: 'DELETE' }),
    ...callbacks,
    invalidates: () => [accountKeys.passkeys],
  })
}

/**
 * Signs in with a passkey. `autofill`: the browser's conditional UI (the
 * passkey offered in the email field's suggestions), started when the
 * sign-in page opens; a button press cancels it and asks at once.
 */
export async function passkeySignIn(
  beginSession: (tokens: TokenResponse) => Promise<void>,
  options: { autofill?: boolean; shared?: boolean } = {},
): Promise<void> {
  const optionsJSON = await api<PublicKeyCredentialRequestOptionsJSON>('/auth/passkey-login/options', {
    method: 'POST',
    anonymous: true,
  })
  const { startAuthentication } = await webauthn()
  const credential = await startAuthentication({ optionsJSON, useBrowserAutofill: options.autofill === true })
  const tokens = await api<TokenResponse>('/auth/passkey-login', {
    method: 'POST',
    body: { credential, ...(options.shared ? { shared_computer: true } : {}) },
    anonymous: true,
  })
  await beginSession(tokens)
}

export const autofillSupported = async (): Promise<boolean> =>
  passkeysSupported() && (await webauthn()).browserSupportsWebAuthnAutofill()
/** Ends a passkey prompt in progress (there is none before the library has loaded). */
export const cancelPasskeyPrompt = (): void => webauthnLoaded?.WebAuthnAbortService.cancelCeremony()
