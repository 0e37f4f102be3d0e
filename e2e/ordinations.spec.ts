import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser, type Page } from '@playwright/test'
import {
  adminApi,
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  Api,
  callingByKey,
  createUser,
  createWard,
  login,
  seat,
  signInPage,
  takeSeat,
  unique,
  type Account,
} from './api'

/**
 * Ordinations and stewardships (docs/api-reference.md §18): an
 * ordination goes from a bishop's submission (on his phone) to `record`
 * and done, through the presidency's votes, a presidency member's interview,
 * the high council's votes, sustaining and the ordination, with the right
 * people notified at each step and the right words in the sustaining
 * script. axe on the new pages at phone and desktop size.
 */

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }
const P = '/api/calling-kanban/proposals'

async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  const bad = results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect.soft(bad, `${what}: critical or serious axe violations`).toEqual([])
}

/** The user's notifications about one proposal, oldest first, as `kind: text`. */
async function inbox(api: Api, proposalId: number): Promise<string[]> {
  const list = (await api.req('GET', '/api/notifications?limit=200')) as {
    kind: string
    text: string
    proposal_id: number | null
  }[]
  return list
    .filter((n) => n.proposal_id === proposalId)
    .reverse()
    .map((n) => `${n.kind}: ${n.text}`)
}

async function signInAt(browser: Browser, account: { email: string; password: string }, viewport = DESKTOP) {
  const page = await signInPage(browser, account)
  await page.setViewportSize(viewport)
  return page
}

test('an ordination: bishop (phone) → votes → interview → high council → sustaining → ordained → recorded', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000)
  const admin = await adminApi(request)
  const api = (a: Account) => new Api(request, a.email, a.password)
  const giveBack: (() => Promise<void>)[] = []
  const hcCalling = await callingByKey(admin, 'high_councilor')
  const hcSlots: number[] = []
  try {
    // The people and seats this story needs.
    const bishop = await createUser(request, admin, 'Bishop', unique('Ordo'))
    const ward = await createWard(admin, unique('Cedar Hills '), bishop.id)
    const president = await createUser(request, admin, 'Pres', unique('Amos'))
    const first = await createUser(request, admin, 'First', unique('Boaz'))
    const second = await createUser(request, admin, 'Second', unique('Caleb'))
    giveBack.push(await takeSeat(admin, 'stake_president', president.id))
    giveBack.push(await takeSeat(admin, 'stake_first_counselor', first.id))
    giveBack.push(await takeSeat(admin, 'stake_second_counselor', second.id))
    const councilors: Account[] = []
    for (let i = 0; i < 3; i++) {
      const hc = await createUser(request, admin, 'Councilor', unique(`Dan${i}`))
      hcSlots.push(await seat(admin, 'high_councilor', hc.id))
      councilors.push(hc)
    }
    // The first councilor's seat oversees the ward (the stewardship is the seat's).
    const before = await admin.req('GET', '/api/stewardships')
    await admin.req('PUT', '/api/stewardships', {
      seats: [
        ...before.seats
          .filter((s: any) => s.slot_id !== hcSlots[0])
          .map((s: any) => ({
            slot_id: s.slot_id,
            ward_ids: s.wards.map((w: any) => w.id).filter((id: number) => id !== ward.id),
            organizations: s.organizations,
          })),
        { slot_id: hcSlots[0], ward_ids: [ward.id], organizations: ['Stake Young Men'] },
      ],
    })

    // 1. The bishop, on his phone: "New proposal" asks first what he proposes.
    const bp = await signInAt(browser, bishop, PHONE)
    await bp.goto('/proposals/new')
    const kind = bp.getByRole('group', { name: 'What are you proposing?' })
    await expect(kind.getByRole('radio', { name: 'Call someone to serve in a calling' })).toBeChecked()
    await kind.getByRole('radio', { name: 'Ordain a brother an elder or a high priest' }).check()
    await expect(bp.getByRole('radio', { name: 'Elder', exact: true })).toBeChecked()
    await expect(bp.getByLabel('Proposed calling')).toHaveCount(0)
    await expectAccessible(bp, 'new ordination (phone)')
    const fname = unique('Enos')
    const name = `${fname} Ward`
    await bp.getByLabel('First name').fill(fname)
    await bp.getByLabel('Last name').fill('Ward')
    await bp.getByRole('button', { name: 'Submit proposal' }).click()
    await expect(bp).toHaveURL(/\/proposals\/\d+$/)
    const id = Number(bp.url().split('/').pop())
    await expect(bp.getByTestId('kind-badge')).toHaveText('Elder')
    await expect(bp.getByTestId('steward')).toContainText(
      `${councilors[0]!.fname} ${councilors[0]!.lname}, high councilor over this ward`,
    )
    await expect(bp.locator('.stage-track li')).toHaveText([
      'Presidency approval',
      'Interview',
      'High council approval',
      'Sustain',
      'Ordain',
      'Record',
      'Done',
    ])
    await expectAccessible(bp, 'ordination page (phone)')
    await bp.context().close()

    const who = `${name} to be ordained an elder`
    for (const member of [president, first, second])
      expect(await inbox(api(member), id)).toEqual([
        `vote_needed: Your vote is needed: ${who} (stake presidency approval).`,
      ])
    // S9: the high council does not see it before its own vote.
    expect((await api(councilors[0]!).raw('GET', `${P}/${id}`)).status).toBe(404)

    // 2. The president approves on the board (desktop), the first counselor through the API.
    const pp = await signInAt(browser, president)
    const card = pp.getByRole('article', { name })
    await expect(card.getByTestId('kind-badge')).toHaveText('Elder')
    await card.getByRole('button', { name: `Approve ${name}` }).click()
    await expect(pp.getByText('Approval recorded.')).toBeVisible({ timeout: 15_000 })
    await pp.context().close()
    await api(first).req('POST', `${P}/${id}/approvals?approved=true`)
    expect((await admin.req('GET', `${P}/${id}`)).stage).toBe('interview')
    expect(await inbox(api(bishop), id)).toEqual([`stage_changed: ${who} moved to interview.`])
    expect((await api(councilors[0]!).raw('GET', `${P}/${id}`)).status).toBe(404)

    // 3. A manager assigns the interview to a member of the presidency.
    const mp = await signInAt(browser, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
    await mp.goto(`/proposals/${id}`)
    await expect(mp.getByText('A member of the stake presidency interviews for an ordination.')).toBeVisible()
    await mp.getByRole('combobox', { name: 'Interviewer' }).fill(second.lname)
    await mp.getByRole('option', { name: new RegExp(second.lname) }).click()
    await mp.getByRole('button', { name: 'Schedule interview' }).click()
    await expect(mp.getByText('Interview scheduled.')).toBeVisible()
    expect((await inbox(api(second), id)).at(-1)).toBe(
      `interview_assigned: You are asked to interview ${name} to be ordained an elder.`,
    )

    // 4. He holds it and marks it complete: on to the high council.
    const sp = await signInAt(browser, second)
    await sp.goto(`/proposals/${id}`)
    await sp.getByRole('button', { name: 'Mark interview complete' }).click()
    await expect(sp.locator('.stage-track [aria-current="step"]')).toHaveText('High council approval')
    await sp.context().close()
    for (const hc of councilors)
      expect(await inbox(api(hc), id)).toEqual([`vote_needed: Your vote is needed: ${who} (high council approval).`])

    // 5. Three high councilors approve: on to sustaining.
    for (const hc of councilors) await api(hc).req('POST', `${P}/${id}/approvals?approved=true`)
    expect((await admin.req('GET', `${P}/${id}`)).stage).toBe('sustain')

    // 6. The bishop reads it last in sacrament meeting, and marks it presented (phone).
    const script = async (lang: string) => {
      const token = await login(request, bishop.email, bishop.password)
      const res = await request.get(`/api/sustainings/${ward.id}/script?lang=${lang}`, {
        headers: { Authorization: `Bearer ${token}` },
      })
      expect(res.status()).toBe(200)
      return res.text()
    }
    expect(await script('en')).toContain(`${name}, to be ordained an elder`)
    expect(await script('es')).toContain(`${name}, para ser ordenado élder`)
    const bp2 = await signInAt(browser, bishop, PHONE)
    await bp2.goto(`/sustaining?ward=${ward.id}`)
    const ordinations = bp2.getByTestId('sustaining-ordinations')
    await expect(ordinations).toContainText(`${name} — to be ordained an elder`)
    await expectAccessible(bp2, 'sustainings with an ordination (phone)')
    await ordinations.getByRole('button', { name: 'Mark presented' }).click()
    await bp2.getByRole('dialog').getByRole('button', { name: 'Mark presented' }).click()
    await expect(bp2.getByText('Marked as presented.')).toBeVisible()
    await bp2.context().close()
    expect((await admin.req('GET', `${P}/${id}`)).stage).toBe('ordain')

    // 7. The manager finds it on the board by kind, records that he was ordained, then the record.
    await mp.goto('/')
    await mp.getByLabel('Kind').selectOption({ label: 'Ordinations' })
    const column = mp.locator('section[data-stage="set_apart"]')
    await expect(column.getByTestId(`card-${id}`)).toBeVisible()
    await expect(mp.locator('article[data-card]').filter({ hasNot: mp.getByText('Elder') })).toHaveCount(0)
    await expectAccessible(mp, 'board filtered to ordinations (desktop)')
    await mp.goto(`/proposals/${id}`)
    await expect(mp.locator('.stage-track [aria-current="step"]')).toHaveText('Ordain')
    // Ordained and recorded are dated steps: each asks for its date (today by default).
    await mp.getByRole('button', { name: 'Forward to Record →' }).click()
    await mp.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click()
    await expect(mp.locator('.stage-track [aria-current="step"]')).toHaveText('Record')
    await mp.getByRole('button', { name: 'Forward to Done →' }).click()
    await mp.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click()
    await expect(mp.getByText('Stage changed.').first()).toBeVisible()
    await expect.poll(async () => (await admin.req('GET', `${P}/${id}`)).stage).toBe('done')
    await expectAccessible(mp, 'ordination done (desktop)')

    // The bishop heard of every step he did not take himself.
    expect(await inbox(api(bishop), id)).toEqual([
      `stage_changed: ${who} moved to interview.`,
      `stage_changed: ${who} moved to high council approval.`,
      `stage_changed: ${who} moved to sustaining.`,
      `stage_changed: ${who} moved to recording.`,
      `stage_changed: ${who} moved to done.`,
    ])
    const history = (await admin.req('GET', `${P}/${id}/history`)) as { to_stage: string }[]
    expect(history.map((h) => h.to_stage)).toEqual([
      'sp_approval',
      'interview',
      'hc_approval',
      'sustain',
      'ordain',
      'record',
      'done',
    ])

    // 8. Stewardships on the wards page (desktop and phone) and on the councilor's profile.
    await mp.goto('/manage/wards')
    const section = mp.getByTestId('stewardships')
    await expect(section).toContainText(ward.name)
    await expect(section).toContainText('Stake Young Men')
    await expectAccessible(mp, 'wards with stewardships (desktop)')
    await mp.getByRole('button', { name: 'Change stewardships' }).click()
    await expect(section.getByLabel(ward.name, { exact: true })).toHaveValue(String(hcSlots[0]))
    await expectAccessible(mp, 'stewardship editor (desktop)')
    await mp.getByRole('button', { name: 'Save stewardships' }).click()
    await expect(mp.getByText('Stewardships saved.')).toBeVisible()
    await mp.context().close()
    const hp = await signInAt(browser, councilors[0]!, PHONE)
    await hp.goto('/profile')
    await expect(hp.getByTestId('my-stewardship')).toContainText(ward.name)
    await hp.goto('/manage/wards')
    await expect(hp.getByTestId('stewardships')).toContainText(ward.name)
    await expectAccessible(hp, 'wards with stewardships (phone)')
    await hp.context().close()
  } finally {
    for (const slot of hcSlots) await admin.raw('DELETE', `/api/callings/${hcCalling.id}/${slot}`)
    for (const back of giveBack.reverse()) await back()
  }
})
