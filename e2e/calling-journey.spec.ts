import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  Api,
  adminApi,
  createUser,
  createWard,
  takeSeat,
  unique,
  type Account,
} from './api'
import { expectAccessible } from './axe'

/**
 * The calling journey as one flow, in English and Spanish, at phone and desktop
 * size: the ward's bishop proposes a call with a release picked from the
 * roster; each member of the presidency the stake requires signs in, sees the
 * release on the proposal page and approves from "Needs me" with one tap (the
 * countdown runs out, the vote is recorded); the interview is booked by the
 * member through the proposal's link (the proposal takes that time) and marked
 * held by the interviewer; sustained, set apart and recorded (both dated);
 * nobody's inbox still asks anything about it; axe on every page visited;
 * screenshots of the proposal page and the board. Seats taken are given back.
 */
const LOCALES = path.join(__dirname, '..', 'web', 'src', 'i18n', 'locales')
const SHOTS = path.join(__dirname, '..', 'docs', 'screenshots')
/** Every day 07:00–22:00: free times whatever day and hour the run happens. */
const EVERY_DAY = Array.from({ length: 7 }, (_, weekday) => ({ weekday, start_minute: 7 * 60, end_minute: 22 * 60 }))

type Lang = 'en' | 'es'

/** The app's own words in one language, read from its locale files: `t('proposal', 'step.confirm')`. */
function words(lang: Lang) {
  const cache = new Map<string, Record<string, unknown>>()
  return (ns: string, key: string, vars: Record<string, string> = {}): string => {
    if (!cache.has(ns)) cache.set(ns, JSON.parse(fs.readFileSync(path.join(LOCALES, lang, `${ns}.json`), 'utf8')))
    let value: unknown = cache.get(ns)
    for (const part of key.split('.')) value = (value as Record<string, unknown>)[part]
    if (typeof value !== 'string') throw new Error(`no ${lang} text for ${ns}:${key}`)
    return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '')
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The proposal page's "Forward to …" button, whatever the next stage. */
function forward(page: Page, lang: Lang) {
  const prefix = words(lang)('proposal', 'forwardTo', { stage: '\u0000' }).split('\u0000')[0]!
  return page.getByRole('button', { name: new RegExp(`^${escape(prefix)}`) })
}

type Viewport = { width: number; height: number }
type Person = Pick<Account, 'email' | 'password'>
const ADMIN: Person = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }

/** Signs in through the sign-in page in a fresh browser context; axe on the sign-in page and on the board it lands on. */
async function signIn(browser: Browser, lang: Lang, viewport: Viewport, who: Person = ADMIN): Promise<Page> {
  const t = words(lang)
  const context = await browser.newContext({ viewport, locale: lang === 'es' ? 'es-ES' : 'en-US' })
  const page = await context.newPage()
  await page.goto('/signin')
  await expect(page.getByLabel(t('common', 'signIn.email'))).toBeVisible()
  await expectAccessible(page, 'sign-in page')
  await page.getByLabel(t('common', 'signIn.email')).fill(who.email)
  await page.getByLabel(t('common', 'signIn.password'), { exact: true }).fill(who.password)
  await page.getByRole('button', { name: t('common', 'signIn.submit') }).click()
  await expect(page.getByRole('heading', { name: t('board', 'title') })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('lang', lang)
  await expect(page.locator('.loading')).toHaveCount(0)
  await expectAccessible(page, 'board on sign-in')
  return page
}

/**
 * A member of the presidency signs in, opens the proposal from "Needs me" and
 * sees the release while it still waits for votes, then approves from "Needs
 * me" with one tap and waits out the countdown until the vote is recorded.
 */
async function approveFromNeedsMe(
  browser: Browser,
  lang: Lang,
  viewport: Viewport,
  voter: Person,
  proposal: { id: number; name: string; release: string; last: boolean },
) {
  const t = words(lang)
  const page = await signIn(browser, lang, viewport, voter)
  const needs = page.getByTestId('needs-me-view')
  const entry = needs.locator(`li[data-kind="vote"][data-proposal="${proposal.id}"]`)
  // Seen a few seconds already, "Needs me" may have folded into its strip; other specs' proposals may
  // fill its first five entries: open both before looking for this one.
  const fold = needs.getByRole('button', {
    name: `${t('board', 'fold.show')} ${t('board', 'needsMe.title')}`,
    exact: true,
  })
  const showAll = needs.getByRole('button', {
    name: new RegExp(`^${escape(t('board', 'needsMe.showAll', { count: '\u0000' }).split('\u0000')[0]!)}`),
  })
  const reveal = async () => {
    await expect(needs.locator('.count')).toHaveText(/\d/)
    if (await fold.isVisible()) await fold.click()
    for (const more of await showAll.all()) if (await more.isVisible()) await more.click()
  }
  await reveal()
  await entry.getByRole('link', { name: proposal.name }).click()
  await expect(page).toHaveURL(new RegExp(`/proposals/${proposal.id}$`))
  await expect(page.getByTestId('releases')).toContainText(proposal.release)
  await expect(page.locator('.stage-track [aria-current="step"]')).toHaveText(t('common', 'stage.sp_approval'))
  await expectAccessible(page, 'proposal page before voting')

  await page.goBack()
  await reveal()
  await expect(entry).toBeVisible()
  await expectAccessible(page, 'board with "Needs me"')
  await entry.getByRole('button', { name: `${t('board', 'needsMe.quick.approve')} ${proposal.name}` }).click()
  // One tap, undoable while it counts down; then sent.
  const approving = t('board', 'needsMe.quick.approving', { seconds: '\u0000' }).split('\u0000')
  await expect(entry.getByTestId('quick-waiting')).toHaveText(
    new RegExp(`^${escape(approving[0]!)}[1-5]${escape(approving[1]!)}$`),
  )
  const said = proposal.last
    ? t('board', 'needsMe.quick.approvedMoved', { name: proposal.name, stage: t('board', 'stages.hc_approval') })
    : t('board', 'needsMe.quick.approvedSent', { name: proposal.name })
  await expect(needs.getByTestId('quick-vote-status')).toHaveText(said, { timeout: 15_000 })
  // Voted: it no longer needs them.
  await expect(entry).toHaveCount(0)
  await page.context().close()
}

/** The member opens the link on their own device, in their language, and books the first free time. */
async function bookThroughLink(browser: Browser, lang: Lang, viewport: Viewport, url: string) {
  const t = words(lang)
  const context = await browser.newContext({ viewport, locale: lang === 'es' ? 'es-ES' : 'en-US' })
  const page = await context.newPage()
  await page.goto(url)
  await expect(page.getByRole('heading', { name: t('booking', 'title') })).toBeVisible()
  await expect(page.locator('body')).toContainText(t('booking', 'kind.proposal'))
  await expectAccessible(page, 'booking page')
  await page.locator('.booking-slot').first().click()
  const book = t('booking', 'confirmBook', { when: '' }).trim()
  await page.getByRole('button', { name: new RegExp(`^${escape(book)} `) }).click()
  await expect(page.getByRole('heading', { name: t('booking', 'titleBooked'), level: 1 })).toBeVisible()
  await expectAccessible(page, 'booked page')
  await context.close()
}

const PRESIDENCY = ['stake_president', 'stake_first_counselor', 'stake_second_counselor'] as const

/** Sets the language a user reads the app in (the administrator does it for them). */
async function speak(admin: Api, user: { id: number; email: string; fname: string; lname: string }, lang: Lang) {
  await admin.req('PUT', `/api/users/${user.id}`, {
    email: user.email,
    fname: user.fname,
    lname: user.lname,
    language: lang,
  })
}

async function setUp(
  request: Parameters<typeof adminApi>[0],
  admin: Api,
  lang: Lang,
  giveBack: (() => Promise<void>)[],
) {
  const bishop = await createUser(request, admin, unique('Bishop'), unique('Alder'))
  const ward = await createWard(admin, unique('Brookside '), bishop.id)
  const member = await createUser(request, admin, unique('Ines'), unique('Vale'))
  const released = await createUser(request, admin, unique('Tomas'), unique('Ruiz'))
  const ivan = await createUser(request, admin, unique('Ivan'), 'Interviewer')
  await admin.req('PUT', `/api/users/${ivan.id}/permissions`, { permissions: ['proposals.view'] })
  await admin.req('PUT', `/api/appointments/availability?user_id=${ivan.id}`, { weekly: EVERY_DAY, exceptions: [] })
  const calling = await admin.req('POST', '/api/callings/', { name: unique('Librarian '), max_slots: 2 })
  await admin.req('PUT', `/api/callings/${calling.id}/1`, { user_id: released.id })
  // As many of the presidency as the stake requires to approve, each in a seat of their own.
  const { sp_approvals_required: required } = await admin.req('GET', '/api/stake')
  const presidency: Account[] = []
  for (const key of PRESIDENCY.slice(0, required)) {
    const counselor = await createUser(request, admin, unique('Pres'), unique('Oak'))
    giveBack.push(await takeSeat(admin, key, counselor.id))
    presidency.push(counselor)
  }
  for (const user of [bishop, ivan, ...presidency]) await speak(admin, user, lang)
  return { bishop, ward, member, released, ivan, calling, presidency }
}

/** Unread inbox entries about the proposal that ask something of their reader (a vote, an interview, a reminder). */
async function asking(request: Parameters<typeof adminApi>[0], who: Person, proposalId: number) {
  const open = await new Api(request, who.email, who.password).req('GET', '/api/notifications?unread=true&limit=200')
  return open
    .filter((n: { proposal_id: number | null; kind: string }) => n.proposal_id === proposalId)
    .filter((n: { kind: string }) => ['vote_needed', 'interview_assigned', 'reminder'].includes(n.kind))
    .map((n: { kind: string; text: string }) => `${who.email} ${n.kind}: ${n.text}`)
}

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
]

for (const lang of ['en', 'es'] as const) {
  for (const size of SIZES) {
    test(`${lang}, ${size.name}: a call with a release picked from the roster, approved from "Needs me", booked through the link, held, dated steps`, async ({
      browser,
      request,
    }) => {
      test.setTimeout(480_000)
      const t = words(lang)
      const viewport = { width: size.width, height: size.height }
      const admin = await adminApi(request)
      const me = await admin.req('GET', '/api/auth/me')
      const giveBack: (() => Promise<void>)[] = []
      await speak(admin, me, lang)
      try {
        const { bishop, ward, member, released, ivan, calling, presidency } = await setUp(
          request,
          admin,
          lang,
          giveBack,
        )

        // The bishop proposes on his own device; his ward is his, and everything else is picked from the roster.
        const bishopPage = await signIn(browser, lang, viewport, bishop)
        await bishopPage.goto('/proposals/new')
        await expect(bishopPage.getByLabel(t('sustainings', 'form.ward'), { exact: true })).toHaveValue(ward.name)
        await bishopPage.getByRole('combobox', { name: t('sustainings', 'form.linkUser') }).fill(member.lname)
        await bishopPage.getByRole('option', { name: new RegExp(member.lname) }).click()
        await expect(bishopPage.getByLabel(t('sustainings', 'form.fname'), { exact: true })).toHaveValue(member.fname)
        await expect(bishopPage.getByLabel(t('sustainings', 'form.lname'), { exact: true })).toHaveValue(member.lname)
        await bishopPage.locator('#proposal-calling-id').selectOption({ label: calling.name })
        await expect(bishopPage.getByLabel(t('sustainings', 'form.proposedCalling'))).toHaveValue(calling.name)
        await bishopPage.getByRole('button', { name: t('sustainings', 'form.addRelease') }).click()
        await bishopPage
          .locator('#release-0-seat')
          .selectOption({ label: `${released.fname} ${released.lname} — ${calling.name}` })
        // Nothing was typed: the release's names and calling came with the seat.
        await expect(bishopPage.locator('#release-0-seat')).not.toHaveValue('')
        await expectAccessible(bishopPage, 'new proposal')
        await bishopPage.getByRole('button', { name: t('sustainings', 'newProposal.submit') }).click()
        await expect(bishopPage).toHaveURL(/\/proposals\/\d+$/)
        const id = Number(bishopPage.url().split('/').pop())
        const created = await admin.req('GET', `/api/calling-kanban/proposals/${id}`)
        expect(created).toMatchObject({
          fname: member.fname,
          lname: member.lname,
          user_id: member.id,
          calling_id: calling.id,
          proposed_calling: calling.name,
          ward_id: ward.id,
        })
        expect(created.releases).toMatchObject([
          {
            fname: released.fname,
            lname: released.lname,
            calling: calling.name,
            calling_id: calling.id,
            user_id: released.id,
          },
        ])

        // The whole change on the proposal page: the release, with its calling and since when.
        const releases = bishopPage.getByTestId('releases')
        const name = `${released.fname} ${released.lname}`
        const release = t('proposal', 'releases.item', { name, calling: calling.name })
        await expect(releases).toContainText(release)
        await expect(releases).toContainText(t('proposal', 'releases.since', { date: '' }).trim())
        await expectAccessible(bishopPage, 'proposal page')
        await bishopPage.context().close()

        // Seen before on this device: the first-run list and "Needs me" fold into strips.
        const page = await signIn(browser, lang, viewport)
        await page.evaluate((uid: number) => {
          localStorage.setItem(`stake.board.setupSeen.${uid}`, '1')
          localStorage.setItem(`stake.board.needsMeSeen.${uid}`, '1')
        }, me.id)
        await page.goto('/board')
        await expect(page.locator('.board')).toBeVisible()
        await expectAccessible(page, 'board')
        await page.screenshot({ path: path.join(SHOTS, `journey-board-${lang}-${size.name}.png`) })

        // The presidency: each sees the release before voting and approves from "Needs me"; the last vote moves it on.
        const called = `${member.fname} ${member.lname}`
        for (const [i, voter] of presidency.entries())
          await approveFromNeedsMe(browser, lang, viewport, voter, {
            id,
            name: called,
            release,
            last: i === presidency.length - 1,
          })
        const approved = await admin.req('GET', `/api/calling-kanban/proposals/${id}`)
        expect(approved.stage).toBe('hc_approval')

        // The high council's votes are other specs' business; the interviewer is chosen, the member books the time.
        await admin.req('POST', `/api/calling-kanban/proposals/${id}/advance?from_stage=hc_approval`)
        await admin.req('POST', `/api/calling-kanban/proposals/${id}/interview?interviewer_id=${ivan.id}`)
        await page.goto(`/proposals/${id}`)
        const interview = page.getByRole('region', { name: t('proposal', 'interview.title'), exact: true })
        await interview.getByRole('radio', { name: t('proposal', 'interview.wayLink') }).check()
        await interview.getByRole('button', { name: t('interviews', 'makeLink') }).click()
        const link = interview.getByRole('textbox', { name: t('interviews', 'link'), exact: true })
        await expect(link).toHaveValue(/\/booking#[A-Za-z0-9_-]{43}$/)
        await expectAccessible(page, 'proposal page with its booking link')
        await bookThroughLink(browser, lang, viewport, await link.inputValue())

        // The proposal's interview is the booked time.
        const booked = (await admin.req('GET', `/api/calling-kanban/proposals/${id}`)).interview
        expect(booked.interviewer_id).toBe(ivan.id)
        expect(booked.scheduled_for).toBeTruthy()
        await page.reload()
        const scheduledFor = t('proposal', 'interview.scheduledFor')
        await expect(interview.locator(`dt:text-is("${scheduledFor}") + dd`)).toHaveText(/\d/)
        // The time to change it from is the booked one, in the browser's wall time.
        const local = await page.evaluate((iso: string) => {
          const d = new Date(iso)
          return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16)
        }, booked.scheduled_for)
        await expect(interview.getByLabel(scheduledFor, { exact: true })).toHaveValue(local)
        await page.screenshot({ path: path.join(SHOTS, `journey-proposal-${lang}-${size.name}.png`), fullPage: true })

        // Leaving the interview asks whether it was held; the manager leaves that to the interviewer.
        await forward(page, lang).click()
        const held = page.getByRole('dialog', { name: t('proposal', 'step.heldTitle') })
        await expect(held).toBeVisible()
        await expectAccessible(page, 'held dialog')
        await page.keyboard.press('Escape')
        await expect(held).toHaveCount(0)
        await expect(page.locator('.stage-track [aria-current="step"]')).toHaveText(t('common', 'stage.interview'))

        // The interviewer, on his own device, marks it held.
        const ivanPage = await signIn(browser, lang, viewport, ivan)
        await ivanPage.goto(`/proposals/${id}`)
        const his = ivanPage.getByRole('region', { name: t('proposal', 'interview.title'), exact: true })
        await expect(his.locator(`dt:text-is("${scheduledFor}") + dd`)).toHaveText(/\d/)
        await expectAccessible(ivanPage, "interviewer's proposal page")
        await his.getByRole('button', { name: t('proposal', 'interview.complete') }).click()
        await expect(ivanPage.locator('.stage-track [aria-current="step"]')).toHaveText(t('common', 'stage.sustain'))
        const heldOn = t('proposal', 'interview.heldOn')
        await expect(his.locator(`dt:text-is("${heldOn}") + dd`)).not.toHaveText(t('proposal', 'interview.notYet'))
        await ivanPage.context().close()
        expect((await admin.req('GET', `/api/calling-kanban/proposals/${id}`)).interview.interview_date).toBeTruthy()

        // Sustained (per ward: other specs); set apart and recorded, each on a date.
        await admin.req('POST', `/api/calling-kanban/proposals/${id}/sustain`)
        await page.reload()
        await expect(page.locator('.stage-track [aria-current="step"]')).toHaveText(t('common', 'stage.set_apart'))
        await forward(page, lang).click()
        const step = page.getByRole('dialog', { name: t('proposal', 'step.titleSetApart') })
        await expect(step.getByLabel(t('proposal', 'step.date'))).not.toHaveValue('')
        await step.getByRole('button', { name: t('proposal', 'step.confirm') }).click()
        await expect(page.locator('.history .timeline')).toContainText(t('proposal', 'history.onDate', { date: '' }))
        const history = await admin.req('GET', `/api/calling-kanban/proposals/${id}/history`)
        expect(history.at(-1)).toMatchObject({
          to_stage: 'record',
          on_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        })

        // Decline and Delete sit apart, after everything else.
        const danger = page.getByRole('region', { name: t('proposal', 'dangerZone') })
        await expect(danger.getByRole('button', { name: t('proposal', 'decline') })).toBeVisible()
        // "Needs me" may just have appeared: the navigation has refitted its links before axe looks.
        await expect
          .poll(() => page.locator('nav.mainnav').evaluate((nav) => nav.scrollWidth <= nav.clientWidth))
          .toBe(true)
        await expectAccessible(page, 'proposal page at set apart')

        await forward(page, lang).click()
        const record = page.getByRole('dialog', { name: t('proposal', 'step.titleRecord') })
        await expect(record.getByLabel(t('proposal', 'step.date'))).not.toHaveValue('')
        await expectAccessible(page, 'record dialog')
        await record.getByRole('button', { name: t('proposal', 'step.confirm') }).click()
        await expect(page.locator('.stage-track [aria-current="step"]')).toHaveText(t('common', 'stage.done'))
        await expectAccessible(page, 'proposal page when done')
        const recorded = await admin.req('GET', `/api/calling-kanban/proposals/${id}/history`)
        expect(recorded.at(-1)).toMatchObject({
          to_stage: 'done',
          on_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        })

        // Nothing about it still asks anything of anyone.
        const open = await admin.req('GET', '/api/notifications?unread=true&limit=200')
        expect(open.filter((n: { proposal_id: number | null }) => n.proposal_id === id)).toEqual([])
        for (const who of [bishop, ivan, ...presidency]) expect(await asking(request, who, id)).toEqual([])
      } finally {
        for (const back of giveBack.reverse()) await back()
        await speak(admin, me, 'en')
      }
    })
  }
}
