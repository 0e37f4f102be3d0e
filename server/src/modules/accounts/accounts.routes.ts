import cookie from '@fastify/cookie'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import {
  AcceptInvitationBody,
  ErrorBody,
  Id,
  InvitationInfo,
  InvitationParams,
  Passkey,
  PasskeyLoginBody,
  PasswordResetAccepted,
  PasswordResetRequested,
  PasswordResetBody,
  PasswordResetConfirmBody,
  RegisterPasskeyBody,
  RenamePasskeyBody,
  TokenResponse,
  WebAuthnOptions,
} from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { type FastifyTypebox, noContent } from '../../http.ts'
import { requireActor } from '../../plugins/auth.ts'
import { isCrossSite } from '../auth/cross-site.ts'
import { sendSession } from '../auth/auth.routes.ts'
import { InvitationsService } from './invitations.service.ts'
import { PasswordResetService } from './password-reset.service.ts'
import { PasskeysService, type RelyingParty } from './passkeys.service.ts'

const tags = ['auth']
const PasskeyParams = Type.Object({ id: Id })

/**
 * Accounts without an administrator (docs/api-reference.md §16), under /auth:
 * accepting an invitation, the forgotten password, passkeys.
 */
export default async function accountsRoutes(app: FastifyTypebox, ctx: AppContext) {
  const invitations = new InvitationsService(ctx)
  const resets = new PasswordResetService(ctx)
  const passkeys = new PasskeysService(ctx)
  const client = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? null })
  /** The relying party: PUBLIC_URL's host and origin, else the request's own. */
  const rp = (request: FastifyRequest): RelyingParty => {
    if (ctx.config.publicUrl) {
      const url = new URL(ctx.config.publicUrl)
      return { id: url.hostname, origin: url.origin }
    }
    return { id: request.hostname, origin: `${request.protocol}://${request.host}` }
  }
  const refuseCrossSite = async (request: FastifyRequest) => {
    if (isCrossSite(request, ctx.config.corsOrigins)) {
      throw new AppError(403, 'cross_site', 'Signing in from another site is not allowed')
    }
  }

  await app.register(cookie)

  app.get(
    '/invitations/:token',
    {
      // The path is the credential: no sign-in, and never logged as it is.
      config: { auth: 'public', secretPath: true },
      schema: {
        operationId: 'getInvitation',
        tags,
        summary: 'Who an invitation is for (unknown, used or expired → 404)',
        params: InvitationParams,
        response: { 200: InvitationInfo, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store')
      return invitations.lookup(request.params.token)
    },
  )

  app.post(
    '/invitations/:token',
    {
      config: { auth: 'public', secretPath: true, passwordChangeExempt: true },
      schema: {
        operationId: 'acceptInvitation',
        tags,
        summary: 'Accept an invitation: choose the password and sign in (access token + refresh cookie)',
        params: InvitationParams,
        body: AcceptInvitationBody,
        response: { 200: TokenResponse, 403: ErrorBody, 404: ErrorBody },
      },
      preValidation: refuseCrossSite,
    },
    async (request, reply) =>
      sendSession(
        reply,
        await invitations.accept(request.params.token, request.body.password, client(request)),
        ctx.config.cookieSecure,
      ),
  )

  app.post(
    '/password-reset',
    {
      config: { auth: 'public', passwordChangeExempt: true },
      schema: {
        operationId: 'requestPasswordReset',
        tags,
        summary: 'Ask for a password-reset link by mail (202 with the same answer whatever the address)',
        body: PasswordResetBody,
        response: { 202: PasswordResetRequested, 429: ErrorBody },
      },
    },
    async (request, reply) => reply.status(202).send(await resets.request(request.body.email, request.ip)),
  )

  app.post(
    '/password-reset/confirm',
    {
      config: { auth: 'public', passwordChangeExempt: true },
      schema: {
        operationId: 'confirmPasswordReset',
        tags,
        summary: "Choose a new password with a reset link's token; ends every session",
        body: PasswordResetConfirmBody,
        response: { 200: PasswordResetAccepted, 400: ErrorBody },
      },
    },
    async (request) => {
      await resets.confirm(request.body.token, request.body.new_password)
      return { detail: 'Your password is changed. Sign in with it.' }
    },
  )

  app.get(
    '/passkeys',
    {
      schema: { operationId: 'listPasskeys', tags, summary: 'Your passkeys', response: { 200: Type.Array(Passkey) } },
    },
    async (request) => passkeys.list(requireActor(request)),
  )

  app.post(
    '/passkeys/options',
    {
      schema: {
        operationId: 'passkeyRegistrationOptions',
        tags,
        summary: 'WebAuthn creation options for a new passkey (the challenge is good for 5 minutes, once)',
        response: { 200: WebAuthnOptions },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store')
      return passkeys.registrationOptions(requireActor(request), rp(request))
    },
  )

  app.post(
    '/passkeys',
    {
      schema: {
        operationId: 'registerPasskey',
        tags,
        summary: 'Register a passkey from the browser’s credential',
        body: RegisterPasskeyBody,
        response: { 201: Passkey, 400: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await passkeys.register(requireActor(request), request.body.credential, request.body.name, rp(request))),
  )

  app.patch(
    '/passkeys/:id',
    {
      schema: {
        operationId: 'renamePasskey',
        tags,
        summary: 'Rename one of your passkeys',
        params: PasskeyParams,
        body: RenamePasskeyBody,
        response: { 200: Passkey, 404: ErrorBody },
      },
    },
    async (request) => passkeys.rename(requireActor(request), request.params.id, request.body.name),
  )

  app.delete(
    '/passkeys/:id',
    {
      schema: {
        operationId: 'removePasskey',
        tags,
        summary: 'Remove one of your passkeys',
        params: PasskeyParams,
        response: { 204: Type.Null(), 404: ErrorBody },
      },
    },
    async (request, reply) => noContent(reply, passkeys.remove(requireActor(request), request.params.id)),
  )

  app.post(
    '/passkey-login/options',
    {
      config: { auth: 'public', passwordChangeExempt: true },
      schema: {
        operationId: 'passkeyLoginOptions',
        tags,
        summary: 'WebAuthn request options for signing in with a passkey (discoverable credentials)',
        response: { 200: WebAuthnOptions, 403: ErrorBody, 429: ErrorBody },
      },
      // A sign-in starts here: another site may not start one in the user's browser (S5).
      preValidation: refuseCrossSite,
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store')
      return passkeys.loginOptions(rp(request), request.ip)
    },
  )

  app.post(
    '/passkey-login',
    {
      config: { auth: 'public', passwordChangeExempt: true },
      schema: {
        operationId: 'passkeyLogin',
        tags,
        summary: 'Sign in with a passkey: the same answer as a password sign-in',
        body: PasskeyLoginBody,
        response: { 200: TokenResponse, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
      preValidation: refuseCrossSite,
    },
    async (request, reply) =>
      sendSession(
        reply,
        await passkeys.login(
          request.body.credential,
          rp(request),
          client(request),
          request.body.shared_computer === true,
        ),
        ctx.config.cookieSecure,
      ),
  )
}
