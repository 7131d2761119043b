// The layers of the tree (issue 26), checked by `npm run lint` and test/package/layers.test.ts:
// cli/ is the top floor (it may import sdk/, provider/ and emulator/); provider/ and emulator/ stand on
// sdk/; nothing below imports what stands on it, and no module imports itself through others (type-only
// imports count: they tie the modules together just the same).
/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "an import circle: put what the modules share in a module of their own",
      from: {},
      to: { circular: true },
    },
    {
      name: "sdk-below-everything",
      severity: "error",
      comment: "sdk/ is the library a program imports: it never imports the CLI, the provider or the emulator",
      from: { path: "^sdk/" },
      to: { path: "^(cli|provider|emulator)/" },
    },
    {
      name: "emulator-below-cli-and-provider",
      severity: "error",
      comment: "the emulator stands on sdk/ only: never on the CLI or the provider",
      from: { path: "^emulator/" },
      to: { path: "^(cli|provider)/" },
    },
    {
      name: "cli-is-the-top-floor",
      severity: "error",
      comment: "only the CLI (and tests and benchmarks) may import cli/",
      from: { path: "^(sdk|provider|emulator|examples|scripts)/" },
      to: { path: "^cli/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "an import that resolves to nothing",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".d.ts", ".js", ".json"] },
  },
};
