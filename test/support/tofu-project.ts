import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { type Emulator, type EmulatorOptions, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets, _closeAll, _repoRoot, _withLowerCase } from "./helpers";
import { _useTempDirs } from "./temp";
import { _sharedTofuRelease } from "./tofu-face";
import { _cliMissing, _cliPath, _failWithoutTofu, _tofuEnv, type TofuCli } from "./tofu-cli";

const run = promisify(execFile);

/** The provider's source address, as configurations require it. */
export const TOFU_SOURCE = "registry.opentofu.org/pulumi-dns-account/dnsaccount";

/** The provider's source address under Terraform, whose default registry host is registry.terraform.io (the mirror holds both). */
export const TERRAFORM_SOURCE = "registry.terraform.io/pulumi-dns-account/dnsaccount";

/** The source address a configuration of `cli` requires. */
const sourceOf = (cli: TofuCli): string => (cli === "terraform" ? TERRAFORM_SOURCE : TOFU_SOURCE);

/** The `terraform { required_providers … }` block of a configuration requiring `source`. */
const requiredProviders = (source: string): string => `terraform {\n  required_providers {\n    dnsaccount = { source = "${source}" }\n  }\n}\n`;

/** The `terraform { required_providers … }` block every test configuration starts with. */
export const REQUIRED_PROVIDERS = requiredProviders(TOFU_SOURCE);

/** `tofu <command> [<subcommand>] <our options> <the rest>`: no colour, and no input where tofu would ask. */
function commandLine(args: string[]): string[] {
  const words = ["providers", "state", "workspace"].includes(args[0]!) && args[1] !== undefined && !args[1].startsWith("-") ? 2 : 1;
  const options = [...(["output", "show", "state"].includes(args[0]!) ? [] : ["-no-color"]), ...(["plan", "apply", "destroy", "import", "refresh"].includes(args[0]!) ? ["-input=false"] : [])];
  return [...args.slice(0, words), ...options, ...args.slice(words)];
}

/** What a tofu command printed, and its exit code. */
export interface TofuRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * How a {@link TofuProject} gets its provider:
 * - `"mirror"`: as users install it. `tofu init` installs the release zip (`npm run package:tofu`'s
 *   linux-amd64 build, made once per test process: `_sharedTofuRelease`) from its packed filesystem mirror,
 *   the only installation method of the folder's CLI configuration (no network), and writes the lock file
 *   with the zip's hash; every command then runs the installed executable.
 * - `"dev_overrides"`: this checkout's built npm bin (`dist/provider/tofu/bin.js`), through a
 *   `dev_overrides` entry of the folder's CLI configuration (no `tofu init`, no mirror, no release build).
 */
export type TofuInstall = "mirror" | "dev_overrides";

/** Options of {@link _tofuProject}. */
export interface TofuProjectOptions {
  /** How the provider is installed: `"dev_overrides"` unless said. */
  install?: TofuInstall;
  /** The CLI that runs the commands: tofu unless said; Terraform requires the provider at {@link TERRAFORM_SOURCE}. */
  cli?: TofuCli;
}

/** A tofu working folder, its own CLI configuration naming where its provider comes from ({@link TofuInstall}). */
export interface TofuProject {
  /** The folder that holds `main.tf` and the state. */
  dir: string;
  /** The environment every command gets (the test's own CLI configuration). */
  env: NodeJS.ProcessEnv;
  /** How the provider was installed. */
  install: TofuInstall;
  /** The CLI that runs the commands. */
  cli: TofuCli;
  /** Writes `main.tf`: the required_providers block, then `config`. */
  write(config: string): void;
  /** Runs `tofu <args>` (no colour, no input); resolves whatever its exit code. */
  tofu(args: string[], extraEnv?: NodeJS.ProcessEnv): Promise<TofuRun>;
  /** Runs `tofu <args>` and fails, with everything it printed, unless it exits 0. */
  ok(args: string[], extraEnv?: NodeJS.ProcessEnv): Promise<string>;
  /** The state file's text (terraform.tfstate), empty when there is none. */
  stateText(): string;
  /** The resources of the state: `type.name` → their attributes. */
  resources(): Map<string, Record<string, unknown>>;
}

/**
 * A {@link TofuProject} in `root` (a temporary folder of the test's), with `env` added to every command.
 * Without options, or with `install: "dev_overrides"`, the provider is the npm bin and the project is
 * returned at once; with `install: "mirror"` the promise resolves once `tofu init` has installed the
 * release from the filesystem mirror (the release is built by the first such call of the process).
 *
 * @example
 * ```ts
 * const project = await _tofuProject(tmp("dns-account-tofu-"), { DNS_ACCOUNT_API_KEY: key }, { install: "mirror" });
 * project.write(`provider "dnsaccount" { base_url = "${emu.url}" }`);
 * await project.ok(["apply", "-auto-approve"]);
 * ```
 */
export function _tofuProject(root: string, extraEnv?: NodeJS.ProcessEnv, options?: { install?: "dev_overrides"; cli?: TofuCli }): TofuProject;
export function _tofuProject(root: string, extraEnv: NodeJS.ProcessEnv, options: { install: "mirror"; cli?: TofuCli }): Promise<TofuProject>;
export function _tofuProject(root: string, extraEnv: NodeJS.ProcessEnv, options: TofuProjectOptions): TofuProject | Promise<TofuProject>;
export function _tofuProject(root: string, extraEnv: NodeJS.ProcessEnv = {}, options: TofuProjectOptions = {}): TofuProject | Promise<TofuProject> {
  const cli = options.cli ?? "tofu";
  if (options.install === "mirror") return mirrorProject(root, extraEnv, cli);
  const plugins = path.join(root, "plugins");
  mkdirSync(plugins, { recursive: true });
  // tofu runs `terraform-provider-<type>` from the override folder: here, a wrapper around the npm bin.
  const wrapper = path.join(plugins, "terraform-provider-dnsaccount");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(_repoRoot(), "dist", "provider", "tofu", "bin.js"))} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return project(root, "dev_overrides", `provider_installation {\n  dev_overrides {\n    "${sourceOf(cli)}" = "${plugins}"\n  }\n  direct {}\n}\n`, extraEnv, cli);
}

/** The `"mirror"` install of {@link _tofuProject}: the folder's CLI configuration names the shared release's mirror, then `tofu init`. */
async function mirrorProject(root: string, extraEnv: NodeJS.ProcessEnv, cli: TofuCli): Promise<TofuProject> {
  if (process.platform !== "linux" || process.arch !== "x64") throw new Error(`the tofu tests' release is built for linux-amd64 only, not ${process.platform}-${process.arch}`);
  const release = await _sharedTofuRelease();
  const p = project(root, "mirror", `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(release.mirror)}\n  }\n}\n`, extraEnv, cli);
  // The requirements alone: what `tofu init` reads. The tests' configurations keep them (write() starts
  // every main.tf with them), so the installation and the lock file serve every later command.
  p.write("");
  const init = await p.ok(["init"]);
  if (!init.includes(`Installed pulumi-dns-account/dnsaccount v${release.version}`)) throw new Error(`${cli} init did not install the release from the mirror:\n${init}`);
  const lock = readFileSync(path.join(p.dir, ".terraform.lock.hcl"), "utf8");
  if (!new RegExp(`provider "${sourceOf(cli).replace(/[.]/g, "\\.")}" \\{\\s*version\\s*=\\s*"${release.version.replace(/[.]/g, "\\.")}"[\\s\\S]*?"h1:`).test(lock)) {
    throw new Error(`${cli} init locked no h1: hash of version ${release.version}:\n${lock}`);
  }
  return p;
}

/** A project in `root/config` whose commands get `cliConfig` as their CLI configuration, and `extraEnv`. */
function project(root: string, install: TofuInstall, cliConfig: string, extraEnv: NodeJS.ProcessEnv, cli: TofuCli): TofuProject {
  const dir = path.join(root, "config");
  mkdirSync(dir, { recursive: true });
  const env = _tofuEnv(root, cliConfig, extraEnv);
  const tofu = (args: string[], more: NodeJS.ProcessEnv = {}): Promise<TofuRun> =>
    // The options go right after the command (`providers lock`, `state rm`: after the subcommand), as
    // `import ADDR ID` takes its arguments last.
    run(_cliPath(cli), commandLine(args), {
      cwd: dir,
      env: { ...env, ...more },
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" }),
    );
  const stateText = (): string => {
    try {
      return readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    } catch {
      return "";
    }
  };
  return {
    dir,
    env,
    install,
    cli,
    write: (config) => writeFileSync(path.join(dir, "main.tf"), `${requiredProviders(sourceOf(cli))}${config}`),
    tofu,
    async ok(args, more) {
      const r = await tofu(args, more);
      if (r.code !== 0) throw new Error(`${cli} ${args.join(" ")} exited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
      return r.stdout + r.stderr;
    },
    stateText,
    resources() {
      const text = stateText();
      const out = new Map<string, Record<string, unknown>>();
      if (!text) return out;
      const state = JSON.parse(text) as { resources?: { mode: string; type: string; name: string; instances: { attributes: Record<string, unknown> }[] }[] };
      for (const r of state.resources ?? []) if (r.mode === "managed" && r.instances[0]) out.set(`${r.type}.${r.name}`, r.instances[0].attributes);
      return out;
    },
  };
}

/** One step of a path in tofu's state (`sensitive_attributes`). */
type StateStep = { type: "get_attr" | "index"; value: unknown };

/**
 * Where each of `secrets` sits in a tofu state file, outside the paths its resource marks sensitive:
 * `["dnsaccount_token.ci access_token"]` for a secret held where tofu would show it; empty when every
 * occurrence is under a sensitive attribute (tofu keeps those in plain text too, but never prints them).
 *
 * @example
 * ```ts
 * assert.deepEqual(_secretsOutsideSensitive(project.stateText(), [refreshToken]), []);
 * ```
 */
export function _secretsOutsideSensitive(stateText: string, secrets: readonly string[]): string[] {
  const state = JSON.parse(stateText) as {
    outputs?: Record<string, { value: unknown; sensitive?: boolean }>;
    resources?: { type: string; name: string; instances: { attributes: unknown; sensitive_attributes?: StateStep[][] }[] }[];
  };
  const found: string[] = [];
  const walk = (value: unknown, path: string[], sensitive: string[][], where: string): void => {
    if (sensitive.some((s) => s.every((step, i) => path[i] === step))) return;
    if (typeof value === "string") {
      if (secrets.some((secret) => value.includes(secret))) found.push(`${where} ${path.join(".")}`);
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, String(i)], sensitive, where));
    else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, [...path, k], sensitive, where);
  };
  for (const r of state.resources ?? []) {
    for (const instance of r.instances) {
      const sensitive = (instance.sensitive_attributes ?? []).map((steps) => steps.map((s) => String(s.value)));
      walk(instance.attributes, [], sensitive, `${r.type}.${r.name}`);
    }
  }
  for (const [name, output] of Object.entries(state.outputs ?? {})) if (!output.sensitive) walk(output.value, [], [], `output.${name}`);
  return found;
}

/** Options of {@link _tofuSuite}. */
export interface TofuSuiteOptions {
  /** The prefix of the project's temporary folder. */
  prefix: string;
  /** The emulator's options (its users, limits, request log…). */
  emulator?: EmulatorOptions;
  /** The account `dashboard` reads: its API key is added to the emulator for `username`. */
  dashboard: { username: string; apiKey: string };
  /** The environment of every tofu command of the project, once the emulator runs (its URL, the credentials). */
  env: (emu: Emulator) => NodeJS.ProcessEnv;
  /** The secrets no printed output (nor the state, with `searchState`) may hold, read after the suite; lower case added. */
  secrets: () => readonly string[];
  /** Whether the state file is searched too (true unless said): false where it holds secrets on purpose, under sensitive attributes. */
  searchState?: boolean;
  /** How the project's provider is installed: the filesystem mirror, as users do, unless said. */
  install?: TofuInstall;
  /** The CLI that runs the project's commands: tofu unless said. */
  cli?: TofuCli;
}

/** What {@link _tofuSuite} sets up; `emu`, `dashboard` and `project` are there once the suite's first `before` hook has run. */
export interface TofuSuite {
  emu: Emulator;
  /** A client of the `dashboard` account: what a user sees in the dashboard. */
  dashboard: Client;
  project: TofuProject;
  /** Temporary folders of the suite (`_useTempDirs`): removed after the secrets search. */
  tmp: (prefix: string) => string;
  /** Everything the suite's tofu commands printed, searched for the secrets after the suite. */
  printed: string[];
  /** Adds `out` to {@link TofuSuite.printed}, and returns it. */
  record(out: string): string;
  /** `tofu <args>` in the project, recorded; fails, with what it printed, unless it exits 0. */
  ok(...args: string[]): Promise<string>;
  /** `tofu <args>` in the project (`env` added), recorded: its exit code and stdout then stderr. */
  run(args: string[], env?: NodeJS.ProcessEnv): Promise<{ code: number; out: string }>;
  /** `tofu plan -detailed-exitcode`, recorded: 0 no changes, 2 changes. */
  plan(): Promise<{ code: number; out: string }>;
}

/**
 * The set-up the tofu suites share, as mocha hooks of the `describe` that calls it (as `_engineSuite` is
 * for the engine's): a `before` that fails without the real tofu, starts an emulator, adds the
 * dashboard's API key and a client of it, and makes the project (installed from the filesystem mirror
 * unless `install` says otherwise); an `after` that searches everything printed (and the state) for the
 * secrets, then closes the client and the emulator; then the temporary folders go. The suite's own
 * `before` hooks run after this one, its `after` hooks after this one's.
 *
 * @example
 * ```ts
 * describe("tofu: …", function () {
 *   const suite = _tofuSuite({
 *     prefix: "dns-account-tofu-x-",
 *     dashboard: { username: "user@example.com", apiKey: API_KEY },
 *     env: (emu) => ({ DNS_ACCOUNT_API_KEY: API_KEY, DNS_ACCOUNT_BASE_URL: emu.url }),
 *     secrets: () => [API_KEY],
 *   });
 *   it("applies", async () => {
 *     suite.project.write(`provider "dnsaccount" {}`);
 *     await suite.ok("apply", "-auto-approve");
 *   });
 * });
 * ```
 */
export function _tofuSuite(options: TofuSuiteOptions): TofuSuite {
  const printed: string[] = [];
  const record = (out: string): string => {
    printed.push(out);
    return out;
  };
  const run = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> => {
    const r = await suite.project.tofu(args, env);
    return { code: r.code, out: record(r.stdout + r.stderr) };
  };
  const suite: TofuSuite = {
    printed,
    record,
    ok: async (...args) => record(await suite.project.ok(args)),
    run,
    plan: () => run(["plan", "-detailed-exitcode"]),
  } as Partial<TofuSuite> as TofuSuite;
  before(async function () {
    _failWithoutTofu(_cliMissing(options.cli ?? "tofu"));
    suite.emu = await startEmulator(options.emulator);
    suite.emu.addApiKey(options.dashboard.username, options.dashboard.apiKey);
    suite.dashboard = createClient({ baseUrl: suite.emu.url, apiKey: options.dashboard.apiKey });
    const install = options.install ?? "mirror";
    if (install === "mirror") await _sharedTofuRelease();
    const started = Date.now();
    suite.project = await _tofuProject(suite.tmp(options.prefix), options.env(suite.emu), { install, cli: options.cli ?? "tofu" });
    if (suite.project.install === "mirror") console.log(`      ${suite.project.cli} init from the filesystem mirror in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
  after(async () => {
    await _closeAll(
      () => _assertNoSecrets(printed.join("\n") + (options.searchState !== false && suite.project ? suite.project.stateText() : ""), _withLowerCase(options.secrets())),
      () => suite.dashboard?.close(),
      () => suite.emu?.close(),
    );
  });
  // Registered after the `after` above: the folders (the state) are searched before they go.
  suite.tmp = _useTempDirs();
  return suite;
}
