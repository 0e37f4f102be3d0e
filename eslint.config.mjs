// One lint setup for the whole repository (server, contract, web, e2e).
// typescript-eslint's recommended set, not the type-checked one: it needs no
// TypeScript program and keeps `npm run lint` fast. Layout is Prettier's job.
// (.mjs: the root package.json has no "type", and adding one would change how
// every other root-level .js file is read.)
import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'
import local from './scripts/eslint-local-rules.mjs'

const LAYERS =
  'Below the modules nothing imports one (ARCHITECTURE.md, "Layers"): take it by injection from a composition root.'

const QUERY_CALLS = '/^(selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|selectNoFrom)$/'

export default tseslint.config(
  { ignores: ['**/dist/', '**/node_modules/', 'test-results/', 'playwright-report/', 'docs/screenshots/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // `{ id: _id, ...rest }` is how the code drops a field; a leading _ marks an unused parameter.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Comments point at text inside the repository (scripts/eslint-local-rules.mjs). A merged
    // migration is never edited, not even its comments, so migrations are left out.
    files: ['server/src/**', 'web/src/**', 'e2e/**', 'packages/**', 'scripts/**', 'eslint.config.mjs'],
    ignores: ['server/src/db/migrations/**'],
    plugins: { local },
    rules: { 'local/comment-references': 'error' },
  },
  {
    // Migrations and their helpers run against older schemas than db/schema.ts
    // describes, so they take Kysely<any> (Kysely's documented convention).
    files: ['server/src/db/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests, browser tests and benchmarks read JSON bodies loosely; the
    // response schemas, not these types, are what check their shape.
    files: ['**/*.test.ts', 'e2e/**/*.ts', 'server/bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Infrastructure at the bottom (ARCHITECTURE.md, "Layers"): outside
    // modules/ nothing imports a module, except the composition roots named
    // here (and db/schema.ts, for the domains' table types only).
    files: ['server/src/**/*.ts'],
    ignores: [
      'server/src/modules/**',
      'server/src/test/**',
      '**/*.test.ts',
      'server/src/{app,main,startup,cli,cli.commands,subscribers}.ts',
      'server/src/demo/**',
      'server/src/jobs/jobs.ts',
      'server/src/db/schema.ts',
      'server/src/{database,rls-guard}.ts',
      'server/src/delivery/outbox.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/modules/**'], message: LAYERS }] }],
    },
  },
  {
    // These read the table declarations (modules/tables.ts) and no other part of a module.
    files: ['server/src/{database,rls-guard}.ts', 'server/src/delivery/outbox.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/modules/**', '!**/modules/tables.ts'], message: LAYERS }] },
      ],
    },
  },
  {
    files: ['server/src/db/schema.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/modules/**'], allowTypeImports: true, message: LAYERS }] },
      ],
    },
  },
  {
    // Thin routes and services without SQL (ARCHITECTURE.md, "How a request
    // flows"): a route calls its service, a service its repositories, and only
    // repositories build queries.
    files: ['server/src/modules/**/*.{routes,service}.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.property.name=${QUERY_CALLS}], CallExpression[callee.name=${QUERY_CALLS}]`,
          message: 'Queries belong in a <domain>.repository.ts.',
        },
      ],
    },
  },
  {
    files: ['server/src/modules/**/*.service.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', importNames: ['sql'], message: 'SQL belongs in a <domain>.repository.ts.' }] },
      ],
    },
  },
  {
    files: ['server/src/modules/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'kysely', message: 'A route calls its service; queries belong in a repository.' }],
          patterns: [{ group: ['**/*.repository.ts'], message: 'A route calls its service, never a repository.' }],
        },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    ...reactHooks.configs.flat.recommended,
  },
  {
    // Web size rule (docs/decisions.md, "Web file and function sizes"): a production file
    // stays within 300 lines and a function within 100, blank lines and comments not counted.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'web/src/test/**'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The data layer is below the UI: web/src/api/** takes what it needs from the UI
    // (a sign-in's beginSession, ...) as arguments and imports no component, page or auth screen.
    files: ['web/src/api/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/components/*', '**/pages/*', '**/auth/*', '**/components', '**/pages', '**/auth'],
              message: 'The data layer (web/src/api) imports no UI: take what it needs as an argument.',
            },
          ],
        },
      ],
    },
  },
  {
    // One data layer: pages use the hooks of web/src/api/<domain>.ts,
    // whose key factories are the only place query keys are written and whose
    // mutations say what they invalidate. A page cannot slip back to its own
    // queries, keys or requests.
    files: ['web/src/pages/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tanstack/react-query',
              importNames: ['useQuery', 'useMutation', 'useQueryClient', 'useSuspenseQuery', 'useInfiniteQuery'],
              message: 'Use (or add) a hook in web/src/api/<domain>.ts.',
            },
          ],
          patterns: [
            {
              group: ['**/api/client'],
              importNames: ['api', 'apiPage', 'request'],
              message: 'Requests belong in web/src/api/<domain>.ts.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='fetch']",
          message: 'Requests belong in web/src/api/<domain>.ts.',
        },
        {
          selector: "Property[key.name='queryKey']",
          message: 'Query keys come from the key factories in web/src/api/<domain>.ts.',
        },
      ],
    },
  },
)
