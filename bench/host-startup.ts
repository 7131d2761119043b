/**
 * The language hosts' own start-up cost, for `npm run bench -- engine-up`: a Pulumi project per runtime
 * whose program declares nothing, previewed with `pulumi preview` (a fresh `pulumi` process, as a user
 * runs it) under the real engine. The time is the CLI's and engine's start-up plus the host's (start the
 * host, run the empty program, shut down): what every command of a program in that language pays before
 * any provider runs. Each project is made once and previewed once before the rounds (a warm-up: Go's
 * build cache and Maven's compiled classes are then warm, as on a user's second run), not counted.
 *
 * - nodejs: an empty `index.js` in a folder whose node_modules is the installed program's (@pulumi/pulumi);
 * - python: an empty `__main__.py` (`import pulumi`), the project's `virtualenv` a venv made by
 *   test/support/python-venv with `pulumi==<engine version>` and nothing else;
 * - go: `pulumi.Run` of a function that returns nil, from the go.mod and go.sum of
 *   examples/go-home-network (the host runs `go build`; `-mod=readonly`, nothing fetched once the module
 *   cache holds them);
 * - java: `Pulumi.run` of an empty lambda, the pom of examples/java-home-network without our SDK, Maven
 *   `--offline` against the tests' Maven repository (`~/.cache/pulumi-dns-account/m2`);
 * - yaml: a Pulumi.yaml with no resources.
 * A runtime that cannot run here is a row with the reason instead of a time.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { _repoRoot } from "../test/support/helpers";
import { _engineMissing, _engineVersion, _nodeProgramProject, _pulumiProject, type PulumiProject } from "../test/support/pulumi-cli";
import { _pythonMissing, _pythonVenv } from "../test/support/python-venv";

/** One runtime's empty program: `preview()` runs `pulumi preview` of it; `why` when it cannot run here. */
export interface HostProgram {
  runtime: string;
  /** Runs `pulumi preview` of the empty program (rejects with Pulumi's output on failure). */
  preview?: () => Promise<void>;
  /** Why this runtime is not measured. */
  why?: string;
  /** Removes the project. */
  remove(): void;
}

/** True when `command` is on PATH. */
function onPath(command: string): boolean {
  try {
    execFileSync("/bin/sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A project of `files` (a Pulumi.yaml among them) with its stack `dev` made; its preview. */
async function project(prefix: string, files: Record<string, string>, env: NodeJS.ProcessEnv = {}): Promise<{ p: PulumiProject; preview: () => Promise<void> }> {
  const p = _pulumiProject(prefix, env);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(p.dir, name)), { recursive: true });
    writeFileSync(path.join(p.dir, name), text);
  }
  await p.pulumi("stack", "init", "dev");
  return { p, preview: async () => void (await p.pulumi("preview")) };
}

/** A failed set-up or warm-up as a row: its first lines, no more. */
const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split("\n").filter((l) => l.trim()).slice(0, 3).join(" / ").slice(0, 300);

/**
 * Makes the empty program of each runtime (nodejs, python, go, java, yaml) and previews each once
 * (the warm-up); `installed` is the installed program folder (its node_modules serves the Node.js one).
 *
 * @example
 * ```ts
 * const hosts = await hostPrograms(await _installedProgram());
 * for (const h of hosts) if (h.preview) await h.preview();
 * ```
 */
export async function hostPrograms(installed: string): Promise<HostProgram[]> {
  const made: HostProgram[] = [];
  const add = async (runtime: string, missing: string | undefined, make: () => Promise<{ p: { remove(): void }; preview: () => Promise<void> }>): Promise<void> => {
    if (missing) {
      made.push({ runtime, why: missing, remove: () => undefined });
      return;
    }
    let removeIt = (): void => undefined;
    try {
      const { p, preview } = await make();
      removeIt = () => p.remove();
      process.stderr.write(`bench: engine-up: warm-up preview of the empty ${runtime} program…\n`);
      await preview();
      made.push({ runtime, preview, remove: removeIt });
    } catch (err) {
      removeIt();
      made.push({ runtime, why: `set-up or warm-up failed: ${reason(err)}`, remove: () => undefined });
    }
  };

  await add("nodejs", _engineMissing("nodejs"), async () => {
    const p = _nodeProgramProject("dns-account-bench-host-nodejs-", installed, { "index.js": "" });
    return { p, preview: async () => void (await p.run("preview")) };
  });

  await add("python", _engineMissing("python") ?? _pythonMissing(), async () => {
    const root = path.join(os.tmpdir(), `dns-account-bench-host-venv-${process.pid}`);
    const venv = await _pythonVenv(root);
    await venv.pip("install", `pulumi==${_engineVersion()}`);
    const made = await project("dns-account-bench-host-python-", {
      "Pulumi.yaml": `name: bench-host-python\nruntime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: ${root}\n`,
      "__main__.py": "import pulumi  # noqa: F401\n",
    });
    return { p: { remove: () => (made.p.remove(), rmSync(root, { recursive: true, force: true })) }, preview: made.preview };
  });

  await add("go", _engineMissing("go") ?? (onPath("go") ? undefined : "no go on PATH (the Go host builds the program with it)"), async () => {
    const example = path.join(_repoRoot(), "examples", "go-home-network");
    const made = await project(
      "dns-account-bench-host-go-",
      {
        "Pulumi.yaml": "name: bench-host-go\nruntime: go\n",
        "main.go": `package main\n\nimport "github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error { return nil })\n}\n`,
      },
      { GOFLAGS: "-mod=readonly -buildvcs=false" },
    );
    // The example's module requirements (the Pulumi Go SDK at the engine's version and its go.sum); our
    // SDK's `replace` names this repository's sdks/go, which the empty program never imports.
    copyFileSync(path.join(example, "go.sum"), path.join(made.p.dir, "go.sum"));
    writeFileSync(
      path.join(made.p.dir, "go.mod"),
      readFileSync(path.join(example, "go.mod"), "utf8")
        .replace(/^module .*$/m, "module bench-host-go")
        .replace(/=>\s*\.\.\/\.\.\/sdks\/go/, `=> ${path.join(_repoRoot(), "sdks", "go")}`),
    );
    return made;
  });

  const m2 = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-dns-account", "m2");
  await add("java", _engineMissing("java") ?? (onPath("java") && onPath("mvn") ? undefined : "no java or mvn on PATH (the Java host runs `mvn compile exec:java`)"), async () => {
    const example = path.join(_repoRoot(), "examples", "java-home-network");
    const pom = readFileSync(path.join(example, "pom.xml"), "utf8")
      .replace(/\s*<!-- The SDK generated[^]*?<\/dependency>/, "")
      .replace("<artifactId>java-home-network</artifactId>", "<artifactId>bench-host-java</artifactId>")
      .replace("<mainClass>homenetwork.App</mainClass>", "<mainClass>bench.App</mainClass>");
    if (pom.includes("dns-account</artifactId>")) throw new Error("examples/java-home-network/pom.xml: our SDK's dependency was not removed");
    return project("dns-account-bench-host-java-", {
      "Pulumi.yaml": "name: bench-host-java\nruntime: java\n",
      "pom.xml": pom,
      ".mvn/maven.config": `--offline\n-Dmaven.repo.local=${m2}\n`,
      ".mvn/jvm.config": readFileSync(path.join(example, ".mvn", "jvm.config"), "utf8"),
      "src/main/java/bench/App.java": "package bench;\n\nimport com.pulumi.Pulumi;\n\npublic class App {\n    public static void main(String[] args) {\n        Pulumi.run(ctx -> {});\n    }\n}\n",
    });
  });

  await add("yaml", _engineMissing("yaml"), () => project("dns-account-bench-host-yaml-", { "Pulumi.yaml": "name: bench-host-yaml\nruntime: yaml\n" }));
  return made;
}
