import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { _repoRoot } from "../support/helpers";

const SCRIPT = path.join(_repoRoot(), "scripts", "package-tofu.mjs");
const PASSPHRASE = "passphrase-RELEASE-SIGN-4c81e2b7";
type Sign = (sums: string, options: { keyId: string; passphrase?: string; env?: NodeJS.ProcessEnv }) => string;

/**
 * Issue 35 §2: `npm run package:tofu -- --sign-key <fingerprint>` signs the release's SHA256SUMS as the
 * registries want it (a detached binary `.sig`), with a key of the release machine's keyring whose
 * passphrase never appears as an argument. A throwaway key in a keyring of this test's own is used.
 */
describe("package:tofu: the SHA256SUMS signature", function () {
  this.timeout(120_000);
  // A short path: gpg-agent's socket lives in GNUPGHOME, and a socket path has at most 107 bytes.
  const home = mkdtempSync(path.join(tmpdir(), "gpg-"));
  const env = { ...process.env, GNUPGHOME: home };
  const gpg = (args: string[], input?: string) => spawnSync("gpg", ["--batch", "--no-tty", ...args], { env, input, encoding: "utf8" });
  let fingerprint = "";
  let sign: Sign;

  before(async function () {
    if (gpg(["--version"]).status !== 0) {
      console.log("      skipped: no gpg on this machine");
      this.skip();
    }
    const made = gpg(["--pinentry-mode", "loopback", "--passphrase-fd", "0", "--quick-gen-key", "Release signing (test) <release@example.com>", "ed25519", "sign", "never"], PASSPHRASE);
    assert.equal(made.status, 0, made.stderr);
    fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(gpg(["--with-colons", "--list-secret-keys"]).stdout)![1]!;
    sign = ((await import(pathToFileURL(SCRIPT).href)) as { signSums: Sign }).signSums;
  });

  after(() => {
    spawnSync("gpgconf", ["--kill", "gpg-agent"], { env });
    rmSync(home, { recursive: true, force: true });
  });

  it("a detached signature beside the file, which gpg verifies, and which a changed file fails", () => {
    const sums = path.join(home, "terraform-provider-dnsaccount_0.4.0_SHA256SUMS");
    writeFileSync(sums, "0".repeat(64) + "  terraform-provider-dnsaccount_0.4.0_linux_amd64.zip\n");
    const sig = sign(sums, { keyId: fingerprint, passphrase: PASSPHRASE, env });
    assert.equal(sig, `${sums}.sig`);
    assert.notEqual(readFileSync(sig)[0], "-".charCodeAt(0), "a binary signature, not an armoured one");
    const good = gpg(["--verify", sig, sums]);
    assert.equal(good.status, 0, good.stderr);
    assert.match(good.stderr, /Good signature/);
    writeFileSync(sums, "1".repeat(64) + "  terraform-provider-dnsaccount_0.4.0_linux_amd64.zip\n");
    assert.notEqual(gpg(["--verify", sig, sums]).status, 0);
  });

  it("a wrong passphrase signs nothing; the error holds no passphrase; a key that is no fingerprint is refused first", () => {
    const sums = path.join(home, "sums-wrong");
    writeFileSync(sums, "x\n");
    spawnSync("gpgconf", ["--kill", "gpg-agent"], { env });
    const wrong = "passphrase-WRONG-0d9f3a";
    assert.throws(() => sign(sums, { keyId: fingerprint, passphrase: wrong, env }), (err: Error) => {
      assert.ok(!err.message.includes(wrong) && !err.message.toLowerCase().includes(wrong.toLowerCase()));
      assert.ok(!err.message.includes(PASSPHRASE));
      return true;
    });
    assert.throws(() => sign(sums, { keyId: "release@example.com", env }), /--sign-key must be the key's fingerprint/);
  });
});
