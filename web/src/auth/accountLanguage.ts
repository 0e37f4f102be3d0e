import type { Me } from '../api/types'
import { i18next, isLanguage, setLanguage } from '../i18n'

/**
 * Signed in, the account's language wins over the device's (docs/decisions.md,
 * "Languages"): the page switches to it and this device remembers it.
 */
export function adoptAccountLanguage(profile: Me): void {
  if (isLanguage(profile.language) && profile.language !== i18next.resolvedLanguage) {
    void setLanguage(profile.language)
  }
}
