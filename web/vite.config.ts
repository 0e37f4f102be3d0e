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
  },
})
