/**
 * The document title: the page's name (set by PageHeader) with the number
 * of things awaiting the user in front, "(3) Board · Stake Administration",
 * as mail and chat tabs do. Two writers, one title, so both go through here.
 */
import i18next from 'i18next'
import { useEffect } from 'react'

let page: string | null = null
let count = 0

function render() {
  if (page === null) return
  document.title = `${count > 0 ? `(${count}) ` : ''}${page} · ${i18next.t('appName')}`
}

export function setPageTitle(text: string) {
  page = text
  render()
}

export function setTitleCount(n: number) {
  count = n
  render()
}

// The page's own name comes translated from PageHeader; the app's name follows the language here.
i18next.on('languageChanged', render)

/**
 * The title of a page outside the signed-in layout (no PageHeader, no count):
 * its name and the app's, again when the language changes the name.
 */
export function useDocumentTitle(name: string) {
  useEffect(() => {
    document.title = `${name} · ${i18next.t('appName')}`
  }, [name])
}
