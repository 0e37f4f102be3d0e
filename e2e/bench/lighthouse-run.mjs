// One Lighthouse 12.2.3 run (mobile) on the URL given, printed as JSON on
// stdout: {performance, accessibility, bestPractices, seo, notes}. Plain
// JavaScript under plain node, on purpose: Lighthouse sends its own functions
// into the page as source text, and a TypeScript loader's rewriting of them
// (tsx adds `__name(...)` calls) breaks them there. Started by lighthouse.ts.
import net from 'node:net'
import lighthouse from 'lighthouse'
import { chromium } from 'playwright'

const url = process.argv[2]
if (!url) throw new Error('usage: node lighthouse-run.mjs <url>')

const port = await new Promise((resolve, reject) => {
  const server = net.createServer()
  server.once('error', reject)
  server.listen(0, '127.0.0.1', () => {
    const { port: free } = server.address()
    server.close(() => resolve(free))
  })
})
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', `--remote-debugging-port=${port}`],
})
try {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    formFactor: 'mobile',
  })
  if (!result) throw new Error('Lighthouse gave no result')
  const { categories, audits } = result.lhr
  const score = (id) => Math.round((categories[id]?.score ?? 0) * 100)
  const notes = Object.values(audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
    .map((a) => `${a.id}: ${a.title}`)
  process.stdout.write(
    JSON.stringify({
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      notes,
    }),
  )
} finally {
  await browser.close()
}
