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
//   holds provider/plugin/listen.ts (over provider/shared/waiting-listener.ts, the paused listener both
//   faces' bins hold): it opens and prints the plugin's port before it reads the bundle.
// - dist/provider/tofu/tofu.bundle.js: the OpenTofu/Terraform face (provider/tofu/main.ts, issue 34),
//   its gRPC pieces (`@grpc/grpc-js`, protobuf.js's minimal build for the messages) inside, minified, with its code
//   cache. Two of its modules are made here ({@link tofuInside}, issue 35 §3): its messages' code,
//   generated from provider/tofu/protocol.ts's descriptor by protobuf.js's `pbjs -t static-module`
//   (provider/tofu/codec-static.ts over it, in provider/tofu/codec.ts's place), and the GetProviderSchema
//   answer's bytes, encoded from the schema, and that schema as JSON (provider/tofu/schema-embedded.ts); all made
//   from the TypeScript sources ({@link tofuSources}), never from a stale dist/; dist/provider/tofu/bin.js (`terraform-provider-dnsaccount`) holds provider/tofu/announce.ts
//   (and provider/shared/waiting-listener.ts): it prints the handshake line (its certificate minted with
//   node:crypto) before it reads the bundle, like the plugin's bin. It shares no bundle with the Pulumi
//   plugin: neither face loads the other's code.
// - `<bundle>.cache` beside the plugin's and the dynamic bundle: V8's code cache, written by this Node
//   after loading the bundle and what its first operation needs (each bundle's `warm()`), in a child
//   process; load-bundle.ts uses it when the running Node accepts it, and writes a fresh one when not.
//
// Any `require` the bundler leaves in a bundle other than a Node built-in or the rules parser fails the
// build, as does any bundler warning.
//
// BUNDLE_SOURCEMAPS=1 also writes `<bundle>.map` beside each minified bundle, for profiling (e.g.
// bench/tofu-profile-cpu.cjs): an external map, with no `sourceMappingURL` comment, so the bundles' bytes
// (and so their code caches) are the same as without it. Leave it unset for a build that is packed.
//
//   node scripts/bundle.mjs
//   BUNDLE_SOURCEMAPS=1 node scripts/bundle.mjs
import { execFileSync } from "node:child_process";
import { builtinModules, createRequire } from "node:module";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
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

/** The full name `type` names inside `scope` in `descriptor` (protobuf's lookup: innermost scope first), or undefined. */
function resolveIn(descriptor, type, scope) {
  if (type.startsWith(".")) return type.slice(1);
  const at = (name) => name.split(".").reduce((ns, part) => ns?.nested?.[part], descriptor);
  for (let n = scope.length; n >= 0; n--) {
    const full = [...scope.slice(0, n), type].join(".");
    if (at(full)) return full;
  }
  return undefined;
}

/**
 * `descriptor` (a protobuf.js JSON descriptor) with the messages of `renames` (full name → full name, the
 * same parent) under their new names, and every field that refers to one of them by its new absolute name.
 *
 * @example
 * ```js
 * renamedDescriptor(PROTOCOL, { "tfplugin6.Schema.Object": "tfplugin6.Schema.Object_" });
 * ```
 */
export function renamedDescriptor(descriptor, renames) {
  const copy = structuredClone(descriptor);
  const fix = (ns, scope) => {
    for (const [name, item] of Object.entries(ns.nested ?? {})) {
      const inner = [...scope, name];
      for (const field of Object.values(item.fields ?? {})) {
        const full = resolveIn(descriptor, field.type, inner);
        if (full && renames[full]) field.type = `.${renames[full]}`;
      }
      fix(item, inner);
    }
  };
  fix(copy, []);
  for (const [from, to] of Object.entries(renames)) {
    const parts = from.split(".");
    const parent = parts.slice(0, -1).reduce((ns, part) => ns.nested[part], copy);
    parent.nested[to.split(".").pop()] = parent.nested[parts.at(-1)];
    delete parent.nested[parts.at(-1)];
  }
  return copy;
}

let sources;
/**
 * provider/tofu's protocol descriptor, static renames and schema answer, bundled by esbuild from the
 * TypeScript sources (once per process), not read from tsc's output: `npm run package:tofu` after an edit
 * without a build must not embed a stale `dist/` schema beside the sources' code.
 *
 * @example
 * ```js
 * const { PROTOCOL, encodeSchemaAnswer } = tofuSources();
 * ```
 */
export function tofuSources() {
  if (sources) return sources;
  const esbuild = require("esbuild");
  const tofu = path.join(root, "provider", "tofu");
  // Inside node_modules, so that the bundle's external packages (protobufjs) resolve as the sources' do.
  const dir = mkdtempSync(path.join(root, "node_modules", ".tofu-sources-"));
  try {
    const outfile = path.join(dir, "sources.js");
    const contents = 'export { PROTOCOL } from "./protocol";\nexport { STATIC_RENAMES } from "./codec-static";\nexport { encodeSchemaAnswer, schemaJson } from "./schema-answer";\n';
    esbuild.buildSync({ stdin: { contents, resolveDir: tofu, loader: "ts", sourcefile: "tofu-sources.ts" }, bundle: true, platform: "node", format: "cjs", target: "node20", packages: "external", outfile, logLevel: "silent" });
    sources = require(outfile);
    return sources;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The static code of the OpenTofu face's messages: `pbjs -t static-module` (protobufjs-cli) of
 * provider/tofu/protocol.ts's descriptor (from the sources: {@link tofuSources}), field names kept, with encode, decode, fromObject
 * and toObject only; a CommonJS module that requires `protobufjs/minimal`.
 *
 * @example
 * ```js
 * const code = await tofuStaticProtocol(); // "…require(\"protobufjs/minimal\")…"
 * ```
 */
export async function tofuStaticProtocol() {
  const { PROTOCOL, STATIC_RENAMES } = tofuSources();
  const { pbjs } = require("protobufjs-cli");
  const dir = mkdtempSync(path.join(os.tmpdir(), "tofu-protocol-"));
  try {
    const json = path.join(dir, "protocol.json");
    writeFileSync(json, JSON.stringify(renamedDescriptor(PROTOCOL, STATIC_RENAMES)));
    const args = ["-t", "static-module", "-w", "commonjs", "--keep-case", "--dependency", "protobufjs/minimal", "--no-create", "--no-verify", "--no-delimited", "--no-typeurl", "--no-comments", "--no-service", json];
    return await new Promise((resolve, reject) => pbjs.main(args, (err, output) => (err ? reject(err) : resolve(output))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The GetProviderSchema answer's bytes as provider/tofu/schema-answer.ts encodes them at run time (from the
 * sources, {@link tofuSources}; the run-time codec), base64: what the face's bundle embeds.
 *
 * @example
 * ```js
 * const answer = Buffer.from(tofuSchemaAnswer(), "base64");
 * ```
 */
export function tofuSchemaAnswer() {
  return tofuSources().encodeSchemaAnswer().toString("base64");
}

/**
 * The provider's tofu schema as provider/tofu/schema-answer.ts writes it (`schemaJson`, from the sources),
 * base64: what the face's bundle embeds.
 *
 * @example
 * ```js
 * const schema = JSON.parse(Buffer.from(tofuSchemaJson(), "base64").toString("utf8"));
 * ```
 */
export function tofuSchemaJson() {
  return Buffer.from(tofuSources().schemaJson(), "utf8").toString("base64");
}

/**
 * An esbuild plugin for the OpenTofu face's bundles (this script's and scripts/package-tofu.mjs's): its
 * `./codec` is provider/tofu/codec-static.ts over {@link tofuStaticProtocol}'s code, and its
 * `./schema-embedded` holds {@link tofuSchemaAnswer}'s bytes and {@link tofuSchemaJson}'s schema, all made from the TypeScript sources.
 *
 * @example
 * ```js
 * await bundle({ entry: "provider/tofu/main.ts", plugins: [await tofuInside()], check: checkTofuBuilt });
 * ```
 */
export async function tofuInside() {
  const tofu = path.join(root, "provider", "tofu");
  const generated = await tofuStaticProtocol();
  const answer = tofuSchemaAnswer();
  const modules = {
    codec: `import { staticCodec } from ${JSON.stringify(path.join(tofu, "codec-static.ts"))};\nimport root from "tofu-built:protocol-static";\nlet made;\nexport function codec() { return (made ??= staticCodec(root)); }\n`,
    "schema-embedded": `export const EMBEDDED_SCHEMA_ANSWER = ${JSON.stringify(answer)};\nexport const EMBEDDED_SCHEMA = ${JSON.stringify(tofuSchemaJson())};\n`,
    "protocol-static": generated,
  };
  return {
    name: "tofu-inside",
    setup(build) {
      build.onResolve({ filter: /^\.\/(codec|schema-embedded)$/ }, (args) =>
        path.resolve(args.resolveDir) === tofu ? { path: args.path.slice(2), namespace: "tofu-built" } : undefined,
      );
      build.onResolve({ filter: /^tofu-built:protocol-static$/ }, () => ({ path: "protocol-static", namespace: "tofu-built" }));
      build.onLoad({ filter: /.*/, namespace: "tofu-built" }, (args) => ({ contents: modules[args.path], loader: args.path === "protocol-static" ? "js" : "ts", resolveDir: root }));
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

/** Whether the minified bundles get a source map beside them (`BUNDLE_SOURCEMAPS=1`, for profiling), one that leaves their bytes as they are. */
const BUNDLE_MAPS = process.env.BUNDLE_SOURCEMAPS === "1";

/** Builds one output file; fails on what the bundler or the file leaves to run time. A bundle gets no source map (tsc's is removed) unless {@link BUNDLE_MAPS}. */
async function build(options, what, allowed = []) {
  const esbuild = require("esbuild");
  if (options.minify && BUNDLE_MAPS) options = { ...options, sourcemap: "external" };
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
  await build({ entryPoints: [path.join(root, "provider", "tofu", "main.ts")], outfile: BUNDLES.tofu, minify: true, plugins: [await tofuInside()] }, "the OpenTofu face's bundle");
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
