// After `vite build`: renders the pages src/entry-server.tsx names from the
// client's own components, once per language, into the built index.html, as
// dist/<name>.<language>.html. The server answers the page's route with the
// file in the browser's language (server/src/plugins/web.ts); the client
// hydrates it (src/main.tsx).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import react from '@vitejs/plugin-react'
import { build } from 'vite'

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dist = path.join(web, 'dist')
// Inside the workspace, so the rendering code finds React and the other packages it leaves to node.
const out = path.join(web, 'dist-prerender')
const ROOT = '<div id="root"></div>'

try {
  await build({
    configFile: false,
    root: web,
    logLevel: 'warn',
    plugins: [react()],
    // The shared contract is TypeScript source: bundled, not left to node.
    ssr: { noExternal: [/^@stake\//] },
    build: { ssr: 'src/entry-server.tsx', outDir: out, emptyOutDir: true, copyPublicDir: false },
  })
  const { render, PRERENDERED, LANGUAGES } = await import(pathToFileURL(path.join(out, 'entry-server.js')).href)
  const shell = inlineStylesheet(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'))
  if (!shell.includes(ROOT)) throw new Error(`dist/index.html has no ${ROOT}`)
  for (const { name, path: route } of PRERENDERED) {
    for (const language of LANGUAGES) {
      const { html, title } = await render(route, language)
      const page = shell
        .replace(/<html lang="[^"]*">/, `<html lang="${language}">`)
        .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
        .replace(ROOT, `<div id="root">${html}</div>`)
      fs.writeFileSync(path.join(dist, `${name}.${language}.html`), page)
    }
    console.log(`prerendered ${route} (${LANGUAGES.join(', ')})`)
  }
} finally {
  fs.rmSync(out, { recursive: true, force: true })
}

/**
 * The rendered pages carry the entry's stylesheet in the document, not as a
 * link: a link blocks the first paint until it has come down beside the
 * JavaScript the page also asks for, one round trip and a shared slow line
 * later (docs/performance.md, "The sign-in page as HTML").
 * The Content-Security-Policy allows inline styles; index.html, the shell of
 * every other page, keeps the link (cached once for all of them).
 */
function inlineStylesheet(html) {
  const links = [...html.matchAll(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g)]
  if (links.length !== 1) throw new Error(`dist/index.html has ${links.length} stylesheet links, expected 1`)
  const [link, file] = links[0]
  const css = fs.readFileSync(path.join(dist, file), 'utf8')
  if (/<\/style/i.test(css) || /url\(/i.test(css)) throw new Error(`${file} cannot be inlined as it is`)
  return html.replace(link, () => `<style>${css}</style>`)
}

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
