import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { _packageVersion } from "../support/codegen-project";
import { _engineSuite } from "../support/engine-suite";
import { _repoRoot } from "../support/helpers";
import { _nodelessProject } from "../support/home-network-program";
import { _engineMissing } from "../support/pulumi-cli";

const run = promisify(execFile);
const API_KEY = "key-ENGINE-JAVA-5d2b7e41";
const VERSION = _packageVersion();
const EXAMPLE = path.join(_repoRoot(), "examples", "java-home-network");
/** The Maven local repository the Java tests use (test/package/sdks.test.ts too): downloads are kept between runs. */
const M2 = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-dns-account", "m2");
/** The tools Debian's `mvn` launcher script runs besides `java` (a `#!/bin/sh` script; `tr` reads .mvn/jvm.config). */
const MVN_SCRIPT_TOOLS = ["uname", "ls", "expr", "dirname", "tr"];

/** The folder of `command`'s real file (symlinks such as /usr/bin/mvn resolved), or undefined when it is not on PATH. */
function toolFolder(command: string): string | undefined {
  try {
    return path.dirname(realpathSync(execFileSync("/bin/sh", ["-c", `command -v ${command}`], { encoding: "utf8" }).trim()));
  } catch {
    return undefined;
  }
}

/** Seconds since `t0`, for the log. */
const since = (t0: number): string => ((Date.now() - t0) / 1000).toFixed(1);

/**
 * examples/java-home-network under the real engine as its users run it (issue 33 §2): a Maven project
 * written against the Java SDK generated from our schema (sdks/java, installed with `mvn install` from a
 * copy, into the tests' own Maven repository M2 — never the user's ~/.m2, asserted), the plugin from
 * `npm run package:plugin`'s linux-amd64 tarball installed with `pulumi plugin install --file`, and
 * `pulumi up` of the project folder (`runtime: java`), which starts `pulumi-language-java` (pulumi-java
 * v1.12.0, built by `npm run engine`); the host runs `mvn compile exec:java` in the folder. The example's
 * Maven dependencies are fetched once (Maven Central, through Maven itself) before the life, and every
 * Maven run of the life is `--offline` (the project's `.mvn/maven.config` in the copy): the pom pins all
 * it needs. PATH holds Java's and Maven's folders, the POSIX tools Maven's launcher script runs, and the
 * engine's folder: no Node.js (asserted). The life it goes through and what is checked at the emulator:
 * see `_homeNetworkLife`. Java is the slowest program here: the host starts Maven twice per `pulumi` command (plugins, then the program).
 */
describe("engine: a Java program through the generated SDK and the tarball plugin, without Node.js", function () {
  this.timeout(1_800_000);
  const suite = _engineSuite({
    missing: () =>
      _engineMissing("java") ??
      (toolFolder("java") ? undefined : "no java on PATH (the Java language host runs the program with Maven and Java)") ??
      (toolFolder("mvn") ? undefined : "no mvn on PATH (the Java language host runs the program with `mvn compile exec:java`)"),
    prefix: "dns-account-engine-java-",
    apiKey: API_KEY,
  });
  let pathDirs: string[] = [];
  const userM2Sdk = path.join(os.homedir(), ".m2", "repository", "io", "github", "pulumi-dns-account");
  let userM2SdkBefore = false;

  before(async () => {
    const javaBin = toolFolder("java");
    const mavenBin = toolFolder("mvn");
    assert.doesNotMatch(M2, /\s/, "the Maven repository's path has no spaces (.mvn/maven.config splits on them)");
    userM2SdkBefore = existsSync(userM2Sdk);
    const root = suite.root;
    // Maven's launcher (/usr/share/maven/bin/mvn on Debian) is a shell script: besides java it runs a few
    // POSIX tools, which live in /usr/bin beside node. They get a folder of their own.
    const tools = path.join(root, "tools");
    mkdirSync(tools);
    for (const tool of MVN_SCRIPT_TOOLS) {
      const dir = toolFolder(tool);
      assert.ok(dir, `${tool} is on PATH (Maven's launcher script runs it)`);
      symlinkSync(path.join(dir, tool), path.join(tools, tool));
    }
    pathDirs = [...new Set([mavenBin!, javaBin!, tools])];

    const packaged = Date.now();
    const status = (): string => execFileSync("git", ["status", "--porcelain", "--ignored", "--", "examples/java-home-network", "sdks/java"], { cwd: _repoRoot(), encoding: "utf8" });
    const statusBefore = status();
    // Maven's JVM with the quick compiler only, as the example's .mvn/jvm.config has it: a third of the time.
    const mvnEnv = { ...process.env, MAVEN_OPTS: "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" };
    const mvn = (cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> =>
      run("mvn", ["--batch-mode", "--no-transfer-progress", `-Dmaven.repo.local=${M2}`, ...args], { cwd, env: mvnEnv, maxBuffer: 64 * 1024 * 1024 });
    // The SDK as the README says (`mvn install` of sdks/java), from a copy: Maven writes target/ beside pom.xml.
    const sdk = path.join(root, "sdk-java");
    cpSync(path.join(_repoRoot(), "sdks", "java"), sdk, { recursive: true });
    await mvn(sdk, "--quiet", "install");
    assert.ok(existsSync(path.join(M2, "io", "github", "pulumi-dns-account", "dns-account", VERSION, `dns-account-${VERSION}.jar`)), "mvn install put the SDK's jar into M2");
    const installed = Date.now();
    // The example's dependencies and plugins into M2, online, by the command the language host runs first
    // (`exec:java` of Pulumi's bootstrap class, which lists the plugins the classpath names).
    const warm = path.join(root, "warm");
    cpSync(EXAMPLE, warm, { recursive: true, filter: (src) => path.basename(src) !== "target" });
    const packages = await mvn(warm, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.logFile=System.err", "compile", "exec:java", "-DmainClass=com.pulumi.bootstrap.internal.Main", "-DmainArgs=packages");
    // Debian's Maven ends its output with a colour reset (ESC[0m) even in batch mode.
    const listed = packages.stdout.replace(/\u001b\[[0-9;]*m/g, "").trim();
    assert.ok(Array.isArray(JSON.parse(listed)), `the bootstrap printed a JSON list:\n${listed}`);
    console.log(`      mvn install of the SDK in ${((installed - packaged) / 1000).toFixed(1)} s; the example's Maven dependencies and first compile in ${since(installed)} s`);
    assert.equal(status(), statusBefore, "the builds wrote nothing into the repository");
  });

  it("examples/java-home-network by pulumi up (the Java language host, Maven offline): up, no changes, refresh finds a dashboard edit, changed config updates, destroy; secrets only as ciphertext", async () => {
    const project = await _nodelessProject("dns-account-engine-java-program-", pathDirs, suite.projects);
    cpSync(EXAMPLE, project.dir, { recursive: true, filter: (src) => path.basename(src) !== "target" });
    // Every mvn the host starts in the folder reads .mvn/maven.config: the tests' repository, no network.
    mkdirSync(path.join(project.dir, ".mvn"), { recursive: true });
    writeFileSync(path.join(project.dir, ".mvn", "maven.config"), `--offline\n-Dmaven.repo.local=${M2}\n`);
    const t0 = Date.now();
    await suite.homeNetworkLife(project, "java");
    console.log(`      the life under pulumi in ${since(t0)} s`);
    assert.equal(existsSync(userM2Sdk), userM2SdkBefore, "nothing of the SDK went into the user's ~/.m2");
  });
});
