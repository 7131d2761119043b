import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { request } from "undici";
import { type Emulator, startEmulator } from "../../emulator";
import { _assertNoSecrets, USER } from "../support/helpers";

describe("emulator: no secret in its log or error bodies (API keys, codes, verifiers, tokens)", () => {
  let emu: Emulator;
  const lines: string[] = [];
  const apiKey = "lowercase-api-key-secret-0042";
  before(async () => {
    emu = await startEmulator({ log: (line) => lines.push(line), apiKeys: [{ key: apiKey, username: USER.username }] });
  });
  after(() => emu.close());

  it("runs the code flow, API-key calls and failures, and finds none of the secrets in the log or bodies", async () => {
    const bodies: string[] = [];
    const login = await request(`${emu.url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...USER, return_to: "/oapi/v1/oauth_authorize?x=1" }).toString(),
    });
    await login.body.dump();
    const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
    const verifier = randomBytes(32).toString("base64url");
    const q = new URLSearchParams({
      client_id: "dns-account-cli",
      redirect_uri: "http://127.0.0.1:5000/callback",
      response_type: "code",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    });
    const auth = await request(`${emu.url}/oapi/v1/oauth_authorize?${q}`, { headers: { cookie } });
    await auth.body.dump();
    const code = new URL(String(auth.headers.location)).searchParams.get("code")!;
    const exchange = async (v: string) => {
      const res = await request(`${emu.url}/oapi/v1/oauth_token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code, client_id: "dns-account-cli", redirect_uri: "http://127.0.0.1:5000/callback", code_verifier: v }).toString(),
      });
      return res.body.text();
    };
    bodies.push(await exchange(`${verifier.slice(0, -1)}x`));
    const tokens = JSON.parse(await exchange(verifier)) as { access_token: string; refresh_token: string };
    bodies.push(await exchange(verifier));
    for (const authorization of [`ApiKey ${apiKey}`, `ApiKey ${apiKey}x`, `Bearer ${tokens.access_token}x`]) {
      const res = await request(`${emu.url}/oapi/v1/devices?token=${tokens.refresh_token}`, { headers: { authorization } });
      bodies.push(await res.body.text());
    }
    const bad = await request(`${emu.url}/oapi/v1/dns_servers`, {
      method: "POST",
      headers: { authorization: `ApiKey ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: apiKey.repeat(3), settings: { user_rules_settings: { rules: [apiKey.repeat(100)] } } }),
    });
    bodies.push(await bad.body.text());
    assert.ok(lines.length >= 8);
    _assertNoSecrets([...lines, ...bodies.slice(0, 2), bodies[3]!, bodies[4]!, bodies[5]!].join("\n"), [apiKey, code, verifier, tokens.access_token, tokens.refresh_token, USER.password]);
  });
});
