import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { _startTofu } from "../support/tofu-process";
import { _tofuSuite } from "../support/tofu-project";

const USERNAME = "tofu-interrupt@example.com";
const PASSWORD = "Pw-TOFU-Interrupt-91d0e6a2";
const API_KEY = "key-TOFU-INTERRUPT-4c8e13b9";
const DEVICES = 20;

/**
 * Issue 34, "Tests": a Ctrl-C in the middle of an apply of 20 devices. The terminal sends SIGINT to the
 * whole foreground process group, tofu and its provider processes: the providers ignore it (go-plugin's
 * rule), tofu asks them to stop (StopProvider), lets the calls in flight end, records what was made and
 * stops. The next apply converges, the devices at the service are exactly those in the state (nothing
 * orphaned by a call cut short), and destroy leaves none. The password logins of every provider process
 * are revoked throughout.
 */
describe("tofu: SIGINT in the middle of an apply of 20 devices", function () {
  this.timeout(600_000);
  /** The emulator's answered requests, as "METHOD /path STATUS", as they finish. */
  const requests = new EventEmitter();
  const suite = _tofuSuite({
    prefix: "dns-account-tofu-interrupt-",
    emulator: { users: [{ username: USERNAME, password: PASSWORD }], limits: { devices: DEVICES + 5 }, log: (line) => requests.emit("request", line) },
    dashboard: { username: USERNAME, apiKey: API_KEY },
    env: (emu) => ({ DNS_ACCOUNT_USERNAME: USERNAME, DNS_ACCOUNT_PASSWORD: PASSWORD, DNS_ACCOUNT_BASE_URL: emu.url }),
    secrets: () => [PASSWORD, API_KEY],
  });

  before(() =>
    suite.project.write(`
provider "dnsaccount" {}

resource "dnsaccount_dns_server" "home" {
  name = "Home"
}

resource "dnsaccount_device" "d" {
  count         = ${DEVICES}
  name          = "Device \${count.index}"
  device_type   = "MAC"
  dns_server_id = dnsaccount_dns_server.home.server_id
}
`),
  );

  /** The device ids of the state, sorted: every instance of the counted resource (resources() gives the first). */
  const stateDeviceIds = (): string[] => {
    const text = suite.project.stateText();
    if (!text) return [];
    const state = JSON.parse(text) as { resources?: { mode: string; type: string; instances: { attributes: { device_id?: string } }[] }[] };
    return (state.resources ?? [])
      .filter((r) => r.mode === "managed" && r.type === "dnsaccount_device")
      .flatMap((r) => r.instances.map((i) => String(i.attributes.device_id)))
      .sort();
  };
  const serviceDevices = async (): Promise<string[]> => (await suite.dashboard.devices.list()).map((d) => d.id).sort();

  it("tofu stops cleanly: the providers survive the SIGINT, what was made is in the state, nothing is orphaned", async () => {
    const apply = _startTofu(suite.project, ["apply", "-auto-approve"]);
    let created = 0;
    let onRequest: (line: string) => void = () => undefined;
    // Ctrl-C once the service has made some devices: the apply is in the middle of the 20.
    const interrupted = new Promise<true>((resolve) => {
      onRequest = (line) => {
        if (!/^POST \/oapi\/v1\/devices 200$/.test(line) || ++created < 3) return;
        requests.off("request", onRequest);
        process.kill(-apply.child.pid!, "SIGINT");
        resolve(true);
      };
      requests.on("request", onRequest);
    });
    const sent = await Promise.race([interrupted, apply.done.then(() => false as const)]);
    requests.off("request", onRequest);
    const r = await apply.done;
    const out = r.stdout + r.stderr;
    suite.record(out);
    assert.ok(sent, `the apply ended before the service made 3 devices:\n${out}`);
    assert.match(out, /Interrupt received/);
    assert.match(out, /Stopping operation/);
    assert.notEqual(r.code, 0, out);
    assert.equal(r.signal, null, "tofu exits by itself, not by the signal");
    assert.doesNotMatch(out, /plugin (crashed|exited)|did not respond|unexpected EOF|connection (refused|reset)|Unavailable/i, "the provider processes survived the SIGINT");
    const inState = stateDeviceIds();
    assert.ok(inState.length >= 3 && inState.length < DEVICES, `the apply stopped in the middle: ${inState.length} devices in the state\n${out}`);
    assert.deepEqual(await serviceDevices(), inState, "the devices at the service are exactly those in the state");
  });

  it("the next apply converges: all 20 devices, at the service exactly those in the state, then no changes", async () => {
    const applied = await suite.ok("apply", "-auto-approve");
    assert.match(applied, /Apply complete!/);
    const inState = stateDeviceIds();
    assert.equal(inState.length, DEVICES);
    assert.deepEqual(await serviceDevices(), inState);
    const plan = await suite.plan();
    assert.equal(plan.code, 0, plan.out);
  });

  it("destroy leaves no device, and no live refresh token of the account", async () => {
    const destroyed = await suite.ok("destroy", "-auto-approve");
    assert.match(destroyed, new RegExp(`Destroy complete! Resources: ${DEVICES + 1} destroyed`));
    assert.deepEqual(await serviceDevices(), []);
    assert.equal(suite.emu.liveRefreshTokens(USERNAME), 0);
  });
});
