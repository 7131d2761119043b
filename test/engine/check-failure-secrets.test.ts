import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { _assertNoSecrets, _errorText, _withLowerCase } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _dynamicMissing, _engineMissing, _nodeProgramProject, type PulumiProject, _failWithout, _stackProject } from "../support/pulumi-cli";

const USERNAME = "checks@example.com";
const PASSWORD = "pw-CHECKS-Live-4e9a7c21";
const LITERAL_PASSWORD = "pw-LITERAL-Typed-93b1d0ef";
const LITERAL_REFRESH = "rt-LITERAL-Typed-6f27ac54";
const LITERAL_KEY = "key-LITERAL-Typed-0d8e3b96";

/** What a failed `pulumi` command printed (stdout and stderr), or a failure of the test when it succeeded. */
async function failureOf(run: Promise<unknown>): Promise<string> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err !== undefined, "the command fails its check");
  const e = err as { stdout?: string; stderr?: string };
  return [_errorText(err), e.stdout ?? "", e.stderr ?? ""].join("\n");
}

/**
 * Issue 32 §2: the engine prints the value of the property a check failure names. No failure of Check or
 * CheckConfig, in either face, names a property whose value is or holds a secret, so what `pulumi`
 * prints never carries a password, refresh token or API key, whatever the program gave in clear. Each
 * case runs under the real engine with real secret strings and searches everything it printed.
 */
describe("engine: check failures never print a secret", function () {
  this.timeout(600_000);
  let emu: Emulator;
  let installed: string;
  const projects: PulumiProject[] = [];

  before(async () => {
    emu = await startEmulator({ users: [{ username: USERNAME, password: PASSWORD }] });
    installed = await _installedProgram();
  });

  after(async () => {
    await emu?.close();
    for (const p of projects) p.remove();
  });

  /** A YAML stack with the npm-installed plugin on PATH. */
  async function stack(program: string, config: Record<string, string | { secret: string }>): Promise<PulumiProject> {
    const p = await _stackProject("dns-account-engine-check-secrets-", { program, config, env: { PATH: path.join(installed, "node_modules", ".bin") } });
    projects.push(p);
    return p;
  }

  it("the plugin: a Token's literal password beside a refreshToken", async function () {
    _failWithout(_engineMissing("yaml"));
    const p = await stack(
      `name: check-secrets
runtime: yaml
resources:
  automation:
    type: dns-account:index:Token
    properties:
      baseUrl: ${emu.url}
      username: ${USERNAME}
      password: ${LITERAL_PASSWORD}
      refreshToken: ${LITERAL_REFRESH}
`,
      {},
    );
    const text = await failureOf(p.pulumi("preview"));
    assert.match(text, /has a problem/, text);
    assert.match(text, /refreshToken|password/, "the failure names the field in its reason");
    _assertNoSecrets(text, _withLowerCase([LITERAL_PASSWORD, LITERAL_REFRESH, p.env.PULUMI_CONFIG_PASSPHRASE!]));
  });

  it("the plugin: a provider's plaintext dns-account:password beside dns-account:refreshToken, and an apiKey beside a password", async function () {
    _failWithout(_engineMissing("yaml"));
    const program = `name: check-secrets
runtime: yaml
resources:
  home:
    type: dns-account:index:DnsServer
    properties:
      name: Home
`;
    // Plaintext stack config (`--plaintext`: the CLI refuses a value that looks like a secret otherwise).
    const plaintext = async (p: PulumiProject, values: Record<string, string>): Promise<void> => {
      for (const [k, v] of Object.entries(values)) await p.pulumi("config", "set", "--plaintext", k, v);
    };
    const a = await stack(program, { "dns-account:baseUrl": emu.url, "dns-account:username": USERNAME });
    await plaintext(a, { "dns-account:password": LITERAL_PASSWORD, "dns-account:refreshToken": LITERAL_REFRESH });
    const first = await failureOf(a.pulumi("preview"));
    assert.match(first, /has a problem/, first);
    const b = await stack(program, { "dns-account:baseUrl": emu.url, "dns-account:username": USERNAME });
    await plaintext(b, { "dns-account:apiKey": LITERAL_KEY, "dns-account:password": LITERAL_PASSWORD });
    const second = await failureOf(b.pulumi("preview"));
    assert.match(second, /has a problem/, second);
    _assertNoSecrets(first + second, _withLowerCase([LITERAL_PASSWORD, LITERAL_REFRESH, LITERAL_KEY, a.env.PULUMI_CONFIG_PASSPHRASE!, b.env.PULUMI_CONFIG_PASSPHRASE!]));
  });

  it("the plugin: credentials from a Token's output that the check refuses", async function () {
    _failWithout(_engineMissing("yaml"));
    const token = `name: check-secrets
runtime: yaml
resources:
  automation:
    type: dns-account:index:Token
`;
    const p = await stack(token, { "dns-account:baseUrl": emu.url, "dns-account:username": USERNAME, "dns-account:password": { secret: PASSWORD } });
    await p.pulumi("up", "--yes");
    const exported = JSON.parse(await p.pulumi("stack", "export", "--show-secrets")) as { deployment: { resources: { type: string; outputs?: { refreshToken?: { plaintext?: string } | string } }[] } };
    const held = exported.deployment.resources.find((r) => r.type === "dns-account:index:Token")?.outputs?.refreshToken;
    const live = typeof held === "object" ? (JSON.parse(held.plaintext!) as string) : held!;
    assert.ok(live.length > 8, "the Token's live refresh token");
    // A server whose credentials hold the Token's refresh token beside an API key: two ways in, refused.
    writeFileSync(
      path.join(p.dir, "Pulumi.yaml"),
      `${token}    properties: {}
  ciOnly:
    type: dns-account:index:DnsServer
    properties:
      name: CI only
      credentials:
        baseUrl: https://elsewhere.example
        refreshToken: \${automation.refreshToken}
        apiKey: ${LITERAL_KEY}
`,
    );
    const text = await failureOf(p.pulumi("preview"));
    assert.match(text, /has a problem/, text);
    assert.match(text, /credentials/, "the failure names credentials in its reason");
    await p.pulumi("destroy", "--yes");
    _assertNoSecrets(text, _withLowerCase([live, LITERAL_KEY, PASSWORD, p.env.PULUMI_CONFIG_PASSPHRASE!]));
  });

  it("the plugin: a misspelled dns-account:apikey is a warning naming apiKey and the hint beside No credentials; a wrong API key fails the preview", async function () {
    _failWithout(_engineMissing("yaml"));
    const program = `name: check-secrets
runtime: yaml
resources:
  home:
    type: dns-account:index:DnsServer
    properties:
      name: Home
`;
    const misspelled = await stack(program, { "dns-account:baseUrl": emu.url, "dns-account:apikey": { secret: LITERAL_KEY } });
    const text = await failureOf(misspelled.pulumi("preview"));
    assert.match(text, /dns-account:apikey is not a setting of this provider and is ignored: did you mean dns-account:apiKey\?/, text);
    assert.match(text, /No credentials[^]*dns-account:apikey is set[^]*did you mean dns-account:apiKey\?/, text);
    emu.addApiKey(USERNAME, "key-CHECKS-Real-2b7d10ce");
    const wrong = await stack(program, { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: LITERAL_KEY } });
    const refused = await failureOf(wrong.pulumi("preview"));
    assert.match(refused, /refused by the service[^]*invalid_api_key/, refused);
    await wrong.pulumi("config", "set", "dns-account:skipCredentialsValidation", "true");
    await wrong.pulumi("preview");
    _assertNoSecrets(text + refused, _withLowerCase([LITERAL_KEY, misspelled.env.PULUMI_CONFIG_PASSPHRASE!, wrong.env.PULUMI_CONFIG_PASSPHRASE!]));
  });

  it("dynamic resources: a Token's literal password beside a refreshToken", async function () {
    _failWithout(_dynamicMissing());
    const p = _nodeProgramProject("dns-account-engine-check-secrets-dyn-", installed, {
      "index.js": `
const { Token } = require("pulumi-dns-account");
new Token("automation", { baseUrl: ${JSON.stringify(emu.url)}, username: ${JSON.stringify(USERNAME)}, password: ${JSON.stringify(LITERAL_PASSWORD)}, refreshToken: ${JSON.stringify(LITERAL_REFRESH)} });
`,
    });
    projects.push(p);
    const text = await failureOf(p.run("preview"));
    assert.match(text, /has a problem/, text);
    _assertNoSecrets(text, _withLowerCase([LITERAL_PASSWORD, LITERAL_REFRESH, p.env.PULUMI_CONFIG_PASSPHRASE!]));
  });
});
