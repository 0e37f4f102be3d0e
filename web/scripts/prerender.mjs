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
  const shell = fs.readFileSync(path.join(dist, 'index.html'), 'utf8')
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

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
