import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API lives at /api on the server; in development Vite proxies it so the
// refresh cookie (SameSite=Strict, Path=/) stays same-origin.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
  },
});
