/** @type {import('jest').Config} */
module.exports = {
  // Node's, plus one embedded database a worker lends from one test file to the next (the
  // environment's comment says why the module is mapped).
  testEnvironment: "<rootDir>/test/support/environment.js",
  moduleNameMapper: { "^@electric-sql/pglite$": "<rootDir>/test/support/shared-pglite.js" },
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // Each file is transpiled on its own (tsconfig's isolatedModules): no type check per test file,
  // which halved a cold run; `npm test` type-checks the whole project once before jest starts.
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
  testTimeout: 60_000,
  // Two cores: one worker per core; each test file has one database at a time, reset between tests.
  maxWorkers: 2,
  // A worker whose heap passed this after a file is replaced by a new one. The embedded databases
  // a worker made (the one it lends included) leave about 30 MB a file behind in PGlite's module,
  // shared by the worker's files: without a limit a worker reached 3-4 GB by its last files, and
  // its garbage collection slowed them. Measured on 80 API files: 205 s without, 196 s with.
  workerIdleMemoryLimit: "1200MB",
};
