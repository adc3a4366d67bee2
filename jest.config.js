/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // JEST_TYPECHECK=0 skips ts-jest's type check (quicker while several modules are half-written);
  // `npm test` type-checks the whole project first anyway.
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: process.env.JEST_TYPECHECK !== "0" }],
  },
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
  testTimeout: 60_000,
  // Two cores: one worker per core; each test file owns one database, reset between tests.
  maxWorkers: 2,
};
