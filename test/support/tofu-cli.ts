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
  const v = process.env.TOFU_VERSION;
  return v ? v.replace(/^v/, "") : TOFU_DEFAULT_VERSION;
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
  if (process.env.TOFU_BIN) return process.env.TOFU_BIN;
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(cache, "pulumi-dns-account", "tofu", _tofuVersion(), "bin");
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
  const tofu = path.join(_tofuBin(), "tofu");
  if (!existsSync(tofu)) return `no tofu in ${_tofuBin()} (run "npm run tofu")`;
  let out: string;
  try {
    const env = { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" };
    out = execFileSync(tofu, ["version", "-json"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    return `${tofu} does not answer "tofu version -json": ${(e as Error).message.split("\n")[0]} (run "npm run tofu")`;
  }
  let version: unknown;
  try {
    version = (JSON.parse(out) as { terraform_version?: unknown }).terraform_version;
  } catch {
    return `${tofu} answers "tofu version -json" with no JSON: ${out.slice(0, 200)}`;
  }
  return version === _tofuVersion() ? undefined : `${tofu} is version ${String(version)}, not ${_tofuVersion()} (run "npm run tofu")`;
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
  throw new Error(`the real tofu cannot run this: ${missing}`);
}
