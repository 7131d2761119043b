import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CONFIG_KEYS, ENV_KEYS } from "../../provider/credentials";
import { _repoRoot } from "../support/helpers";

// js-yaml comes with mocha (and @pulumi/pulumi): no dependency of its own for one test.
const yaml = require("js-yaml") as { load(text: string): unknown };

/** GitHub's anchor of a heading. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");

/** The README and docs/ stay true where a test can tell (issue 18 §5, issue 24): links, configuration reference, CI recipes. */
describe("README and the CI recipes", () => {
  const root = _repoRoot();
  const readme = readFileSync(path.join(root, "README.md"), "utf8");

  it("fits a newcomer's first screen and links every page of docs/; every relative link in README and docs/ resolves", () => {
    assert.ok(readme.split("\n").length < 250, `README.md has ${readme.split("\n").length} lines (issue 24: under 250)`);
    const pages = readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md"));
    for (const page of pages) assert.ok(readme.includes(`(docs/${page})`), `README links docs/${page}`);
    const broken: string[] = [];
    for (const file of ["README.md", ...pages.map((p) => `docs/${p}`)]) {
      const text = readFileSync(path.join(root, file), "utf8");
      const headings = new Set(text.split("\n").filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, ""))));
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file2, anchor] = target!.split("#");
        if (file2 === "") {
          if (!headings.has(anchor!)) broken.push(`${file}: #${anchor}`);
        } else if (!existsSync(path.join(root, path.dirname(file), file2!))) broken.push(`${file}: ${target}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it("the configuration reference names every stack config key and environment variable the code reads", () => {
    const doc = readFileSync(path.join(root, "docs", "installation-configuration.md"), "utf8");
    const start = doc.indexOf("## Configuration reference");
    assert.ok(start >= 0, "docs/installation-configuration.md has a Configuration reference");
    const end = doc.indexOf("\n## ", start + 1);
    const table = doc.slice(start, end < 0 ? undefined : end);
    for (const key of [...Object.values(CONFIG_KEYS), "dns-account:allowInsecureHttp"]) assert.ok(table.includes(`\`${key}\``), key);
    for (const name of [...Object.values(ENV_KEYS), "DNS_ACCOUNT_ALLOW_INSECURE_HTTP", "DNS_ACCOUNT_CONFIG_DIR", "DNS_ACCOUNT_CREDENTIAL_COMMAND_ENV"]) {
      assert.ok(table.includes(`\`${name}\``), name);
    }
    const schema = JSON.parse(readFileSync(path.join(root, "provider", "schema", "schema.json"), "utf8")) as { config: { variables: Record<string, { secret?: boolean }> } };
    for (const [key, spec] of Object.entries(schema.config.variables)) {
      const row = table.split("\n").find((l) => l.startsWith("|") && l.includes(`\`dns-account:${key}\``));
      assert.ok(row, key);
      assert.equal(row.split("|")[4]!.trim(), spec.secret ? "yes" : "no", `${key}: secret column agrees with the schema`);
    }
  });

  it("GitHub Actions: the API key comes from the secret store into the environment; nothing logs in", () => {
    const text = readFileSync(path.join(root, "examples", "ci", "github-actions.yml"), "utf8");
    const wf = yaml.load(text) as { jobs: Record<string, { env?: Record<string, string>; steps: { run?: string; with?: { command?: string } }[] }> };
    const job = Object.values(wf.jobs)[0]!;
    assert.equal(job.env?.DNS_ACCOUNT_API_KEY, "${{ secrets.DNS_ACCOUNT_API_KEY }}");
    assert.ok(!job.steps.some((s) => /dns-account\s+login/.test(s.run ?? "")), "no dns-account login");
    assert.deepEqual(job.steps.map((s) => s.with?.command).filter(Boolean), ["preview", "up"]);
  });

  it("GitLab: the API key is a CI/CD variable, never written in the file; nothing logs in", () => {
    const text = readFileSync(path.join(root, "examples", "ci", "gitlab-ci.yml"), "utf8");
    const ci = yaml.load(text) as Record<string, { script?: string[] } | unknown> & { variables?: Record<string, string>; before_script?: string[] };
    assert.equal(ci.variables?.DNS_ACCOUNT_API_KEY, undefined, "the key is not in the file");
    const scripts = Object.values(ci).flatMap((j) => (j as { script?: string[] } | null)?.script ?? []);
    assert.ok(!([...scripts, ...(ci.before_script ?? [])]).some((l) => /dns-account\s+login/.test(l)), "no dns-account login");
    assert.ok(scripts.some((l) => /^pulumi up\b/.test(l)));
    assert.ok(scripts.some((l) => /^pulumi preview\b/.test(l)));
  });
});
