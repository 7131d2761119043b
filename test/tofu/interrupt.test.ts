import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets, _closeAll, _withLowerCase } from "../support/helpers";
import { _useTempDirs } from "../support/temp";
import { _failWithoutTofu, _tofuMissing } from "../support/tofu-cli";
import { _startTofu } from "../support/tofu-process";
import { type TofuProject, _tofuProject } from "../support/tofu-project";

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
  const tmp = _useTempDirs();
  let emu: Emulator;
  let dashboard: Client;
  let project: TofuProject;
  /** The emulator's answered requests, as "METHOD /path STATUS", as they finish. */
  const requests = new EventEmitter();
  const outputs: string[] = [];

  before(async () => {
    _failWithoutTofu(_tofuMissing());
    emu = await startEmulator({ users: [{ username: USERNAME, password: PASSWORD }], limits: { devices: DEVICES + 5 }, log: (line) => requests.emit("request", line) });
    emu.addApiKey(USERNAME, API_KEY);
    dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    project = _tofuProject(tmp("dns-account-tofu-interrupt-"), { DNS_ACCOUNT_USERNAME: USERNAME, DNS_ACCOUNT_PASSWORD: PASSWORD, DNS_ACCOUNT_BASE_URL: emu.url });
    project.write(`
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
`);
  });

  after(async () => {
    await _closeAll(
      () => {
        if (project) _assertNoSecrets(outputs.join("\n") + project.stateText(), _withLowerCase([PASSWORD, API_KEY]));
      },
      () => dashboard?.close(),
      () => emu?.close(),
    );
  });

  /** The device ids of the state, sorted: every instance of the counted resource (resources() gives the first). */
  const stateDeviceIds = (): string[] => {
    const text = project.stateText();
    if (!text) return [];
    const state = JSON.parse(text) as { resources?: { mode: string; type: string; instances: { attributes: { device_id?: string } }[] }[] };
    return (state.resources ?? [])
      .filter((r) => r.mode === "managed" && r.type === "dnsaccount_device")
      .flatMap((r) => r.instances.map((i) => String(i.attributes.device_id)))
      .sort();
  };
  const serviceDevices = async (): Promise<string[]> => (await dashboard.devices.list()).map((d) => d.id).sort();

  it("tofu stops cleanly: the providers survive the SIGINT, what was made is in the state, nothing is orphaned", async () => {
    const apply = _startTofu(project, ["apply", "-auto-approve"]);
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
    outputs.push(out);
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
    const applied = await project.ok(["apply", "-auto-approve"]);
    outputs.push(applied);
    assert.match(applied, /Apply complete!/);
    const inState = stateDeviceIds();
    assert.equal(inState.length, DEVICES);
    assert.deepEqual(await serviceDevices(), inState);
    const plan = await project.tofu(["plan", "-detailed-exitcode"]);
    outputs.push(plan.stdout + plan.stderr);
    assert.equal(plan.code, 0, plan.stdout + plan.stderr);
  });

  it("destroy leaves no device, and no live refresh token of the account", async () => {
    const destroyed = await project.ok(["destroy", "-auto-approve"]);
    outputs.push(destroyed);
    assert.match(destroyed, new RegExp(`Destroy complete! Resources: ${DEVICES + 1} destroyed`));
    assert.deepEqual(await serviceDevices(), []);
    assert.equal(emu.liveRefreshTokens(USERNAME), 0);
  });
});
