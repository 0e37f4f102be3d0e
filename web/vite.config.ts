import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { VitePWA } from 'vite-plugin-pwa'

// The API lives at /api on the server; in development Vite proxies it so the
// refresh cookie (SameSite=Strict, Path=/) stays same-origin.
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8000'

export default defineConfig({
  plugins: [
    react(),
    // The service worker (src/sw.ts) with this build's file list injected.
    // The web-app manifest stays public/manifest.webmanifest (linked from
    // index.html): the plugin writes none. The client registers the worker
    // itself after the page has loaded (src/pwa/register.ts).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      includeManifestIcons: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Vite's own build manifest is not part of the app.
        globIgnores: ['.vite/**'],
      },
      devOptions: { enabled: false },
    }),
  ],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    // Every browser the client supports preloads modules natively.
    modulePreload: { polyfill: false },
    // The libraries every screen needs (React, the router, TanStack Query,
    // i18next) in one file: fewer requests on a slow phone link and one
    // compression context (issue 14: the sign-in download).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Only what the first screen loads ($initial): code used by later pages alone stays with them.
            { name: 'vendor', test: /node_modules/, tags: ['$initial'] },
          ],
        },
      },
    },
  },
})
