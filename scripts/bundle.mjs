// Builds the bundles each npm face of the provider loads in one step (`npm run build` and `prepare` run it
// after tsc, which it overwrites for the entry files below):
//
// - dist/provider/plugin/plugin.bundle.js: the native plugin (provider/plugin/start.ts) with everything it
//   runs, @pulumi/pulumi's gRPC pieces included (`./grpc-installed` swapped for `./grpc-bundled`, as in
//   the single executable), minified. dist/provider/plugin/bin.js, the npm bin, loads it.
// - dist/provider/dynamic.bundle.js: every resource's dynamic face (provider/dynamic.ts), lifecycles,
//   the SDK client, zod and undici, minified. Each dist/provider/<resource>/provider.js (the module a
//   resource's serialized `__provider` requires) loads it on its first call in the dynamic-provider host.
//   @pulumi/pulumi is not inside: the host has its own, and the faces need none of it.
// - dist/provider/rules-parser.bundle.js: @adguard/agtree (with tldts), minified, which both bundles
//   require only when user rules are checked.
// - the entries bin.js and <resource>/provider.js: bundled with provider/shared/load-bundle.ts inside, so
//   that a face's process loads exactly two files of the package: its entry and its bundle. bin.js also
//   holds provider/plugin/listen.ts: it opens and prints the plugin's port before it reads the bundle.
// - dist/provider/tofu/tofu.bundle.js: the OpenTofu/Terraform face (provider/tofu/main.ts, issue 34),
//   its gRPC (`@grpc/grpc-js`, protobuf.js's light build) pieces inside, minified, with its code
//   cache; dist/provider/tofu/bin.js (`terraform-provider-dnsaccount`) holds provider/tofu/announce.ts: it
//   prints the handshake line (its certificate minted with node:crypto) before it reads the bundle, like
//   the plugin's bin. It shares no bundle with the Pulumi plugin: neither face loads the other's code.
// - `<bundle>.cache` beside the plugin's and the dynamic bundle: V8's code cache, written by this Node
//   after loading the bundle and what its first operation needs (each bundle's `warm()`), in a child
//   process; load-bundle.ts uses it when the running Node accepts it, and writes a fresh one when not.
//
// Any `require` the bundler leaves in a bundle other than a Node built-in or the rules parser fails the
// build, as does any bundler warning.
//
//   node scripts/bundle.mjs
import { execFileSync } from "node:child_process";
import { builtinModules, createRequire } from "node:module";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const dist = path.join(root, "dist", "provider");

/** The bundles' files, for the tests and the packaging script. */
export const BUNDLES = {
  plugin: path.join(dist, "plugin", "plugin.bundle.js"),
  tofu: path.join(dist, "tofu", "tofu.bundle.js"),
  dynamic: path.join(dist, "dynamic.bundle.js"),
  rules: path.join(dist, "rules-parser.bundle.js"),
};

/** The resources whose `provider.js` is an entry of the dynamic face. */
const RESOURCES = ["token", "dns-server", "device", "dedicated-ipv4"];

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`), "node:sqlite"]);

/**
 * An esbuild plugin that makes the plugin's bundle self-contained: `./grpc-installed` becomes
 * `./grpc-bundled`, and `@grpc/grpc-js` and `google-protobuf` resolve from @pulumi/pulumi's folder, as
 * its proto files do. Shared with scripts/package-plugin.mjs.
 */
export function grpcInside() {
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [root] }));
  return {
    name: "grpc-inside",
    setup(build) {
      build.onResolve({ filter: /\/grpc-installed$/ }, (args) => ({ path: path.join(args.resolveDir, "grpc-bundled.ts") }));
      build.onResolve({ filter: /^(@grpc\/grpc-js|google-protobuf)(\/|$)/ }, async (args) => {
        if (args.pluginData === "from-pulumi") return undefined;
        const r = await build.resolve(args.path, { kind: args.kind, resolveDir: pulumiDir, pluginData: "from-pulumi" });
        return r.errors.length ? { errors: r.errors } : { path: r.path };
      });
    },
  };
}

/** An esbuild plugin leaving `@adguard/agtree` to the rules parser's bundle, at `relative` from the output. */
function rulesOutside(relative) {
  return {
    name: "rules-outside",
    setup(build) {
      build.onResolve({ filter: /^@adguard\/agtree$/ }, () => ({ path: relative, external: true }));
    },
  };
}

/** What every output shares: CommonJS for Node 20, one file, names kept (errors name themselves after their class: sdk/errors.ts). */
const COMMON = { bundle: true, platform: "node", target: "node20", format: "cjs", logLevel: "silent", legalComments: "none", metafile: true, keepNames: true };

/** Fails on any error or warning of an esbuild result; returns the result. */
function checked(result, what) {
  const problems = [...result.errors, ...result.warnings].map((m) => `${m.location ? `${m.location.file}:${m.location.line}: ` : ""}${m.text}`);
  if (problems.length) throw new Error(`${what}: the bundler left something the bundle cannot load:\n${problems.join("\n")}`);
  return result;
}

/** The `require`s left in a bundle's text that are neither built-ins nor in `allowed`. */
export function leftRequires(text, allowed = []) {
  const ok = new Set([...BUILTINS, ...allowed]);
  return [...new Set([...text.matchAll(/\brequire\(\s*([^)]*?)\s*\)/g)].map((m) => m[1].replace(/\/\*.*?\*\//g, "").trim()))].filter(
    (arg) => !/^(["'])[^"']*\1$/.test(arg) || !ok.has(arg.slice(1, -1)),
  );
}

/** Builds one output file; fails on what the bundler or the file leaves to run time. A bundle gets no source map (tsc's is removed). */
async function build(options, what, allowed = []) {
  const esbuild = require("esbuild");
  if (!options.sourcemap) rmSync(`${options.outfile}.map`, { force: true });
  const result = checked(await esbuild.build({ ...COMMON, ...options }), what);
  const left = leftRequires(readFileSync(options.outfile, "utf8"), allowed);
  if (left.length) throw new Error(`${what} still requires at run time: ${left.join(", ")}`);
  return result;
}

/** Writes `<bundle>.cache` for `bundle` in a child Node: load it, run its `warm()`, ask V8 for the cache. */
function writeCache(bundle) {
  rmSync(`${bundle}.cache`, { force: true });
  const loader = path.join(dist, "shared", "load-bundle.js");
  const code = `const l = require(${JSON.stringify(loader)}); const f = ${JSON.stringify(bundle)}; l.loadBundle(f).warm(); if (!l.refreshCache(f)) process.exit(1);`;
  execFileSync(process.execPath, ["-e", code], { stdio: ["ignore", "ignore", "inherit"] });
  if (!existsSync(`${bundle}.cache`)) throw new Error(`no code cache was written for ${bundle}`);
}

/** Builds every bundle, entry and code cache into dist/provider (tsc must have run). */
export async function bundleAll() {
  const rulesRel = (from) => `./${path.relative(path.dirname(from), BUNDLES.rules)}`;
  await build({ stdin: { contents: 'module.exports = require("@adguard/agtree");', resolveDir: root, loader: "js" }, outfile: BUNDLES.rules, minify: true }, "the rules parser");
  await build(
    { entryPoints: [path.join(root, "provider", "dynamic.ts")], outfile: BUNDLES.dynamic, minify: true, plugins: [rulesOutside(rulesRel(BUNDLES.dynamic))], external: ["@pulumi/pulumi", "@pulumi/pulumi/*"] },
    "the dynamic bundle",
    [rulesRel(BUNDLES.dynamic)],
  );
  await build(
    { entryPoints: [path.join(root, "provider", "plugin", "start.ts")], outfile: BUNDLES.plugin, minify: true, plugins: [grpcInside(), rulesOutside(rulesRel(BUNDLES.plugin))] },
    "the plugin's bundle",
    [rulesRel(BUNDLES.plugin)],
  );
  await build({ entryPoints: [path.join(root, "provider", "tofu", "main.ts")], outfile: BUNDLES.tofu, minify: true }, "the OpenTofu face's bundle");
  // The entries: small, readable, with the loader inside (source maps beside them, with their sources).
  const entries = [
    ...RESOURCES.map((r) => [path.join(root, "provider", r, "provider.ts"), path.join(dist, r, "provider.js")]),
    [path.join(root, "provider", "plugin", "bin.ts"), path.join(dist, "plugin", "bin.js")],
    [path.join(root, "provider", "tofu", "bin.ts"), path.join(dist, "tofu", "bin.js")],
  ];
  for (const [entry, outfile] of entries) {
    await build({ entryPoints: [entry], outfile, sourcemap: true, sourcesContent: true }, path.relative(root, entry));
  }
  writeCache(BUNDLES.dynamic);
  writeCache(BUNDLES.plugin);
  writeCache(BUNDLES.tofu);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  bundleAll().catch((err) => {
    console.error(`bundle: ${err.message}`);
    process.exit(1);
  });
}
