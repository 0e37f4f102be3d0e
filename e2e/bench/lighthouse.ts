// Lighthouse 12.2.3 on the sign-in page, as `npm run bench:web` runs it
// (docs/performance.md): Lighthouse's own mobile profile (Moto G Power, simulated slow 4G
// and 4× CPU), an empty cache, Debian Chromium started by Playwright with a
// remote-debugging port Lighthouse drives. The four category scores, 0–100.
import { execFile } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface LighthouseScores {
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
  /** Lighthouse's own (simulated) largest contentful paint, ms. */
  lcpMs: number
  /** Failed pass/fail audits (a console error, a missing meta description…) worth reading when a score is under 100. */
  notes: string[]
}

/** Lighthouse mobile targets (docs/performance.md). */
export const LIGHTHOUSE_TARGETS = { performance: 99, accessibility: 100, bestPractices: 100, seo: 100 }

const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lighthouse-run.mjs')

/** One Lighthouse run on `url`, in a plain-node child process (lighthouse-run.mjs says why). */
export function lighthouseRun(url: string): Promise<LighthouseScores> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [RUNNER, url], { maxBuffer: 1 << 20, timeout: 300_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`Lighthouse failed: ${stderr || error.message}`))
      else resolve(JSON.parse(stdout) as LighthouseScores)
    })
  })
}

/** The median of each score over `runs` runs, and the notes of every run. */
export async function lighthouseSignIn(baseUrl: string, runs: number, log: (line: string) => void) {
  const all: LighthouseScores[] = []
  for (let i = 0; i < runs; i++) {
    const r = await lighthouseRun(`${baseUrl}/signin`)
    log(
      `lighthouse ${i + 1}: performance ${r.performance}, accessibility ${r.accessibility}, best practices ${r.bestPractices}, SEO ${r.seo}, LCP ${r.lcpMs} ms`,
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
    lcpMs: median((s) => s.lcpMs),
    notes: [...new Set(all.flatMap((s) => s.notes))],
  }
}
