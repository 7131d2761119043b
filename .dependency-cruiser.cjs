// The layers of the tree (issue 26), checked by `npm run lint` and test/package/layers.test.ts:
// cli/ is the top floor (it may import sdk/, provider/ and emulator/); provider/ and emulator/ stand on
// sdk/; nothing below imports what stands on it, and no module imports itself through others (type-only
// imports count: they tie the modules together just the same). The user's options are read in one
// place: the resolve step, sdk/config/ (issue 26 §2).
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
      name: "options-resolved-once",
      severity: "error",
      comment:
        "the user's input (sdk/config/input.ts, client-input.ts: ClientOptions, SessionOptions, TransportOptions, " +
        "TokenCallOptions, RetryOptions) is read by the resolve step (sdk/config/) alone; the public entry points may " +
        "name it only to hand it to a resolver; every other layer reads the resolved, frozen configuration (sdk/config/resolved.ts)",
      from: {
        path: "^(sdk|provider|cli|emulator)/",
        pathNot: [
          "^sdk/config/",
          // The public entry points: each passes the input it takes straight to a resolver (or re-exports its type).
          "^sdk/index\\.ts$",
          "^sdk/session\\.ts$",
          "^sdk/client/(client|shared-session)\\.ts$",
          "^sdk/auth/(grants|revoke)\\.ts$",
          "^sdk/credentials/token-store\\.ts$",
        ],
      },
      to: { path: "^sdk/config/(input|client-input)\\.ts$" },
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
