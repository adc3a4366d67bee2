// The worker's `@electric-sql/pglite` (environment.js), for every test file and what it imports.
module.exports = globalThis.__pgliteModule;
