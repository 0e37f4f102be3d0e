import { outboxRow } from '../notifications/outbox.repository.ts'

/**
 * The account mails (docs/api-reference.md §16) in the recipient's language:
 * an invitation and a password-reset link. The link is the only secret in
 * them; the subject (shown in the outbox list) holds none.
 */
const TEXTS = {
  en: {
    invitation: {
      subject: 'You are invited to the stake’s administration service',
      intro:
        'Hello {name},\n\nAn account was made for you on {stake}. Open this link to choose your password and sign in:',
      after: 'The link works once and for 7 days. If you did not expect this message, you can ignore it.',
      button: 'Choose my password',
    },
    password_reset: {
      subject: 'Choose a new password',
      intro:
        'Hello {name},\n\nSomeone (we hope you) asked to choose a new password for your account on {stake}. Open this link to choose it:',
      after:
        'The link works once and for 30 minutes. If you did not ask for this, ignore this message: your password stays as it is.',
      button: 'Choose a new password',
    },
  },
  es: {
    invitation: {
      subject: 'Está invitado al servicio de administración de la estaca',
      intro:
        'Hola {name}:\n\nSe creó una cuenta para usted en {stake}. Abra este enlace para elegir su contraseña e iniciar sesión:',
      after: 'El enlace funciona una sola vez y durante 7 días. Si no esperaba este mensaje, puede ignorarlo.',
      button: 'Elegir mi contraseña',
    },
    password_reset: {
      subject: 'Elija una contraseña nueva',
      intro:
        'Hola {name}:\n\nAlguien (esperamos que usted) pidió elegir una contraseña nueva para su cuenta en {stake}. Abra este enlace para elegirla:',
      after:
        'El enlace funciona una sola vez y durante 30 minutos. Si no lo pidió, ignore este mensaje: su contraseña sigue igual.',
      button: 'Elegir una contraseña nueva',
    },
  },
} as const

export type AccountMailKind = 'invitation' | 'password_reset'

/**
 * Mails whose body is a credential (the link): the mail worker empties them
 * once sent or given up, so no copy of a live link stays in the outbox
 * (docs/SECURITY.md "Exports").
 */
export const ACCOUNT_MAIL_KINDS: readonly string[] = ['invitation', 'password_reset'] satisfies AccountMailKind[]

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export function composeAccountMail(
  kind: AccountMailKind,
  language: string,
  to: { id: number; email: string; fname: string },
  stakeName: string,
  link: string,
  now: string,
) {
  const t = TEXTS[language === 'es' ? 'es' : 'en'][kind]
  const intro = t.intro.replace('{name}', to.fname).replace('{stake}', stakeName)
  const text = `${intro}\n\n${link}\n\n${t.after}\n`
  const html = [
    '<!doctype html><html><body>',
    ...intro.split('\n\n').map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(t.button)}</a></p>`,
    `<p>${escapeHtml(link)}</p>`,
    `<p><small>${escapeHtml(t.after)}</small></p>`,
    '</body></html>',
  ].join('\n')
  return outboxRow({ user_id: to.id, to_address: to.email, kind }, { subject: t.subject, text, html }, now)
}
