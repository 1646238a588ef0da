import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// Component tests (src/**/*.test.tsx): Testing Library in jsdom, with a fake client (no server).
export default defineConfig({
  plugins: [react()],
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/test/setup.ts"],
    restoreMocks: true,
  },
});
