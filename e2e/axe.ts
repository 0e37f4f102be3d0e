import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/** No critical or serious WCAG 2 A/AA violation on the page (or the part `include` selects). */
export async function expectAccessible(page: Page, what: string, include?: string) {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa'])
  const results = await (include ? builder.include(include) : builder).analyze()
  const bad = results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(bad, `${what}: critical or serious axe violations`).toEqual([])
}
