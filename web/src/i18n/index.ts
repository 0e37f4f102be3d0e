import i18next, { type BackendModule, type ReadCallback } from 'i18next'
import { initReactI18next } from 'react-i18next'
import enCommon from './locales/en/common.json'
import esCommon from './locales/es/common.json'

/**
 * The client's languages (docs/api-reference.md §13). `common` (navigation, shared words,
 * sign-in) is in the first download; every other namespace is a file
 * `locales/<lng>/<ns>.json`, fetched the first time a page asks for it
 * (`useTranslation('<ns>')` suspends until then), and only in the language in use.
 */
export const LANGUAGES = ['en', 'es'] as const
export type Language = (typeof LANGUAGES)[number]

const STORAGE_KEY = 'stake.language'

const lazyNamespaces = import.meta.glob<{ default: Record<string, unknown> }>([
  './locales/*/*.json',
  '!./locales/*/common.json',
])

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = lazyNamespaces[`./locales/${language}/${namespace}.json`]
    if (!load) {
      callback(null, {})
      return
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    )
  },
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

/** The remembered choice, else the browser's first language we speak, else English. */
function initialLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY)
    if (isLanguage(stored)) return stored
  } catch {
    // storage blocked: fall through to the browser's languages
  }
  const preferred = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language])
  for (const tag of preferred) {
    const base = tag?.toLowerCase().split('-')[0]
    if (isLanguage(base)) return base
  }
  return 'en'
}

/** Switches the client's language and remembers it on this device. */
export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, language)
  } catch {
    // not remembered on this device; the account's setting still is
  }
  document.documentElement.lang = language
  await i18next.changeLanguage(language)
}

const language = initialLanguage()
if (typeof document !== 'undefined') {
  document.documentElement.lang = language
  // <html lang> follows every change, whoever makes it.
  i18next.on('languageChanged', (lng) => {
    if (isLanguage(lng)) document.documentElement.lang = lng
    loadErrorTexts(lng)
  })
}

void i18next
  .use(lazyBackend)
  .use(initReactI18next)
  .init({
    lng: language,
    // No fallback language: i18next would fetch every namespace in English as
    // well. locales.test.ts and keys.test.ts keep both languages complete.
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: ['common'],
    defaultNS: 'common',
    partialBundledLanguages: true,
    resources: { en: { common: enCommon }, es: { common: esCommon } },
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  })

/**
 * The server's errors come in English; in another language the client shows
 * its own text per error code (api/client.ts). Those texts are not needed to
 * sign in, so they are fetched in the background rather than bundled.
 */
function loadErrorTexts(lng: string): void {
  if (lng !== 'en') void i18next.loadNamespaces('errors')
}

export { i18next }
