import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { adminApi, createUser, createWard, unique, type Account, type Api } from './api'

/**
 * Spanish (docs/api-reference.md §13): switching in the profile turns the pages fully
 * Spanish at once — no English text of theirs left in what is shown, nor in
 * labels, titles and placeholders — and the choice is remembered after a
 * reload, after signing out and by the account; a browser set to Spanish
 * starts in Spanish on the sign-in page. At phone and desktop widths.
 */

const LOCALES = path.join(__dirname, '..', 'web', 'src', 'i18n', 'locales')
type Tree = { [key: string]: string | Tree }
const read = (lng: string, ns: string) =>
  JSON.parse(fs.readFileSync(path.join(LOCALES, lng, `${ns}.json`), 'utf8')) as Tree

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(full, value)
    else for (const [k, v] of flatten(value, full)) out.set(k, v)
  }
  return out
}

/**
 * The English pieces of a namespace that must not be seen in Spanish: each
 * text split at its {{placeholders}} and <tags>, pieces of 4 letters or more
 * that the Spanish text does not also hold ("English" in the language switch).
 */
function englishPieces(namespaces: string[]): string[] {
  const pieces = new Set<string>()
  for (const ns of namespaces) {
    const es = flatten(read('es', ns))
    for (const [key, text] of flatten(read('en', ns))) {
      if (key.startsWith('language.') && ns === 'common') continue
      for (const raw of text.split(/{{[^}]*}}|<\/?\w+>/)) {
        const piece = raw.replace(/^[\s.,:;()–—·←→"'?!-]+|[\s.,:;()–—·←→"'?!-]+$/g, '')
        if ((piece.match(/\p{L}/gu) ?? []).length < 4) continue
        if ((es.get(key) ?? '').includes(piece)) continue
        pieces.add(piece)
      }
    }
  }
  return [...pieces]
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec', 'AM', 'PM']

/** Everything the page shows or says to assistive technology, minus the data we put there ourselves. */
async function shownText(page: Page, data: string[]): Promise<string> {
  let text = await page.evaluate(() => {
    const attrs = ['aria-label', 'title', 'placeholder', 'data-label']
    const values = Array.from(document.querySelectorAll('*')).flatMap((el) =>
      attrs.map((a) => el.getAttribute(a)).filter((v): v is string => !!v),
    )
    return [document.title, document.body.innerText, ...values].join('\n')
  })
  for (const d of [...data].sort((a, b) => b.length - a.length)) text = text.split(d).join(' ')
  return text
}

async function expectNoEnglish(page: Page, namespaces: string[], data: string[]) {
  const text = await shownText(page, data)
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const left = [...englishPieces(namespaces), ...MONTHS].filter((piece) =>
    new RegExp(`(?<!\\p{L})${escape(piece)}(?!\\p{L})`, 'u').test(text),
  )
  expect(left, `English left on ${page.url()}`).toEqual([])
  // The longer Spanish texts still fit the screen (a phone's too).
  const wide = await page.evaluate(() => {
    const width = document.documentElement.clientWidth
    return Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !el.closest('.mainnav, .table-scroll'))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}"`)
  })
  expect(wide, `wider than the screen on ${page.url()}`).toEqual([])
}

interface Fixture {
  admin: Api
  user: Account
  callingId: number
  proposalId: number
  wardId: number
  data: string[]
}

async function setUp(request: Parameters<typeof adminApi>[0]): Promise<Fixture> {
  const admin = await adminApi(request)
  const user = await createUser(request, admin, unique('Lucía'), 'Ortega')
  const adminMe = await admin.req('GET', '/api/auth/me')
  const calling = await admin.req('POST', '/api/callings/', {
    name: unique('Secretario de estaca '),
    max_slots: 2,
    is_public: false,
    permissions: ['proposals.view', 'proposals.manage', 'callings.manage', 'wards.manage'],
  })
  await admin.req('PUT', `/api/callings/${calling.id}/1`, { user_id: user.id })
  const ward = await createWard(admin, unique('Barrio Los Pinos '), null, 570)
  const proposal = await admin.req('POST', '/api/calling-kanban/proposals', {
    fname: 'Mateo',
    lname: unique('Quispe'),
    spouse_name: null,
    is_release: false,
    proposed_calling: 'Secretario del barrio',
    ward_id: ward.id,
  })
  await admin.req('POST', `/api/calling-kanban/proposals/${proposal.id}/comments`, {
    proposal_id: proposal.id,
    comment_text: 'Buen candidato',
  })
  const data = [
    `${user.fname} ${user.lname}`,
    user.fname,
    user.lname,
    user.email,
    `${adminMe.fname} ${adminMe.lname}`,
    adminMe.fname,
    adminMe.lname,
    calling.name,
    ward.name,
    `${proposal.fname} ${proposal.lname}`,
    proposal.lname,
  ]
  return { admin, user, callingId: calling.id, proposalId: proposal.id, wardId: ward.id, data }
}

/**
 * What the wards page shows of data other specs left in the shared database
 * (ward and bishop names such as "Maple Grove Ward"): data, not our text.
 */
async function wardsData(f: Fixture): Promise<string[]> {
  const wards: { name: string }[] = await f.admin.req('GET', '/api/wards/')
  const users: { items?: { fname: string; lname: string }[] } | { fname: string; lname: string }[] = await f.admin.req(
    'GET',
    '/api/users/?limit=200',
  )
  const people = Array.isArray(users) ? users : (users.items ?? [])
  return [...f.data, ...wards.map((w) => w.name), ...people.flatMap((u) => [`${u.fname} ${u.lname}`, u.fname, u.lname])]
}

async function tearDown(f: Fixture) {
  await f.admin.raw('DELETE', `/api/calling-kanban/proposals/${f.proposalId}`)
  await f.admin.raw('DELETE', `/api/wards/${f.wardId}`)
  await f.admin.raw('DELETE', `/api/callings/${f.callingId}/1`)
  await f.admin.raw('DELETE', `/api/callings/${f.callingId}`)
}

async function signIn(
  page: Page,
  account: Account,
  labels = { email: 'Email', password: 'Password', submit: 'Sign in' },
) {
  await page.goto('/signin')
  await page.getByLabel(labels.email).fill(account.email)
  await page.getByLabel(labels.password, { exact: true }).fill(account.password)
  await page.getByRole('button', { name: labels.submit }).click()
  await expect(page).toHaveURL(/\/board/)
}

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
]

for (const size of SIZES) {
  test.describe(`Spanish, ${size.name}`, () => {
    test.use({ viewport: size.viewport, locale: 'en-US' })

    test('switching in the profile turns the pages Spanish at once, remembered on reload, sign-out and by the account', async ({
      page,
      request,
    }) => {
      const f = await setUp(request)
      try {
        await signIn(page, f.user)
        await page.goto('/profile')
        await expect(page.getByRole('heading', { name: 'Your profile' })).toBeVisible()
        await expect(page.locator('html')).toHaveAttribute('lang', 'en')

        await page.getByRole('radio', { name: 'Español' }).check()
        // At once, without a reload.
        await expect(page.getByRole('heading', { name: 'Su perfil' })).toBeVisible()
        await expect(page.locator('html')).toHaveAttribute('lang', 'es')
        await expect(page.getByText('Se guardó el idioma.')).toBeVisible()
        await expect(page).toHaveTitle(/Su perfil · Administración de estaca/)
        await expectNoEnglish(page, ['common', 'profile', 'auth'], f.data)
        // The account keeps it (the server writes notifications in it).
        expect((await f.admin.req('GET', `/api/users/${f.user.id}`)).language).toBe('es')

        await page.goto('/manage/callings')
        await expect(page.getByRole('heading', { name: 'Llamamientos' })).toBeVisible()
        await expectNoEnglish(page, ['common', 'callings'], f.data)

        await page.goto(`/manage/callings/${f.callingId}`)
        await expect(page.getByRole('heading', { name: 'Puestos' })).toBeVisible()
        await expectNoEnglish(page, ['common', 'callings'], f.data)
        await page.getByRole('button', { name: 'Editar' }).click()
        await expect(page.getByRole('dialog')).toBeVisible()
        await expectNoEnglish(page, ['common', 'callings'], f.data)
        await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click()

        await page.goto('/manage/wards')
        await expect(page.getByRole('heading', { name: 'Barrios' })).toBeVisible()
        await expectNoEnglish(page, ['common', 'wards'], await wardsData(f))

        await page.goto(`/proposals/${f.proposalId}`)
        await expect(page.getByRole('heading', { name: 'Comentarios' })).toBeVisible()
        await expect(page.getByText('Buen candidato')).toBeVisible()
        await expect(page.locator('#votes-h + p')).toHaveText(
          'En Aprobación de la presidencia de estaca: 0 a favor, 0 en contra.',
        )
        await expect(page.locator('.history .timeline')).toContainText(
          'Enviada en Aprobación de la presidencia de estaca',
        )
        await expectNoEnglish(page, ['common', 'proposal'], [...f.data, 'Buen candidato', 'Secretario del barrio'])
        await page.getByRole('button', { name: 'Descartar propuesta', exact: true }).click()
        await expect(page.getByRole('dialog', { name: 'Descartar esta propuesta' })).toBeVisible()
        await expectNoEnglish(page, ['common', 'proposal'], [...f.data, 'Buen candidato', 'Secretario del barrio'])
        await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click()

        await page.goto('/public')
        await expect(page.getByRole('heading', { name: 'Nuestra estaca' })).toBeVisible()
        await expectNoEnglish(page, ['common', 'public'], await wardsData(f))

        // Remembered after a reload.
        await page.goto('/manage/wards')
        await page.reload()
        await expect(page.getByRole('heading', { name: 'Barrios' })).toBeVisible()
        await expect(page.locator('html')).toHaveAttribute('lang', 'es')

        // And on this device after signing out: the sign-in page stays Spanish.
        await page.getByRole('button', { name: /Menú de la cuenta/ }).click()
        await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click()
        await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible()
        await expectNoEnglish(page, ['common'], f.data)

        // Back to English through the same switch.
        await signIn(page, f.user, { email: 'Correo electrónico', password: 'Contraseña', submit: 'Iniciar sesión' })
        await page.goto('/profile')
        await page.getByRole('radio', { name: 'English' }).check()
        await expect(page.getByRole('heading', { name: 'Your profile' })).toBeVisible()
        await expect(page.locator('html')).toHaveAttribute('lang', 'en')
        await expect.poll(async () => (await f.admin.req('GET', `/api/users/${f.user.id}`)).language).toBe('en')
      } finally {
        await tearDown(f)
      }
    })
  })

  test.describe(`A Spanish browser, ${size.name}`, () => {
    test.use({ viewport: size.viewport, locale: 'es-ES' })

    test('starts in Spanish on the sign-in page; signed in, the account’s language wins', async ({ page, request }) => {
      await page.goto('/signin')
      await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible()
      await expect(page.locator('html')).toHaveAttribute('lang', 'es')
      await expect(page).toHaveTitle('Iniciar sesión · Administración de estaca')
      await expectNoEnglish(page, ['common'], [])

      // Client-side messages are Spanish too.
      await page.getByRole('button', { name: 'Iniciar sesión' }).click()
      await expect(page.getByText('Escriba su correo electrónico.')).toBeVisible()
      await page.getByLabel('Correo electrónico').fill('nadie@example.com')
      await page.getByLabel('Contraseña').fill('no-es-la-contraseña')
      await page.getByRole('button', { name: 'Iniciar sesión' }).click()
      await expect(page.getByRole('alert')).toContainText('Correo electrónico o contraseña incorrectos.')

      // An account kept in English (docs/decisions.md, Languages): the app follows the account.
      const admin = await adminApi(request)
      const user = await createUser(request, admin, unique('Pedro'), 'Ramos')
      await signIn(page, user, { email: 'Correo electrónico', password: 'Contraseña', submit: 'Iniciar sesión' })
      await expect(page.locator('html')).toHaveAttribute('lang', 'en')
      await page.goto('/profile')
      await expect(page.getByRole('heading', { name: 'Your profile' })).toBeVisible()
    })
  })
}
