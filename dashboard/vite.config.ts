import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The gateway serves dist/ on the API's own origin (see docs/dashboard.md). The dev server
// (`npm run dev -w dashboard`) proxies both GraphQL paths to a stack on the default gateway port, so
// the session cookie stays same-origin there too.
const gateway = 'http://127.0.0.1:4000';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: { proxy: { '/graphql': gateway, '/admin/graphql': gateway } },
});
