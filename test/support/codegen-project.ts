import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot } from "./helpers";
import { _engineVersion, type PulumiProject } from "./pulumi-cli";
import { _pythonVenv, _sdkWheel, type PythonVenv } from "./python-venv";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The package's version (package.json), the plugin's and the SDKs'. */
export function _packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { version: string }).version;
}

/**
 * Why there is no `go` on PATH (the Go language host builds a program with it), or undefined when there
 * is; for {@link _failWithout} beside `_engineMissing("go")`.
 *
 * @example
 * ```ts
 * before(() => _failWithout(_engineMissing("go") ?? _goMissing()));
 * ```
 */
export function _goMissing(): string | undefined {
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "no go on PATH (the Go language host builds the program with it)";
  }
}

/** Installs the plugin from `tarball` (`npm run package:plugin`) into the project's PULUMI_HOME. */
export async function _installPlugin(project: PulumiProject, tarball: string): Promise<void> {
  await project.pulumi("plugin", "install", "resource", "dns-account", _packageVersion(), "--file", tarball);
}

/** Runs `cmd args` in `cwd` with the project's environment; rejects with its output. */
async function sh(project: PulumiProject, cmd: string, args: string[], cwd = project.dir): Promise<string> {
  try {
    const out = await run(cmd, args, { cwd, env: project.env, maxBuffer: 64 * 1024 * 1024 });
    return `${out.stdout}\n${out.stderr}`;
  } catch (err) {
    const e = err as Error & { stdout?: string; stderr?: string };
    e.message = `${cmd} ${args.join(" ")} failed: ${e.message}\n--- stdout\n${e.stdout ?? ""}\n--- stderr\n${e.stderr ?? ""}`;
    throw e;
  }
}

/**
 * Makes the project folder a TypeScript project as Pulumi's template does (package.json on
 * `@pulumi/pulumi` at the engine's version, tsconfig.json, `npm install`) whose `@pulumi-dns-account/dns-account`
 * is the SDK `pulumi package add dns-account` generates from the installed plugin's schema (the same
 * code generator and schema as sdks/nodejs) into `sdks/dns-account`. Returns what package add printed.
 */
export async function _typescriptProject(project: PulumiProject): Promise<string> {
  const pkg = JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  writeFileSync(
    path.join(project.dir, "package.json"),
    JSON.stringify(
      {
        name: "dns-account-codegen",
        main: "index.ts",
        devDependencies: { "@types/node": pkg.devDependencies["@types/node"], typescript: pkg.devDependencies.typescript },
        dependencies: { "@pulumi/pulumi": _engineVersion() },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(project.dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, outDir: "bin", target: "es2020", module: "commonjs", moduleResolution: "node" }, files: ["index.ts"] }, null, 2),
  );
  await sh(project, npm, ["install", "--prefer-offline", "--no-audit", "--no-fund"]);
  return await project.pulumi("package", "add", "dns-account");
}

/**
 * A virtual environment in `dir` with `pulumi` at the engine's version and the wheel of sdks/python
 * (the SDK generated from the schema) with its dependencies (`parver`, `semver`), for python projects
 * to name with `virtualenv: <dir>`.
 */
export async function _sdkVenv(dir: string, wheelDir: string): Promise<PythonVenv> {
  const venv = await _pythonVenv(dir);
  await venv.pip("install", `pulumi==${_engineVersion()}`);
  await venv.pip("install", await _sdkWheel(venv, wheelDir));
  return venv;
}

/** The Pulumi.yaml of a Python project named `name` running in the virtual environment `venv`. */
export function _pythonProgram(name: string, venv: string, rest = ""): string {
  return `name: ${name}\nruntime:\n  name: python\n  options:\n    virtualenv: ${venv}\n${rest}`;
}

/**
 * Makes the project folder a Go module on sdks/go (a `replace` with the absolute path, as a user's
 * program on a clone would) and `pulumi/sdk/v3` at the engine's version, its go.sum completed by
 * `go mod tidy` (modules through the Go module proxy, or its cache).
 */
export async function _goModule(project: PulumiProject): Promise<void> {
  const sdk = "github.com/pulumi-dns-account/pulumi-dns-account/sdks/go";
  writeFileSync(
    path.join(project.dir, "go.mod"),
    `module example.com/dnsaccountcodegen\n\ngo 1.25.11\n\nrequire (\n\t${sdk} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 v${_engineVersion()}\n)\n\nreplace ${sdk} => ${path.join(_repoRoot(), "sdks", "go")}\n`,
  );
  copyFileSync(path.join(_repoRoot(), "examples", "go-home-network", "go.sum"), path.join(project.dir, "go.sum"));
  await sh(project, "go", ["mod", "tidy"]);
}
