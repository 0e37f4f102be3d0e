/**
 * Printable pages (the sustaining script) shown from a `blob:` address in
 * their own tab. The address holds names and callings and would stay readable
 * for as long as this app runs (a reload of that tab, the history, a copied
 * link), so it is revoked as soon as the tab has shown it, and on sign-out any
 * address not yet revoked goes and the tabs still showing one are closed
 * (docs/SECURITY.md "Web client").
 */
const pending = new Set<string>()
const tabs = new Set<Window>()

/** Longest wait for a tab to show its page before the address is revoked anyway. */
const SHOW_DEADLINE_MS = 60_000
const POLL_MS = 100

/** Shows `html` in `tab` (opened at the click), or in this tab when none could be opened. */
export function showHtml(tab: Window | null, html: Blob): void {
  const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }))
  pending.add(url)
  if (!tab) {
    // This document unloads, and a blob: address dies with the document that made it.
    window.location.href = url
    return
  }
  tabs.add(tab)
  tab.location.href = url
  const started = Date.now()
  const check = () => {
    if (!pending.has(url)) return // revoked by a sign-out meanwhile
    if (shown(tab, url) || Date.now() - started > SHOW_DEADLINE_MS) revoke(url)
    else setTimeout(check, POLL_MS)
  }
  setTimeout(check, POLL_MS)
}

/** The tab has loaded the page (it keeps showing it after the revocation), or is gone. */
function shown(tab: Window, url: string): boolean {
  try {
    return tab.closed || (tab.location.href === url && tab.document.readyState === 'complete')
  } catch {
    return true // navigated somewhere else (another origin): our page is no longer there
  }
}

function revoke(url: string): void {
  URL.revokeObjectURL(url)
  pending.delete(url)
}

/** On sign-out: no printable page stays readable, by its address or in an open tab. */
export function forgetShownPages(): void {
  for (const url of pending) revoke(url)
  for (const tab of tabs) if (!tab.closed) tab.close()
  tabs.clear()
}
