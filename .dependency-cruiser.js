/**
 * The dependency rules `npm test` checks (dependency-cruiser): imports point one way, from the
 * adapters (http/, graphql/, *.routes.ts, *.resolvers.ts) down through the feature modules to the
 * ledger and lib/, never back up, and never in a circle.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A circle makes every file in it load, change and test together. Type imports count too.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "lib-imports-lib",
      severity: "error",
      comment: "lib/ is the floor: it may import lib/ and the context and config types, nothing above.",
      from: { path: "^src/lib/" },
      to: { path: "^src/", pathNot: ["^src/lib/", "^src/context\\.ts$", "^src/config\\.ts$", "^src/logger\\.ts$"] },
    },
    {
      name: "ledger-imports-no-feature",
      severity: "error",
      comment: "The ledger is the ground floor every report reads: it imports lib/ and the context, no feature module.",
      from: { path: "^src/modules/ledger/" },
      to: {
        path: "^src/",
        pathNot: ["^src/lib/", "^src/modules/ledger/", "^src/context\\.ts$", "^src/config\\.ts$", "^src/logger\\.ts$"],
      },
    },
    {
      name: "service-imports-no-transport",
      severity: "error",
      comment:
        "Services take (ctx, input) and never see a transport: only routes and resolvers import http/ or graphql/.",
      from: { path: "^src/modules/", pathNot: "\\.(routes|resolvers)\\.ts$" },
      to: { path: "^src/(http|graphql)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(generated|node_modules)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
