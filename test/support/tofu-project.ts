import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot } from "./helpers";
import { _tofuBin, _tofuEnv } from "./tofu-cli";

const run = promisify(execFile);

/** The provider's source address, as configurations require it. */
export const TOFU_SOURCE = "registry.opentofu.org/pulumi-dns-account/dnsaccount";

/** The `terraform { required_providers … }` block every test configuration starts with. */
export const REQUIRED_PROVIDERS = `terraform {\n  required_providers {\n    dnsaccount = { source = "${TOFU_SOURCE}" }\n  }\n}\n`;

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
 * A tofu working folder whose provider is this checkout's built npm bin (`dist/provider/tofu/bin.js`),
 * through a `dev_overrides` entry of the folder's own CLI configuration (no `tofu init`, no mirror).
 */
export interface TofuProject {
  /** The folder that holds `main.tf` and the state. */
  dir: string;
  /** The environment every command gets (the test's own CLI configuration). */
  env: NodeJS.ProcessEnv;
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
 *
 * @example
 * ```ts
 * const project = _tofuProject(tmp("dns-account-tofu-"), { DNS_ACCOUNT_API_KEY: key });
 * project.write(`provider "dnsaccount" { base_url = "${emu.url}" }`);
 * await project.ok(["apply", "-auto-approve"]);
 * ```
 */
export function _tofuProject(root: string, extraEnv: NodeJS.ProcessEnv = {}): TofuProject {
  const plugins = path.join(root, "plugins");
  const dir = path.join(root, "config");
  mkdirSync(plugins, { recursive: true });
  mkdirSync(dir, { recursive: true });
  // tofu runs `terraform-provider-<type>` from the override folder: here, a wrapper around the npm bin.
  const wrapper = path.join(plugins, "terraform-provider-dnsaccount");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(_repoRoot(), "dist", "provider", "tofu", "bin.js"))} "$@"\n`);
  chmodSync(wrapper, 0o755);
  const env = _tofuEnv(root, `provider_installation {\n  dev_overrides {\n    "${TOFU_SOURCE}" = "${plugins}"\n  }\n  direct {}\n}\n`, extraEnv);
  const tofu = (args: string[], more: NodeJS.ProcessEnv = {}): Promise<TofuRun> =>
    // The options go right after the command (`providers lock`, `state rm`: after the subcommand), as
    // `import ADDR ID` takes its arguments last.
    run(path.join(_tofuBin(), "tofu"), commandLine(args), {
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
    write: (config) => writeFileSync(path.join(dir, "main.tf"), `${REQUIRED_PROVIDERS}${config}`),
    tofu,
    async ok(args, more) {
      const r = await tofu(args, more);
      if (r.code !== 0) throw new Error(`tofu ${args.join(" ")} exited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
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
