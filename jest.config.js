/** One jest run covers the unit specs beside the code (and the bench's helpers) and the end-to-end suites in test/. */
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
};
const common = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };
module.exports = {
  // End-to-end tests start services and CLI processes; on 2 busy cores a few of those take seconds.
  testTimeout: 30_000,
  // Each suite loads the service's modules afresh; they go once nothing outside the suite holds
  // them. No memory limit on workers: the one holder found (the rate limit's timer, started twice
  // by Nest and cleared once, kept every suite's application) is fixed at its cause, and the heap
  // now stays level across suites (`--logHeapUsage`, docs/testing.md).
  projects: [
    { ...common, displayName: 'unit', rootDir: '.', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/bench/**/*.spec.js'] },
    { ...common, displayName: 'e2e', rootDir: '.', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
