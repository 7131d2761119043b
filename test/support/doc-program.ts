import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot } from "./helpers";
import { _nodelessProject, _pluginTarball } from "./home-network-program";
import { _installedProgram } from "./program";
import { _dynamicMissing, _engineMissing, _engineVersion, _failWithout, _grpcCalls, _nodeProgramProject, type PulumiProject } from "./pulumi-cli";
import { _pythonMissing, _pythonVenv, _sdkWheel, type PythonVenv } from "./python-venv";
import { type FencedBlock, fencedBlocks } from "./readme-blocks";

const run = promisify(execFile);
const ROOT = _repoRoot();
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
/** The Maven local repository of the Java tests (test/engine/java-program.test.ts, test/package/sdks.test.ts). */
const M2 = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-dns-account", "m2");
/** The tools Debian's `mvn` launcher script runs besides `java` (as test/engine/java-program.test.ts has them). */
const MVN_SCRIPT_TOOLS = ["uname", "ls", "expr", "dirname", "tr"];

/**
 * What every DocPrograms of the process shares (the tarball, the venv, the Java SDK's install), made on
 * first use in one folder that is removed when the process exits: the engine suite runs several files
 * that use them in one mocha process.
 */
const shared: { dir?: string; tarball?: Promise<string>; venv?: Promise<PythonVenv>; java?: Promise<{ tools: string }> } = {};
function sharedDir(): string {
  if (shared.dir === undefined) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-doc-programs-"));
    shared.dir = dir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return shared.dir;
}

/** Seconds since `t0`, for the timings the engine tests print. */
export const _since = (t0: number): string => ((Date.now() - t0) / 1000).toFixed(1);

/** Where a block is, for messages: `docs/resources.md line 41 (```typescript)`. */
export const _where = (b: FencedBlock): string => `${b.file} line ${b.line} (\`\`\`${b.lang})`;

/**
 * The fenced blocks of a page of the repository (`file` relative to its root), read when called: the
 * programs a test runs are the page's text, not copies. With `section`, only the blocks under the
 * `## section` heading (up to the next `## `).
 *
 * @example
 * ```ts
 * const blocks = _docBlocks("docs/_index.md", "Example"); // the overview's example in each language
 * ```
 */
export function _docBlocks(file: string, section?: string): FencedBlock[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const all = fencedBlocks(text, file);
  if (section === undefined) return all;
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.trimEnd() === `## ${section}`);
  assert.ok(start >= 0, `${file} has a "## ${section}" section`);
  const next = lines.findIndex((l, i) => i > start && /^## /.test(l));
  const end = next < 0 ? lines.length : next;
  return all.filter((b) => b.line > start && b.line <= end);
}

/**
 * The one block of `blocks` in language `lang` (and, with `first`, whose first line starts with it):
 * fails naming the page when there is none or more than one.
 *
 * @example
 * ```ts
 * const ts = _oneBlock(_docBlocks("docs/typescript.md"), "ts", 'import { Token,');
 * ```
 */
export function _oneBlock(blocks: FencedBlock[], lang: string, first?: string): FencedBlock {
  const found = blocks.filter((b) => b.lang === lang && (first === undefined || b.first.startsWith(first)));
  assert.equal(found.length, 1, `one \`\`\`${lang} block${first ? ` starting "${first}"` : ""} in ${blocks[0]?.file ?? "the page"}`);
  return found[0]!;
}

/** The folder of `command`'s real file (symlinks resolved), or undefined when it is not on PATH. */
export function _toolFolder(command: string): string | undefined {
  try {
    return path.dirname(realpathSync(execFileSync("/bin/sh", ["-c", `command -v ${command}`], { encoding: "utf8" }).trim()));
  } catch {
    return undefined;
  }
}

/** A documented program written, as it is, into a Pulumi project of its language; see {@link DocPrograms}. */
export interface DocProgram {
  block: FencedBlock;
  project: PulumiProject;
  /** Whether the program runs on the plugin from the tarball (every language but the TypeScript dynamic resources). */
  plugin: boolean;
  /** `pulumi <args>` in the project; a failure names the block ("docs/x.md line 3 (```go) as written, pulumi up: …"). */
  pulumi(...args: string[]): Promise<string>;
  /**
   * Installs the plugin from the tarball (when `plugin`), makes the stack `dev` and sets `config`
   * (`{ "dns-account:baseUrl": url, "dns-account:password": { secret: "…" } }`).
   */
  init(config: Record<string, string | { secret: string }>): Promise<void>;
  /** Asserts, from the gRPC log, that the engine ran the plugin of the tarball (at package.json's version). */
  assertPluginRan(): void;
}

/**
 * Runs documented Pulumi programs as written, each in a project of its language, under the real `pulumi`
 * (`npm run engine`), sharing what their languages need across a suite: one plugin tarball
 * (`npm run package:plugin`'s linux-amd64 one), one `npm pack` install for the TypeScript blocks, one
 * Python venv, one `mvn install` of sdks/java, each made once per process on first use.
 * - TypeScript (```` ```typescript ````, ```` ```ts ````): the dynamic resources of `pulumi-dns-account`
 *   from `npm pack` (_installedProgram), `runtime: nodejs`; Pulumi's Node.js host compiles index.ts.
 * - Python, Go, Java, YAML: the plugin from the tarball, installed with `pulumi plugin install --file`,
 *   on a PATH without Node.js (asserted). Python: a venv with `pulumi` at the engine's version and the
 *   wheel of sdks/python. Go: go.mod and go.sum of examples/go-home-network with sdks/go replaced by its
 *   absolute path (-mod=readonly). Java: the pom of examples/java-home-network with the block's class as
 *   main, the SDK `mvn install`ed into the tests' own Maven repository, Maven offline under pulumi.
 *   YAML: a block that is a whole Pulumi.yaml (it starts with `name:`) is written as it is; otherwise a
 *   `name` and `runtime: yaml` go before it.
 * A language whose host or toolchain is missing fails (never a silent pass).
 *
 * @example
 * ```ts
 * const programs = new DocPrograms();
 * const p = await programs.project(_oneBlock(_docBlocks("docs/_index.md", "Example"), "go"), "overview-go");
 * await p.init({ "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: key } });
 * await p.pulumi("up", "--yes", "--skip-preview");
 * programs.remove();
 * ```
 */
export class DocPrograms {
  /** Every project made, for {@link DocPrograms.remove}. */
  readonly projects: PulumiProject[] = [];

  /** The plugin tarball, made on first use in the process. */
  tarball(): Promise<string> {
    shared.tarball ??= (async () => {
      const t0 = Date.now();
      const tarball = await _pluginTarball(sharedDir());
      console.log(`      plugin tarball in ${_since(t0)} s`);
      return tarball;
    })();
    return shared.tarball;
  }

  /** Removes every project made by this DocPrograms. */
  remove(): void {
    for (const p of this.projects) p.remove();
  }

  /** `block` as the program of a new project named `name` (letters, digits and dashes), of the block's language. */
  async project(block: FencedBlock, name: string): Promise<DocProgram> {
    const prefix = `dns-account-doc-${name}-`;
    let project: PulumiProject;
    let plugin = true;
    switch (block.lang) {
      case "typescript":
      case "ts": {
        _failWithout(_engineMissing("nodejs"));
        _failWithout(_dynamicMissing());
        plugin = false;
        const installed = await _installedProgram();
        project = _nodeProgramProject(prefix, installed, { "Pulumi.yaml": `name: ${name}\nruntime: nodejs\n`, "index.ts": block.text });
        this.projects.push(project);
        break;
      }
      case "python": {
        _failWithout(_engineMissing("python"));
        _failWithout(_pythonMissing());
        const venv = await this.venv();
        project = await _nodelessProject(prefix, [venv.bin], this.projects);
        project.env.VIRTUAL_ENV = venv.dir;
        writeFileSync(path.join(project.dir, "Pulumi.yaml"), `name: ${name}\nruntime: python\n`);
        writeFileSync(path.join(project.dir, "__main__.py"), block.text);
        break;
      }
      case "go": {
        _failWithout(_engineMissing("go"));
        const goBin = _toolFolder("go");
        _failWithout(goBin ? undefined : "no go on PATH (the Go language host builds the program with it)");
        project = await _nodelessProject(prefix, [goBin!], this.projects);
        writeFileSync(path.join(project.dir, "Pulumi.yaml"), `name: ${name}\nruntime: go\n`);
        writeFileSync(path.join(project.dir, "main.go"), block.text);
        // The module files of examples/go-home-network (the same two requirements, every checksum), with
        // sdks/go by its absolute path; -mod=readonly: they must be enough as they are.
        for (const f of ["go.mod", "go.sum"]) copyFileSync(path.join(ROOT, "examples", "go-home-network", f), path.join(project.dir, f));
        await run("go", ["mod", "edit", `-module=${name}`, `-replace=github.com/pulumi-dns-account/pulumi-dns-account/sdks/go=${path.join(ROOT, "sdks", "go")}`], { cwd: project.dir });
        project.env.GOFLAGS = "-mod=readonly -buildvcs=false";
        break;
      }
      case "java":
        project = await this.javaProject(block, name, prefix);
        break;
      case "yaml": {
        _failWithout(_engineMissing("yaml"));
        project = await _nodelessProject(prefix, [], this.projects);
        const whole = /^name:/.test(block.first);
        writeFileSync(path.join(project.dir, "Pulumi.yaml"), whole ? block.text : `name: ${name}\nruntime: yaml\n${block.text}`);
        break;
      }
      default:
        throw new Error(`${_where(block)}: no project for \`\`\`${block.lang} blocks`);
    }
    return this.program(block, project, plugin);
  }

  private program(block: FencedBlock, project: PulumiProject, plugin: boolean): DocProgram {
    const grpcLog = path.join(path.dirname(project.dir), "grpc.jsonl");
    project.env.PULUMI_DEBUG_GRPC = grpcLog;
    const pulumi = async (...args: string[]): Promise<string> => {
      try {
        return await project.pulumi(...args);
      } catch (err) {
        (err as Error).message = `${_where(block)} as written, pulumi ${args[0]}: ${(err as Error).message}`;
        throw err;
      }
    };
    return {
      block,
      project,
      plugin,
      pulumi,
      init: async (config) => {
        if (plugin) await pulumi("plugin", "install", "resource", "dns-account", VERSION, "--file", await this.tarball());
        await pulumi("stack", "init", "dev");
        for (const [key, value] of Object.entries(config)) {
          if (typeof value === "string") await pulumi("config", "set", key, value);
          else await pulumi("config", "set", "--secret", key, value.secret);
        }
      },
      assertPluginRan: () => {
        const info = _grpcCalls(grpcLog).find((c) => c.method === "/pulumirpc.ResourceProvider/GetPluginInfo" && c.response.version);
        assert.equal(info?.response.version, VERSION, "the engine ran the plugin installed from the tarball");
      },
    };
  }

  /** One venv for the process: `pulumi` at the engine's version and the wheel of sdks/python. */
  private venv(): Promise<PythonVenv> {
    shared.venv ??= (async () => {
      const t0 = Date.now();
      const venv = await _pythonVenv(path.join(sharedDir(), "venv"));
      const wheel = await _sdkWheel(venv, path.join(sharedDir(), "wheels"));
      await venv.pip("install", `pulumi==${_engineVersion()}`, wheel);
      console.log(`      venv with pulumi ${_engineVersion()} and the SDK wheel in ${_since(t0)} s`);
      return venv;
    })();
    return shared.venv;
  }

  private mvn(cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
    const env = { ...process.env, MAVEN_OPTS: "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" };
    return run("mvn", ["--batch-mode", "--no-transfer-progress", `-Dmaven.repo.local=${M2}`, ...args], { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  }

  /** Once per process: the SDK `mvn install`ed into M2 (from a copy: Maven writes target/ beside pom.xml), and Maven's launcher tools. */
  private java(): Promise<{ tools: string }> {
    shared.java ??= (async () => {
      assert.doesNotMatch(M2, /\s/, "the Maven repository's path has no spaces (.mvn/maven.config splits on them)");
      // Maven's launcher script runs a few POSIX tools that live in /usr/bin beside node: a folder of their own.
      const tools = path.join(sharedDir(), "tools");
      mkdirSync(tools);
      for (const tool of MVN_SCRIPT_TOOLS) {
        const dir = _toolFolder(tool);
        assert.ok(dir, `${tool} is on PATH (Maven's launcher script runs it)`);
        symlinkSync(path.join(dir, tool), path.join(tools, tool));
      }
      const t0 = Date.now();
      const sdk = path.join(sharedDir(), "sdk-java");
      cpSync(path.join(ROOT, "sdks", "java"), sdk, { recursive: true });
      await this.mvn(sdk, "--quiet", "install");
      assert.ok(existsSync(path.join(M2, "io", "github", "pulumi-dns-account", "dns-account", VERSION, `dns-account-${VERSION}.jar`)), "mvn install put the SDK's jar into M2");
      console.log(`      mvn install of the Java SDK in ${_since(t0)} s`);
      return { tools };
    })();
    return shared.java;
  }

  private async javaProject(block: FencedBlock, name: string, prefix: string): Promise<PulumiProject> {
    _failWithout(_engineMissing("java"));
    const javaBin = _toolFolder("java");
    const mavenBin = _toolFolder("mvn");
    _failWithout(javaBin ? undefined : "no java on PATH (the Java language host runs the program with Maven and Java)");
    _failWithout(mavenBin ? undefined : "no mvn on PATH (the Java language host runs the program with `mvn compile exec:java`)");
    const pkg = /^package ([\w.]+);$/m.exec(block.text)?.[1];
    const cls = /^public class (\w+)/m.exec(block.text)?.[1];
    assert.ok(pkg && cls, `${_where(block)} names its package and public class`);
    const { tools } = await this.java();
    const t0 = Date.now();
    const project = await _nodelessProject(prefix, [...new Set([mavenBin!, javaBin!, tools])], this.projects);
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), `name: ${name}\nruntime: java\n`);
    // examples/java-home-network's Maven build (every plugin pinned, so `mvn -o` works), with the block's class as main.
    const examplePom = readFileSync(path.join(ROOT, "examples", "java-home-network", "pom.xml"), "utf8");
    const pom = examplePom.replace("<artifactId>java-home-network</artifactId>", `<artifactId>${name}</artifactId>`).replace("<mainClass>homenetwork.App</mainClass>", `<mainClass>${pkg}.${cls}</mainClass>`);
    assert.ok(pom.includes(`<artifactId>${name}</artifactId>`) && pom.includes(`<mainClass>${pkg}.${cls}</mainClass>`), "the example's pom names its artifact and main class as expected");
    writeFileSync(path.join(project.dir, "pom.xml"), pom);
    cpSync(path.join(ROOT, "examples", "java-home-network", ".mvn"), path.join(project.dir, ".mvn"), { recursive: true });
    const source = path.join(project.dir, "src", "main", "java", ...pkg.split("."));
    mkdirSync(source, { recursive: true });
    writeFileSync(path.join(source, `${cls}.java`), block.text);
    // The dependencies into M2, online, by the command the language host runs first (the bootstrap
    // listing the plugins the classpath names); every Maven run under pulumi is then --offline.
    const packages = await this.mvn(project.dir, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.logFile=System.err", "compile", "exec:java", "-DmainClass=com.pulumi.bootstrap.internal.Main", "-DmainArgs=packages");
    const listed = packages.stdout.replace(/\u001b\[[0-9;]*m/g, "").trim();
    assert.ok(Array.isArray(JSON.parse(listed)), `the bootstrap printed a JSON list:\n${listed}`);
    writeFileSync(path.join(project.dir, ".mvn", "maven.config"), `--offline\n-Dmaven.repo.local=${M2}\n`);
    console.log(`      the Java program's first compile in ${_since(t0)} s`);
    return project;
  }
}

/** The Maven repository the Java projects use, for a test that checks nothing went into the user's ~/.m2 instead. */
export const _docProgramsM2 = M2;
