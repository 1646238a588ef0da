import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Served by the API at /inspector (same origin, strict CSP: no inline script, no eval), so every asset is a file.
export default defineConfig({
  base: "/inspector/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: "es2022",
  },
});
