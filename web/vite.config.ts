import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// The API lives at /api on the server; in development Vite proxies it so the
// refresh cookie (SameSite=Strict, Path=/) stays same-origin.
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8000'

export default defineConfig({
  plugins: [react()],
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
