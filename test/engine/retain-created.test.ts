import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets, _closeAll } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _dynamicMissing, _engineMissing, type NodeProgramProject, _nodeProgramProject, type PulumiProject, _failWithout, _stackProject } from "../support/pulumi-cli";

const API_KEY = "key-ENGINE-RETAIN-9b27d4c6";

/** What the account has of the server and device (read by a client of its own, as a person would). */
async function held(dashboard: Client, serverId: string, deviceId: string): Promise<{ server: boolean; device: boolean; deviceInServer: boolean }> {
  const [servers, devices] = await Promise.all([dashboard.dnsServers.list(), dashboard.devices.list()]);
  const device = devices.find((d) => d.id === deviceId);
  return { server: servers.some((s) => s.id === serverId), device: device !== undefined, deviceInServer: device?.dns_server_id === serverId };
}

/** The YAML program: a DNS server and a device in it, `deleteOnDestroy` declared on both when given. */
function yamlProgram(deleteOnDestroy?: boolean): string {
  const declared = deleteOnDestroy === undefined ? "" : `\n      deleteOnDestroy: ${deleteOnDestroy}`;
  return `name: dns-account-engine-retain
runtime: yaml
resources:
  home:
    type: dns-account:index:DnsServer
    properties:
      name: Home${declared}
  laptop:
    type: dns-account:index:Device
    properties:
      name: Laptop
      deviceType: MAC
      dnsServerId: \${home.serverId}${declared}
outputs:
  serverId: \${home.serverId}
  deviceId: \${laptop.deviceId}
`;
}

/** The same program without its resources: `pulumi up` then removes them from the stack. */
const EMPTY_YAML = `name: dns-account-engine-retain
runtime: yaml
resources: {}
`;

/**
 * Issue 33 §4 under the real `pulumi`: a DNS server and a device the program created, then declared
 * `deleteOnDestroy: false`, then removed from the program, are still at the service after `pulumi up`
 * (which warns that it keeps them), through the native plugin (a YAML program) and through the
 * TypeScript dynamic resources (a Node.js program through the Node.js language host). Without the fix both were deleted.
 */
describe("engine: deleteOnDestroy: false keeps what the program created", function () {
  this.timeout(900_000);
  let emu: Emulator;
  let dashboard: Client;

  before(async () => {
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
  });

  after(async () => {
    await _closeAll(() => dashboard?.close(), () => emu?.close());
  });

  describe("a YAML program through the plugin", () => {
    let project: PulumiProject | undefined;

    before(async function () {
      _failWithout(_engineMissing("yaml"));
      const installed = await _installedProgram();
      project = await _stackProject("dns-account-engine-retain-yaml-", {
        env: { PATH: path.join(installed, "node_modules", ".bin") },
        program: yamlProgram(),
        config: { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: API_KEY } },
      });
    });

    after(() => project?.remove());

    it("created, declared false, removed from the program: up keeps the server and its device at the service, and says so", async () => {
      const pulumi = project!.pulumi;
      const logs: string[] = [];
      logs.push(await pulumi("up", "--yes"));
      const serverId = (await pulumi("stack", "output", "serverId")).trim();
      const deviceId = (await pulumi("stack", "output", "deviceId")).trim();
      assert.deepEqual(await held(dashboard, serverId, deviceId), { server: true, device: true, deviceInServer: true });

      writeFileSync(path.join(project!.dir, "Pulumi.yaml"), yamlProgram(false));
      const declared = await pulumi("up", "--yes");
      logs.push(declared);
      logs.push(await pulumi("preview", "--expect-no-changes"));

      writeFileSync(path.join(project!.dir, "Pulumi.yaml"), EMPTY_YAML);
      const removed = await pulumi("up", "--yes");
      logs.push(removed);
      assert.match(removed, /2 deleted/);
      assert.deepEqual(await held(dashboard, serverId, deviceId), { server: true, device: true, deviceInServer: true }, "both are still at the service, the device in its server");
      assert.match(declared, /2 updated/, "declaring it was an update of each (it calls nothing at the service)");
      assert.match(removed, new RegExp(`DnsServer ${serverId} is kept at the service`));
      assert.match(removed, new RegExp(`Device ${deviceId} is kept at the service`));
      const state = await pulumi("stack", "export");
      assert.doesNotMatch(state, /dns-account:index:DnsServer/, "the program forgot them");
      _assertNoSecrets(logs.join("\n") + state, [API_KEY]);

      // Re-adopted by another program, with deleteOnDestroy: true, they are then deleted: nothing is left over.
      writeFileSync(
        path.join(project!.dir, "Pulumi.yaml"),
        `name: dns-account-engine-retain
runtime: yaml
resources:
  home:
    type: dns-account:index:DnsServer
    properties:
      adopt: ${JSON.stringify(serverId)}
      deleteOnDestroy: true
  laptop:
    type: dns-account:index:Device
    properties:
      adopt: ${JSON.stringify(deviceId)}
      deleteOnDestroy: true
`,
      );
      await pulumi("up", "--yes");
      await pulumi("destroy", "--yes");
      assert.deepEqual(await held(dashboard, serverId, deviceId), { server: false, device: false, deviceInServer: false });
    });
  });

  describe("the TypeScript dynamic resources", () => {
    let project: NodeProgramProject | undefined;
    const program = (deleteOnDestroy?: boolean): string => {
      const declared = deleteOnDestroy === undefined ? "" : `, deleteOnDestroy: ${deleteOnDestroy}`;
      return `const { DnsServer, Device } = require("pulumi-dns-account");
const home = new DnsServer("home", { name: "Home"${declared} });
const laptop = new Device("laptop", { name: "Laptop", deviceType: "MAC", dnsServerId: home.serverId${declared} });
exports.serverId = home.serverId;
exports.deviceId = laptop.deviceId;
`;
    };

    before(async function () {
      _failWithout(_dynamicMissing());
      project = _nodeProgramProject("dns-account-engine-retain-dyn-", await _installedProgram(), { "index.js": program() });
      await project.config({ "dns-account:baseUrl": { value: emu.url }, "dns-account:apiKey": { value: API_KEY, secret: true } });
    });

    after(() => project?.remove());

    it("created, declared false, removed from the program: up keeps the server and its device at the service", async () => {
      const up = await project!.run("up");
      const serverId = up.outputs?.serverId?.value as string;
      const deviceId = up.outputs?.deviceId?.value as string;
      assert.deepEqual(await held(dashboard, serverId, deviceId), { server: true, device: true, deviceInServer: true });

      writeFileSync(path.join(project!.dir, "index.js"), program(false));
      const declared = await project!.run("up");

      writeFileSync(path.join(project!.dir, "index.js"), "");
      const removed = await project!.run("up");
      assert.equal(removed.summary?.resourceChanges?.delete, 2, JSON.stringify(removed.summary?.resourceChanges));
      assert.deepEqual(await held(dashboard, serverId, deviceId), { server: true, device: true, deviceInServer: true }, "both are still at the service, the device in its server");
      assert.equal(declared.summary?.resourceChanges?.update, 2, `declaring it was an update of each: ${JSON.stringify(declared.summary?.resourceChanges)}`);
      assert.match(removed.stdout ?? "", new RegExp(`DnsServer ${serverId} is kept at the service`));
      assert.match(removed.stdout ?? "", new RegExp(`Device ${deviceId} is kept at the service`));
      // What pulumi printed and the state as stored.
      const printed = [up, declared, removed].map((r) => r.stdout).join("\n");
      _assertNoSecrets(printed + (await project!.pulumi("stack", "export")), [API_KEY]);
    });
  });
});
