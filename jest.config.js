/** @type {import('jest').Config} */
// ts-jest transpiles each file on its own (tsconfig has isolatedModules): type errors are
// `npm run typecheck`'s job, so tests start fast and never wait on a whole-program check.
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }];
// openid-client and the two packages it builds on, and the hashing and base32 packages otplib builds on, ship
// only ES modules, which Jest's CommonJS module registry cannot load on Node 20 (Node itself can: the services
// require them natively); ts-jest compiles those files to CommonJS for the tests.
const ESM_ONLY = ['openid-client', 'oauth4webapi', 'jose', '@scure/base', '@noble/hashes'];
const esmToCommonJs = [
  'ts-jest',
  { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true } },
];
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest, [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: esmToCommonJs },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
};
const packages = '<rootDir>/{services,gateway,shared,cli}/**/test/**';

module.exports = {
  // Two cores: more workers only fight over them and the database.
  maxWorkers: 2,
  // Workers leave no handle behind (checked with a test environment listing the live handles after each
  // file: only the worker's own pipes), yet on a loaded machine a worker holding 300-450 MB did not
  // always exit within Jest's default 500 ms and was killed with a "failed to exit gracefully" warning.
  workerGracefulExitTimeout: 10_000,
  // A run-wide option: Jest ignores it inside a project. Tests wait for states with bounds of their
  // own; this only catches a test that never ends, and a loaded 2-core machine is slow to start services.
  testTimeout: 180_000,
  projects: [
    // Each package's own tests of its logic: no database, no Redis, so no global setup
    // (`npm test -w services/<name>` runs just these).
    {
      ...common,
      displayName: 'unit',
      testMatch: [`${packages}/*.test.ts`],
      testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.test\\.ts$'],
    },
    // Jest runs a project's global setup only when one of its tests runs: the private database and
    // Redis start for end-to-end tests (test/, and any *.e2e.test.ts under a package) and nothing else.
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.test.ts', `${packages}/*.e2e.test.ts`],
      globalSetup: '<rootDir>/test/setup/globalSetup.ts',
      globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
    },
  ],
};
