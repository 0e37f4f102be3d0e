import crypto from 'node:crypto'
import { createInstance, type TFunction } from 'i18next'
import type { ScriptLanguage, Sustainings } from '@stake/contract'

/**
 * The sustaining script (docs/api-reference.md §12): a printable page read from the
 * pulpit, releases first, then calls, then ordinations (docs/api-reference.md §18), in
 * the project's own wording. Every
 * name and calling comes from users' input and is HTML-escaped; the page has
 * no script and only its own inline style.
 */

const resources = {
  en: {
    script: {
      title: 'Sustainings — {{ward}}',
      sunday: 'Sacrament meeting, {{date}}',
      releasesHeading: 'Releases',
      releasesIntro:
        'The following have been released from their callings. We propose that they be thanked for their service.',
      releaseLine: '{{name}}, as {{calling}}',
      releasesVote: 'All who wish to join us in thanking them for their service may show it by the uplifted hand.',
      callsHeading: 'Callings',
      callsIntro: 'The following have been called, and we propose that they be sustained.',
      callLine: '{{name}}, as {{calling}}',
      stakeCalling: '(stake calling)',
      callsVote:
        'All who are in favor may show it by the uplifted hand. Any who are opposed may show it in the same way.',
      ordinationsHeading: 'Ordinations to the Melchizedek Priesthood',
      ordinationsIntro:
        'The following brethren have been found worthy, and we propose that they receive the Melchizedek Priesthood and be ordained to the office named.',
      ordinationLine_elder: '{{name}}, to be ordained an elder',
      ordinationLine_high_priest: '{{name}}, to be ordained a high priest',
      ordinationsVote:
        'All who are in favor may show it by the uplifted hand. Any who are opposed may show it in the same way.',
      nothing: 'There is nothing to present for sustaining this Sunday.',
    },
  },
  es: {
    script: {
      title: 'Sostenimientos — {{ward}}',
      sunday: 'Reunión sacramental, {{date}}',
      releasesHeading: 'Relevos',
      releasesIntro:
        'Las siguientes personas han sido relevadas de sus llamamientos. Proponemos que se les agradezca su servicio.',
      releaseLine: '{{name}}, como {{calling}}',
      releasesVote:
        'Todos los que deseen unirse a nosotros para agradecerles su servicio, sírvanse manifestarlo levantando la mano.',
      callsHeading: 'Llamamientos',
      callsIntro: 'Las siguientes personas han sido llamadas, y proponemos que se les sostenga.',
      callLine: '{{name}}, como {{calling}}',
      stakeCalling: '(llamamiento de estaca)',
      callsVote:
        'Todos los que estén a favor, sírvanse manifestarlo levantando la mano. Los que se opongan, si los hay, pueden manifestarlo de la misma manera.',
      ordinationsHeading: 'Ordenaciones al Sacerdocio de Melquisedec',
      ordinationsIntro:
        'Los siguientes hermanos han sido hallados dignos, y proponemos que reciban el Sacerdocio de Melquisedec y sean ordenados al oficio indicado.',
      ordinationLine_elder: '{{name}}, para ser ordenado élder',
      ordinationLine_high_priest: '{{name}}, para ser ordenado sumo sacerdote',
      ordinationsVote:
        'Todos los que estén a favor, sírvanse manifestarlo levantando la mano. Los que se opongan, si los hay, pueden manifestarlo de la misma manera.',
      nothing: 'No hay nada que presentar para sostenimiento este domingo.',
    },
  },
}

const i18n = createInstance()
// Values are escaped by escapeHtml on the whole translated line, never twice.
void i18n.init({
  resources,
  fallbackLng: 'en',
  ns: ['script'],
  defaultNS: 'script',
  initAsync: false,
  interpolation: { escapeValue: false },
})

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)

/** A4 and Letter alike: no fixed page size, margins that fit both, nothing split across pages. */
const STYLE = `
  @page { margin: 20mm 18mm; }
  html { font-family: Georgia, 'Times New Roman', serif; font-size: 13pt; line-height: 1.45; color: #000; background: #fff; }
  body { margin: 0 auto; max-width: 42em; padding: 1.5em; }
  h1 { font-size: 1.5em; margin: 0 0 0.2em; }
  h2 { font-size: 1.15em; margin: 1.4em 0 0.4em; border-bottom: 1px solid #000; break-after: avoid; page-break-after: avoid; }
  p.date { margin: 0 0 1em; font-style: italic; }
  ul { margin: 0.4em 0 0.6em 1.2em; padding: 0; }
  li { margin: 0.2em 0; }
  section { break-inside: avoid; page-break-inside: avoid; }
  .vote { margin-top: 0.6em; }
  @media print { body { padding: 0; max-width: none; } }
`

/** The page's Content-Security-Policy: nothing but its own inline style (by hash). */
export const SCRIPT_CSP = `default-src 'none'; style-src 'sha256-${crypto.createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'self'`

interface ScriptLine {
  name: string
  calling: string
  stake: boolean
  /** An ordination's office. */
  office?: string
}

type Kind = 'release' | 'call' | 'ordination'

/** Releases (the items' releases and release proposals), calls and ordinations, in the order they are read. */
function scriptLines(items: Sustainings['items']): {
  releases: ScriptLine[]
  calls: ScriptLine[]
  ordinations: ScriptLine[]
} {
  const releases: ScriptLine[] = []
  const calls: ScriptLine[] = []
  const ordinations: ScriptLine[] = []
  for (const { proposal, releases: released } of items) {
    for (const r of released) releases.push({ name: `${r.fname} ${r.lname}`, calling: r.calling, stake: false })
    const line = {
      name: `${proposal.fname} ${proposal.lname}`,
      calling: proposal.proposed_calling,
      stake: proposal.scope === 'stake',
    }
    if (proposal.kind === 'ordination') ordinations.push({ ...line, office: proposal.office ?? 'elder' })
    else if (proposal.is_release) releases.push(line)
    else calls.push(line)
  }
  return { releases, calls, ordinations }
}

/** The Sunday on or after `today` (YYYY-MM-DD), as a long date in the language. */
function sundayLabel(today: string, lang: ScriptLanguage): string {
  const day = new Date(`${today}T12:00:00.000Z`)
  day.setUTCDate(day.getUTCDate() + ((7 - day.getUTCDay()) % 7))
  return new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeZone: 'UTC' }).format(day)
}

function section(t: TFunction, lines: ScriptLine[], kind: Kind): string {
  if (lines.length === 0) return ''
  const heading = `${kind}sHeading`
  const intro = `${kind}sIntro`
  const vote = `${kind}sVote`
  const items = lines
    .map((l) => {
      const key = kind === 'ordination' ? `ordinationLine_${l.office}` : `${kind}Line`
      const text = t(key, { name: l.name, calling: l.calling })
      return `<li>${escapeHtml(text)}${l.stake && kind === 'call' ? ` ${escapeHtml(t('stakeCalling'))}` : ''}</li>`
    })
    .join('\n')
  return `<section class="${kind}s">
<h2>${escapeHtml(t(heading))}</h2>
<p>${escapeHtml(t(intro))}</p>
<ul>
${items}
</ul>
<p class="vote">${escapeHtml(t(vote))}</p>
</section>`
}

export function renderScript(data: Sustainings, lang: ScriptLanguage, today: string): string {
  const t = i18n.getFixedT(lang)
  const { releases, calls, ordinations } = scriptLines(data.items)
  const body =
    releases.length + calls.length + ordinations.length === 0
      ? `<p>${escapeHtml(t('nothing'))}</p>`
      : [section(t, releases, 'release'), section(t, calls, 'call'), section(t, ordinations, 'ordination')]
          .filter(Boolean)
          .join('\n')
  const title = escapeHtml(t('title', { ward: data.ward.name }))
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${title}</h1>
<p class="date">${escapeHtml(t('sunday', { date: sundayLabel(today, lang) }))}</p>
${body}
</body>
</html>
`
}
