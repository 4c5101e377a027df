import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompressPlugin } from "./scripts/precompress.ts";

// The console is built to static files only (no dev server at runtime). The edge serves dist/ at /console
// under a strict Content-Security-Policy (`default-src 'self'`), so: no inline scripts or styles, no data:
// URIs (assets are never inlined), nothing from a CDN, and no source maps in the production bundle.
// Text files get precompressed `.br` and `.gz` siblings (scripts/precompress.ts) that the edge serves.
export default defineConfig({
  base: "/console/",
  plugins: [react(), precompressPlugin()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: "es2022",
    reportCompressedSize: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: "router", test: /node_modules[\\/]react-router[\\/]/ },
            { name: "charts", test: /node_modules[\\/](chart\.js|@kurkle)[\\/]/ },
          ],
        },
      },
    },
  },
});
