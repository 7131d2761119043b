import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The OpenTofu version `scripts/install-tofu.sh` builds when `TOFU_VERSION` is not set: the newest
 * 1.12.x the Go module proxy serves here. The script's own default must say the same (the tofu script
 * test checks it).
 */
export const TOFU_DEFAULT_VERSION = "1.12.6";

/**
 * The OpenTofu version the tofu tests run: `TOFU_VERSION` (a leading "v" dropped), as the install
 * script reads it, else {@link TOFU_DEFAULT_VERSION}.
 *
 * @example
 * ```ts
 * _tofuVersion(); // "1.12.6"
 * ```
 */
export function _tofuVersion(): string {
  return versionOf("tofu");
}

/**
 * The folder holding `tofu` as `scripts/install-tofu.sh` (`npm run tofu`) leaves it:
 * `${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-dns-account/tofu/<version>/bin`, outside the repository;
 * `TOFU_BIN` overrides it.
 *
 * @example
 * ```ts
 * const tofu = path.join(_tofuBin(), "tofu");
 * ```
 */
export function _tofuBin(): string {
  return binOf("tofu");
}

/**
 * An environment for running `tofu` that reads nothing of the user's: `TF_CLI_CONFIG_FILE` names a CLI
 * configuration of the test's own, written into `dir` (`cliConfig`, empty by default; this machine
 * points `TF_CLI_CONFIG_FILE` at a file that does not exist), `TF_DATA_DIR` and `TF_PLUGIN_CACHE_DIR`
 * are cleared, the `TF_`-prefixed variables of the caller are dropped, and there is no color or
 * interactive input. `extra` is added last.
 *
 * @example
 * ```ts
 * const env = _tofuEnv(dir, 'provider_installation {\n  filesystem_mirror {\n    path = "/mirror"\n  }\n}\n');
 * execFileSync(path.join(_tofuBin(), "tofu"), ["init"], { cwd: dir, env });
 * ```
 */
export function _tofuEnv(dir: string, cliConfig = "", extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "tofu-cli.tfrc");
  writeFileSync(file, cliConfig);
  const kept = Object.entries(process.env).filter(([k]) => !k.startsWith("TF_") && !k.startsWith("DNS_ACCOUNT_"));
  return {
    ...Object.fromEntries(kept),
    TF_CLI_CONFIG_FILE: file,
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
    NO_COLOR: "1",
    CHECKPOINT_DISABLE: "1",
    ...extra,
  };
}

/**
 * Why the real `tofu` cannot run, or undefined when it can: no `tofu` in {@link _tofuBin}, or one that
 * does not answer `tofu version -json` with {@link _tofuVersion} (`npm run tofu` builds it).
 *
 * @example
 * ```ts
 * before(() => _failWithoutTofu(_tofuMissing()));
 * ```
 */
export function _tofuMissing(): string | undefined {
  return _cliMissing("tofu");
}

/**
 * Why `name` (tofu or terraform) cannot run, or undefined when it can: no executable in the folder its
 * install script leaves it in ({@link _tofuBin}, {@link _terraformBin}), or one that does not answer
 * `<name> version -json` with the version that script builds (`npm run <name>` builds it).
 *
 * @example
 * ```ts
 * before(() => _failWithoutTofu(_cliMissing("terraform")));
 * ```
 */
export function _cliMissing(name: TofuCli): string | undefined {
  const bin = binOf(name);
  const version = versionOf(name);
  const exe = path.join(bin, name);
  if (!existsSync(exe)) return `no ${name} in ${bin} (run "npm run ${name}")`;
  let out: string;
  try {
    const env = { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" };
    out = execFileSync(exe, ["version", "-json"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    return `${exe} does not answer "${name} version -json": ${(e as Error).message.split("\n")[0]} (run "npm run ${name}")`;
  }
  let said: unknown;
  try {
    said = (JSON.parse(out) as { terraform_version?: unknown }).terraform_version;
  } catch {
    return `${exe} answers "${name} version -json" with no JSON: ${out.slice(0, 200)}`;
  }
  return said === version ? undefined : `${exe} is version ${String(said)}, not ${version} (run "npm run ${name}")`;
}

/**
 * Fails the suite (throws from its `before` hook) when `missing` (from {@link _tofuMissing}) says the
 * real `tofu` cannot run: the tofu suite never goes green without it, as the real-engine suite never
 * does without Pulumi's engine (`_failWithout` in pulumi-cli.ts).
 *
 * @example
 * ```ts
 * describe("tofu: ...", () => {
 *   before(() => _failWithoutTofu(_tofuMissing()));
 * });
 * ```
 */
export function _failWithoutTofu(missing: string | undefined): void {
  if (missing === undefined) return;
  throw new Error(`the real tofu (or Terraform) cannot run this: ${missing}`);
}

/**
 * The Terraform version `scripts/install-terraform.sh` builds when `TERRAFORM_VERSION` is not set: the
 * newest the Go module proxy lists here. The script's own default must say the same
 * (test/tofu/tofu-script.test.ts checks it, for both scripts).
 */
export const TERRAFORM_DEFAULT_VERSION = "1.13.3";

/**
 * The Terraform version the Terraform tests run: `TERRAFORM_VERSION` (a leading "v" dropped), else
 * {@link TERRAFORM_DEFAULT_VERSION}.
 *
 * @example
 * ```ts
 * _terraformVersion(); // "1.13.3"
 * ```
 */
export function _terraformVersion(): string {
  return versionOf("terraform");
}

/**
 * The folder holding `terraform` as `scripts/install-terraform.sh` (`npm run terraform`) leaves it:
 * `${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-dns-account/terraform/<version>/bin`; `TERRAFORM_BIN` overrides it.
 *
 * @example
 * ```ts
 * const terraform = path.join(_terraformBin(), "terraform");
 * ```
 */
export function _terraformBin(): string {
  return binOf("terraform");
}

/** The CLIs the tofu tests drive: OpenTofu, and Terraform for the suites that say so. */
export type TofuCli = "tofu" | "terraform";

/** Each CLI's install-script variables (its version, the folder that overrides its bin) and default version. */
const VARIABLES: Record<TofuCli, { version: string; bin: string; fallback: string }> = {
  tofu: { version: "TOFU_VERSION", bin: "TOFU_BIN", fallback: TOFU_DEFAULT_VERSION },
  terraform: { version: "TERRAFORM_VERSION", bin: "TERRAFORM_BIN", fallback: TERRAFORM_DEFAULT_VERSION },
};

/** The version of `cli` its install script builds: its variable (a leading "v" dropped), else the default. */
function versionOf(cli: TofuCli): string {
  const v = process.env[VARIABLES[cli].version];
  return v ? v.replace(/^v/, "") : VARIABLES[cli].fallback;
}

/** Where the install script leaves `cli`: `${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-dns-account/<cli>/<version>/bin`, unless its bin variable says. */
function binOf(cli: TofuCli): string {
  const override = process.env[VARIABLES[cli].bin];
  if (override) return override;
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(cache, "pulumi-dns-account", cli, versionOf(cli), "bin");
}

/**
 * The executable of `cli`, as the tests run it.
 *
 * @example
 * ```ts
 * _cliPath("terraform"); // ~/.cache/pulumi-dns-account/terraform/1.13.3/bin/terraform
 * ```
 */
export function _cliPath(cli: TofuCli): string {
  return path.join(binOf(cli), cli);
}

