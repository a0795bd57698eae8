/** One jest run covers the unit specs beside the code (and the bench's helpers) and the end-to-end suites in test/. */
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
};
const common = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };
module.exports = {
  // End-to-end tests start services and CLI processes; on 2 busy cores a few of those take seconds.
  testTimeout: 30_000,
  // Each suite loads the service's modules afresh and some of them stay reachable after it (Nest,
  // ts-jest): a run of 150 suites in one process outgrew Node's heap. A worker past 1 GB after a
  // suite is replaced (and this makes jest use a worker even on two cores).
  workerIdleMemoryLimit: '1GB',
  projects: [
    { ...common, displayName: 'unit', rootDir: '.', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/bench/**/*.spec.js'] },
    { ...common, displayName: 'e2e', rootDir: '.', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
