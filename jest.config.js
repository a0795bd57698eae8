/** One jest run covers the unit specs beside the code (and the bench's helpers) and the end-to-end suites in test/. */
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
};
const common = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };
module.exports = {
  // End-to-end tests start services and CLI processes; on 2 busy cores a few of those take seconds.
  testTimeout: 30_000,
  // Each suite loads the service's modules afresh; they go once nothing outside the suite holds
  // them. One holder was found and fixed at its cause (the rate limit's timer, started twice by
  // Nest and cleared once, kept every suite's application). What remains is jest#11956, Node's
  // own (vm scripts of finished suites kept until a full collection V8 may not schedule; fixed in
  // Node 21.1, this service runs on 20): in band with `--expose-gc` the heap stays level suite to
  // suite, while without it one whole run outgrew 4 GB and another peaked at 1.35 GB with the same
  // code and order (docs/testing.md). So a worker past 1 GB after a suite is replaced, jest's own
  // remedy for that bug (this also makes jest use a worker on two cores).
  workerIdleMemoryLimit: '1GB',
  projects: [
    { ...common, displayName: 'unit', rootDir: '.', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/bench/**/*.spec.js'] },
    { ...common, displayName: 'e2e', rootDir: '.', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
