// Lighthouse 12.2.3 on the sign-in page, as `npm run bench:web` runs it
// (issue 30): Lighthouse's own mobile profile (Moto G Power, simulated slow 4G
// and 4× CPU), an empty cache, Debian Chromium started by Playwright with a
// remote-debugging port Lighthouse drives. The four category scores, 0–100.
import net from 'node:net'
import lighthouse from 'lighthouse'
import { chromium } from 'playwright'

export interface LighthouseScores {
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
  /** Console errors and failed audits worth reading when a score is under 100. */
  notes: string[]
}

/** Lighthouse mobile targets (issue 30). */
export const LIGHTHOUSE_TARGETS = { performance: 98, accessibility: 100, bestPractices: 100, seo: 100 }

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** One Lighthouse run on `url` (mobile, every category but PWA). */
export async function lighthouseRun(url: string): Promise<LighthouseScores> {
  const port = await freePort()
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
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100)
    const notes = Object.values(audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
      .map((a) => `${a.id}: ${a.title}`)
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      notes,
    }
  } finally {
    await browser.close()
  }
}

/** The median of each score over `runs` runs, and the notes of every run. */
export async function lighthouseSignIn(baseUrl: string, runs: number, log: (line: string) => void) {
  const all: LighthouseScores[] = []
  for (let i = 0; i < runs; i++) {
    const r = await lighthouseRun(`${baseUrl}/signin`)
    log(
      `lighthouse ${i + 1}: performance ${r.performance}, accessibility ${r.accessibility}, best practices ${r.bestPractices}, SEO ${r.seo}`,
    )
    all.push(r)
  }
  const median = (pick: (s: LighthouseScores) => number) => {
    const sorted = all.map(pick).sort((a, b) => a - b)
    return sorted[Math.floor(sorted.length / 2)]!
  }
  return {
    performance: median((s) => s.performance),
    accessibility: median((s) => s.accessibility),
    bestPractices: median((s) => s.bestPractices),
    seo: median((s) => s.seo),
    notes: [...new Set(all.flatMap((s) => s.notes))],
  }
}
