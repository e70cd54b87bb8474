/** @type {import('jest').Config} */
// ts-jest transpiles each file on its own (tsconfig has isolatedModules): type errors are
// `npm run typecheck`'s job, so tests start fast and never wait on a whole-program check.
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }];

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest },
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/{services,gateway,shared,cli}/**/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/setup/globalSetup.ts',
  globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
  // Two cores: more workers only fight over them and the database.
  maxWorkers: 2,
  testTimeout: 60_000,
};
