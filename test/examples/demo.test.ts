import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot } from "../support/helpers";

describe("npm run demo", function () {
  this.timeout(60_000);
  it("drives the Token lifecycle and an account as code through the dynamic-provider host and prints no secret", async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(_repoRoot(), "dist", "examples", "demo", "index.js")], {
      env: { ...process.env, DNS_ACCOUNT_DEMO_HOST: "1" },
    });
    for (const text of [
      /^1\. Started the dynamic-provider host/m,
      /^2\. Check: no failures$/m,
      /^3\. Create tok-[0-9a-f]+: access \[secret, 27 chars\]/m,
      /^4\. Renew, as if an hour had passed \(state rewritten to expire at \S+; diff: some, replaces: none\): .*refresh token unchanged$/m,
      /^5\. Rotate \(replaces: keepers, delete-before-replace: false\): created tok-\w+, then revoked tok-\w+$/m,
      /^6\. Out-of-band revoke, then refresh: the resource is gone$/m,
      /^7\. Recreate tok-/m,
      /^8\. Destroy: revoked tok-\w+ \(token calls: 7, revoke calls: 2\)$/m,
      /^9\. Create DnsServer \S+ "Home"/m,
      /^10\. Create Device \S+ on it: DoH https:\/\/\S+ \(\d+ with-auth addresses kept as secrets\)$/m,
      /^11\. Create DedicatedIpv4 [\d.]+, linked to /m,
      /^12\. Add a user rule: diff some, replaces none; updated in place$/m,
      /^14\. Refresh: blockTtlSeconds is now 3600; diff against the program: some$/m,
      /^15\. Up repairs the drift: block TTL 60 again; IP logging left off, as the dashboard set it$/m,
      /^16\. Adopt the default server \S+ \(adopt: "default"\)/m,
      /^17\. Destroy: deleted the device and the server; [\d.]+ unlinked and still allocated/m,
      /^Demo finished\.$/m,
    ]) {
      assert.match(stdout, text);
    }
    assert.match(stdout, /^DNS_ACCOUNT_DEMO_HOST=1: driving the dynamic-provider host directly/m, "says why it drives the host");
    // Times read in order: the renewed token expires after the created one and after the rewritten state.
    const created = Date.parse(/^3\. Create .*expires (\S+)$/m.exec(stdout)![1]!);
    const [, faked, renewed] = /^4\. .*expire at (\S+);.*expires (\S+); refresh/m.exec(stdout)!;
    assert.ok(Date.parse(renewed!) >= created, `${renewed} >= created`);
    assert.ok(Date.parse(renewed!) > Date.parse(faked!), `${renewed} > ${faked}`);
    const output = stdout + stderr;
    assert.ok(!output.includes("emulator-password"), "no password");
    // The emulator's tokens are 27 base64url characters; none may appear.
    assert.doesNotMatch(output, /[A-Za-z0-9_-]{27}/);
  });
});
