import i18next, { type TFunction } from 'i18next'
import type { NotificationKind, Stage } from '@stake/contract'

/**
 * What the server writes to people (docs/api-reference.md §11, docs/api-reference.md §13): inbox texts and
 * mail, in the recipient's language (`users.language`), English by default.
 * Texts name the proposal, so they are only ever written for someone who may
 * see it (S9); subjects never do (the outbox list shows them to
 * administrators).
 */
const resources = {
  en: {
    translation: {
      stage: {
        sp_approval: 'stake presidency approval',
        hc_approval: 'high council approval',
        interview: 'interview',
        sustain: 'sustaining',
        set_apart: 'setting apart',
        ordain: 'ordination',
        record: 'recording',
        done: 'done',
        declined: 'declined',
      },
      text: {
        vote_needed: 'Your vote is needed: {{who}} ({{stage}}).',
        interview_assigned: 'You are asked to interview {{name}} about {{calling}}.',
        interview_assigned_ordination: 'You are asked to interview {{name}} to be ordained {{office}}.',
        stage_changed: '{{who}} moved to {{stage}}.',
        declined: '{{who}} was declined.',
        comment: '{{author}} commented on {{who}}.',
        reminder: 'Reminder: your vote is still needed on {{who}} ({{stage}}).',
      },
      who: {
        call: '{{name}} as {{calling}}',
        ordination: '{{name}} to be ordained {{office}}',
      },
      office: { elder: 'an elder', high_priest: 'a high priest' },
      subject: {
        vote_needed: 'A proposal awaits your vote',
        interview_assigned: 'An interview is assigned to you',
        stage_changed: 'A proposal moved on',
        declined: 'A proposal was declined',
        comment: 'A new comment on a proposal',
        reminder: 'Reminder: a proposal awaits your vote',
        digest: 'Your daily summary: {{count}} notification(s)',
      },
      push: { approve: 'Approve', reject: 'Reject' },
      mail: {
        greeting: 'Hello {{name}},',
        open: 'Open the proposal',
        digestIntro: 'Here is what happened since your last summary:',
        footer: 'You receive this because of your email preference in your profile.',
      },
    },
  },
  es: {
    translation: {
      stage: {
        sp_approval: 'aprobación de la presidencia de estaca',
        hc_approval: 'aprobación del sumo consejo',
        interview: 'entrevista',
        sustain: 'sostenimiento',
        set_apart: 'apartamiento',
        ordain: 'ordenación',
        record: 'registro',
        done: 'terminada',
        declined: 'rechazada',
      },
      text: {
        vote_needed: 'Se necesita su voto: {{who}} ({{stage}}).',
        interview_assigned: 'Se le pide entrevistar a {{name}} sobre {{calling}}.',
        interview_assigned_ordination: 'Se le pide entrevistar a {{name}} para ser ordenado {{office}}.',
        stage_changed: '{{who}} pasó a {{stage}}.',
        declined: '{{who}} fue rechazada.',
        comment: '{{author}} comentó sobre {{who}}.',
        reminder: 'Recordatorio: todavía se necesita su voto sobre {{who}} ({{stage}}).',
      },
      who: {
        call: '{{name}} como {{calling}}',
        ordination: '{{name}} para ser ordenado {{office}}',
      },
      office: { elder: 'élder', high_priest: 'sumo sacerdote' },
      subject: {
        vote_needed: 'Una propuesta espera su voto',
        interview_assigned: 'Se le asignó una entrevista',
        stage_changed: 'Una propuesta avanzó',
        declined: 'Una propuesta fue rechazada',
        comment: 'Un nuevo comentario en una propuesta',
        reminder: 'Recordatorio: una propuesta espera su voto',
        digest: 'Su resumen diario: {{count}} notificación(es)',
      },
      push: { approve: 'Aprobar', reject: 'Rechazar' },
      mail: {
        greeting: 'Hola {{name}}:',
        open: 'Abrir la propuesta',
        digestIntro: 'Esto es lo que pasó desde su último resumen:',
        footer: 'Recibe este mensaje por la preferencia de correo de su perfil.',
      },
    },
  },
} as const

type Language = keyof typeof resources

const instance = i18next.createInstance()
void instance.init({
  resources,
  lng: 'en',
  fallbackLng: 'en',
  initAsync: false,
  // Texts go into plain text and are escaped for HTML where they are put into it.
  interpolation: { escapeValue: false },
})

const languageOf = (value: string | null | undefined): Language => (value === 'es' ? 'es' : 'en')

export function translator(language: string | null | undefined): TFunction {
  return instance.getFixedT(languageOf(language))
}

export interface ProposalFactsForText {
  fname: string
  lname: string
  proposed_calling: string
  stage: Stage
  /** docs/api-reference.md §18: an ordination is named by its office, not a calling. */
  kind?: string | null
  office?: string | null
}

/** The inbox text of one notification, in the recipient's language. */
export function notificationText(
  language: string,
  kind: NotificationKind,
  proposal: ProposalFactsForText,
  author: string | null,
  stage: Stage = proposal.stage,
): string {
  const t = translator(language)
  const name = `${proposal.fname} ${proposal.lname}`
  const ordination = proposal.kind === 'ordination' && proposal.office
  const office = ordination ? t(`office.${proposal.office}`) : ''
  const who = ordination
    ? t('who.ordination', { name, office })
    : t('who.call', { name, calling: proposal.proposed_calling })
  return t(ordination && kind === 'interview_assigned' ? 'text.interview_assigned_ordination' : `text.${kind}`, {
    name,
    who,
    office,
    calling: proposal.proposed_calling,
    stage: t(`stage.${stage}`),
    author: author ?? '',
  })
}
