// Mutation testing of the credential chain, the provider toolkit and the export (issue 22 §8):
//   npm run mutation                          # every group, one after the other is faster: see below
//   MUTATION_GROUP=credentials npm run mutation
// StrykerJS 9.6 (10.x and its Babel 8 need Node.js >= 22; the package and its development support 20).
//   npx stryker run --mutate scripts/package-plugin.mjs …   # one file, with MUTATION_SPEC naming its tests
//
// Stryker's command runner: mutants go into the TypeScript sources of a sandbox (.stryker-tmp/), tsc
// compiles it once, and for each mutant the group's mocha command runs with the mutant switched on by
// the __STRYKER_ACTIVE_MUTANT__ variable. Child processes inherit it, so the CLI binary and the
// provider hosts the tests start run the mutant too (the mocha runner would only see the test process).
// Fast tests come first and --bail stops at the first failure.

/** Each group: the files it mutates and the compiled tests that exercise them. */
const GROUPS = {
  credentials: {
    mutate: ["sdk/credentials/resolve.ts", "sdk/credentials/credential-sources.ts"],
    spec: [
      "dist/test/provider/credentials.test.js",
      "dist/test/sdk/credentials/mutants.test.js",
      "dist/test/sdk/credentials/origin.test.js",
      "dist/test/sdk/credentials/credential-sources.test.js",
      "dist/test/sdk/credentials/api-key.test.js",
      "dist/test/cli/credential-chain.test.js",
    ],
  },
  toolkit: {
    mutate: ["provider/shared/*.ts"],
    spec: ["dist/test/provider/toolkit-mutants.test.js", "dist/test/provider/exit-revocation.test.js", "dist/test/provider/dns-server.test.js", "dist/test/provider/device.test.js", "dist/test/provider/hold-up.test.js", "dist/test/provider/credential-chain.test.js", "dist/test/provider/shared/waiting-listener.test.js"],
  },
  // The script's steps are tested in-process first (package-plugin-steps: about 20 s, most mutants die
  // there); plugin-executable builds the executable (about a minute) for what only a build shows. For
  // the steps alone: MUTATION_SPEC=dist/test/scripts/package-plugin-steps.test.js, and a line range,
  // e.g. --mutate scripts/package-plugin.mjs:1-200.
  packaging: {
    mutate: ["scripts/package-plugin.mjs"],
    spec: ["dist/test/scripts/package-plugin-steps.test.js", "dist/test/scripts/package-plugin.test.js", "dist/test/package/plugin-executable.test.js"],
  },
  // The native plugin's gRPC server, started in the test process (test/support/plugin-inprocess.ts): the
  // packed plugin's tests (test/provider/plugin/*) install and spawn it, too slow to run per mutant.
  plugin: {
    mutate: ["provider/plugin/server.ts"],
    spec: ["dist/test/provider/plugin/server-mutants.test.js"],
  },
  export: {
    mutate: ["provider/export.ts", "cli/commands/export.ts"],
    spec: ["dist/test/provider/export-mutants.test.js", "dist/test/cli/commands/export.test.js", "dist/test/cli/commands/emulator-seed.test.js"],
  },
};

const chosen = (process.env.MUTATION_GROUP ?? Object.keys(GROUPS).join(",")).split(",").map((g) => {
  if (!(g in GROUPS)) throw new Error(`MUTATION_GROUP: unknown group ${g} (one of ${Object.keys(GROUPS).join(", ")})`);
  return GROUPS[g];
});

// MUTATION_SPEC (comma-separated compiled test files) replaces the groups' tests, e.g. to try a file's
// mutants against its in-process tests only: MUTATION_SPEC=dist/test/provider/toolkit-mutants.test.js
const spec = process.env.MUTATION_SPEC ? process.env.MUTATION_SPEC.split(",") : chosen.flatMap((g) => g.spec);

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "command",
  buildCommand: "tsc -p tsconfig.json",
  coverageAnalysis: "off",
  mutate: chosen.flatMap((g) => g.mutate),
  commandRunner: {
    // The run guards too: each run's temporary folders stay in a private TMPDIR removed at its end (a
    // killed mutant's run ends early, skipping the suites' after hooks).
    command: `mocha --no-config --require dist/test/support/hooks.js --bail --timeout 60000 --reporter dot ${spec.join(" ")}`,
  },
  ignorePatterns: ["dist", ".stryker-tmp", "reports", "examples/basic/.pack"],
  // The machines have two cores.
  concurrency: 2,
  timeoutMS: 60000,
  reporters: ["clear-text", "progress-append-only", "json", "html"],
  jsonReporter: { fileName: `reports/mutation/${process.env.MUTATION_GROUP ?? "all"}.json` },
  htmlReporter: { fileName: `reports/mutation/${process.env.MUTATION_GROUP ?? "all"}.html` },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
