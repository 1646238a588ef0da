// ESLint for the inspector: typescript-eslint's type-aware recommended rules and React's rules of hooks.
// Formatting is Prettier's (npm run format:check), not ESLint's.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "build-test/", "node_modules/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The views load their data in an effect (`useEffect(() => void load(), [load])`), whose setState calls come
      // after an await: not the synchronous cascade this rule is about, which it cannot tell apart.
      "react-hooks/set-state-in-effect": "off",
      // Says only that the React Compiler skips a component using @tanstack/react-virtual; the build does not use it.
      "react-hooks/incompatible-library": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  { files: ["eslint.config.js"], extends: [tseslint.configs.disableTypeChecked] },
);
