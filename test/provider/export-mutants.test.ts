import assert from "node:assert/strict";
import { importInputs as addressInputs } from "../../provider/dedicated-ipv4/lifecycle";
import { importInputs as deviceInputs } from "../../provider/device/lifecycle";
import { importInputs as serverInputs } from "../../provider/dns-server/lifecycle";
import { bulkImportFile, type ExportedResource, exportAccount, resourceName, typescriptProgram, uniqueNamer, UNMANAGED } from "../../provider/export";
import { type Client, createClient } from "../../sdk";
import { _closeAll, _useEmulator } from "../support/helpers";

/** The export in the test process (the CLI test runs it through the built bin): what mutation testing found unchecked. */
describe("export: names, order, inputs and the printed files (killing mutants)", () => {
  const emu = _useEmulator({ limits: { dedicated_ipv4: 3, devices: 10 } });
  let client: Client;
  before(() => {
    client = createClient({ baseUrl: emu().url, apiKey: "emulator-api-key-user", retry: { retries: 0 } });
  });
  after(() => _closeAll(() => client?.close()));

  it("resourceName: accents and quotes dropped, runs of other characters one '-', no leading or trailing '.' or '-', 60 characters, a fallback", () => {
    const cases: [string, string][] = [
      ["Kids' room", "kids-room"],
      ["Café Ünïcode", "cafe-unicode"],
      ["it’s `mine`", "its-mine"],
      ["..--Router--main!!..", "router-main"],
      ["a__b.c", "a__b.c"],
      ["A   B", "a-b"],
      ["-.x.-", "x"],
      ["!!!", "fallback"],
      ["", "fallback"],
      ["x".repeat(70), "x".repeat(60)],
    ];
    assert.deepEqual(cases.map(([name]) => resourceName(name, "fallback")), cases.map(([, want]) => want));
  });

  it("exportAccount: the default server first, then servers and devices by id, addresses by ip; unique names and variables; the import inputs", async () => {
    const [def] = await client.dnsServers.list();
    const a = await client.dnsServers.create({ name: "Phone" });
    const b = await client.dnsServers.create({ name: "Phone" });
    await client.dnsServers.updateSettings(b.id, { user_rules_settings: { enabled: true, rules: ["||b.example^"] } });
    const d1 = await client.devices.create({ name: "Phone", device_type: "IOS", dns_server_id: a.id });
    const d2 = await client.devices.create({ name: "", device_type: "ANDROID", dns_server_id: def!.id }).catch(() => client.devices.create({ name: "!!!", device_type: "ANDROID", dns_server_id: def!.id }));
    const ip1 = await client.dedicatedIpv4.allocate();
    const ip2 = await client.dedicatedIpv4.allocate();
    await client.devices.linkDedicatedIpv4(d1.id, ip2.ip);

    const out = await exportAccount(client);
    // The service lists servers with their user rules empty: the export reads each one by itself.
    const servers = await Promise.all((await client.dnsServers.list()).map((s) => client.dnsServers.get(s.id)));
    const devices = await client.devices.list();
    const addresses = await client.dedicatedIpv4.list();
    const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    const others = byId(servers.filter((s) => !s.default));
    const expected: ExportedResource[] = [
      { kind: "DnsServer", name: "default-server", variable: "defaultServer", id: def!.id, isDefault: true, inputs: serverInputs(servers.find((s) => s.default)!) },
      ...others.map((s, i): ExportedResource => ({ kind: "DnsServer", name: i === 0 ? "phone" : "phone-2", variable: i === 0 ? "phoneServer" : "phone2Server", id: s.id, isDefault: false, inputs: serverInputs(s) })),
      ...byId(devices).map((d): ExportedResource => ({ kind: "Device", name: "", variable: "", id: d.id, inputs: deviceInputs(d) })),
      ...[...addresses].sort((x, y) => (x.ip < y.ip ? -1 : 1)).map((x): ExportedResource => ({
        kind: "DedicatedIpv4", name: resourceName(`ip-${x.ip}`, "dedicated-ipv4"), variable: `ip${x.ip.split(".").join("_")}Address`, id: x.ip, inputs: addressInputs(x),
      })),
    ];
    // Device names: "phone" is taken by a server, so the Phone device is phone-3; the nameless one is
    // "device" (its variable keeps the kind's word: deviceDevice).
    for (const e of expected) {
      if (e.kind !== "Device") continue;
      e.name = e.id === d1.id ? "phone-3" : "device";
      e.variable = e.id === d1.id ? "phone3Device" : "deviceDevice";
    }
    assert.deepEqual(out, expected);
    assert.ok(d2.id && ip1.ip, "the account has what the export lists");
    assert.deepEqual(out.find((r) => r.id === ip2.ip)?.inputs, { deviceId: d1.id });
    assert.deepEqual(out.find((r) => r.id === ip1.ip)?.inputs, {});
  });

  const resources: ExportedResource[] = [
    { kind: "DnsServer", name: "home", variable: "homeServer", id: "s1", isDefault: true, inputs: { name: "Home", settings: { protectionEnabled: true } } },
    { kind: "DnsServer", name: "kids-server", variable: "kidsServer", id: "s2", isDefault: false, inputs: { name: "Kids", settings: { userRules: { enabled: true, rules: ["||a.example^"] } } } as never },
    { kind: "Device", name: "kids-room", variable: "kidsRoomDevice", id: "d1", inputs: { name: "Kids' room", deviceType: "IOS", dnsServerId: "s2", settings: { protectionEnabled: false, detectDohAuthOnly: true } } as never },
    { kind: "Device", name: "1phone", variable: "_1phoneDevice", id: "d2", inputs: { name: "1phone", deviceType: "ANDROID", dnsServerId: "elsewhere" } as never },
    { kind: "DedicatedIpv4", name: "ip-192.0.2.1", variable: "ip192_0_2_1Address", id: "192.0.2.1", inputs: { deviceId: "d1" } },
    { kind: "DedicatedIpv4", name: "ip-192.0.2.2", variable: "ip192_0_2_2Address", id: "192.0.2.2", inputs: {} },
    { kind: "DedicatedIpv4", name: "ip-192.0.2.3", variable: "ip192_0_2_3Address", id: "192.0.2.3", inputs: { deviceId: "gone" } },
  ];

  it("bulkImportFile: the resources' type, variable as name, resource name as logicalName and id, two-space JSON and a final newline", () => {
    assert.equal(
      bulkImportFile(resources.slice(0, 1)),
      '{\n  "resources": [\n    {\n      "type": "dns-account:index:DnsServer",\n      "name": "homeServer",\n      "logicalName": "home",\n      "id": "s1"\n    }\n  ]\n}\n',
    );
  });

  it("typescriptProgram: the whole program, references between resources as Outputs; only a referenced resource is a const, nothing is exported", () => {
    assert.equal(
      typescriptProgram(resources),
      `// Made by dns-account export --format typescript: the account as it was, adopted by the program.
// The next pulumi up changes nothing; change a value here and up applies it.
import { DnsServer, Device, DedicatedIpv4 } from "pulumi-dns-account";

new DnsServer("home", {
  adopt: "default",
  name: "Home",
  settings: {
    protectionEnabled: true,
  },
});

const kidsServer = new DnsServer("kids-server", {
  adopt: "s2",
  name: "Kids",
  settings: {
    userRules: {
      enabled: true,
      rules: [
        "||a.example^",
      ],
    },
  },
});

const kidsRoomDevice = new Device("kids-room", {
  adopt: "d1",
  name: "Kids' room",
  deviceType: "IOS",
  dnsServerId: kidsServer.serverId,
  settings: {
    protectionEnabled: false,
    detectDohAuthOnly: true,
  },
});

new Device("1phone", {
  adopt: "d2",
  name: "1phone",
  deviceType: "ANDROID",
  dnsServerId: "elsewhere",
  settings: {},
});

new DedicatedIpv4("ip-192.0.2.1", {
  adopt: "192.0.2.1",
  deviceId: kidsRoomDevice.deviceId,
});

new DedicatedIpv4("ip-192.0.2.2", {
  adopt: "192.0.2.2",
});

new DedicatedIpv4("ip-192.0.2.3", {
  adopt: "192.0.2.3",
  deviceId: "gone",
});
`,
    );
  });

  it("typescriptProgram imports only the kinds it uses, and nothing when there is nothing", () => {
    const program = typescriptProgram(resources.filter((r) => r.kind === "Device"));
    assert.match(program, /^import \{ Device \} from "pulumi-dns-account";$/m);
    assert.equal(program.match(/^import /gm)?.length, 1);
    assert.equal(
      typescriptProgram([]),
      "// Made by dns-account export --format typescript: the account as it was, adopted by the program.\n// The next pulumi up changes nothing; change a value here and up applies it.\n",
    );
  });
});

describe("export, second run: identifiers, order, concurrency, literals (killing mutants)", () => {
  const emu = _useEmulator({ limits: { devices: 20, dns_servers: 10, dedicated_ipv4: 3 } });
  let client: Client;
  before(() => {
    client = createClient({ baseUrl: emu().url, apiKey: "emulator-api-key-user", retry: { retries: 0 } });
  });
  after(() => _closeAll(() => client?.close()));

  it("UNMANAGED: the six service fields left out, each with its reason", () => {
    assert.deepEqual(UNMANAGED.map((u) => u.field), [
      "dns_servers.settings.parental_control_settings.blocked_filtering_categories",
      "dns_servers.settings.filter_lists_settings.filter_list[].enabled",
      "dns_servers.settings.parental_control_settings.blocked_services[].enabled",
      "dns_servers.settings.parental_control_settings.screen_time_schedule.daily_schedule[].from_time/to_time of a disabled day",
      "devices.doh_password",
      "dedicated_addresses.ipv4 of an adopted, unlinked address",
    ]);
    for (const u of UNMANAGED) assert.ok(u.reason.length > 20, u.field);
  });

  it("identifiers: camelCase of the name's words, '_' only between digits or before a leading digit, the kind's word once, unique ignoring case", async () => {
    const server = await client.dnsServers.create({ name: "!!!" });
    const names = ["Kids Room", "_x", "_", "a1b-2", "1-a2", "floor1-2nd", "ab-c", "abc"];
    for (const name of names) await client.devices.create({ name, device_type: "IOS", dns_server_id: server.id });
    const out = await exportAccount(client);
    assert.deepEqual(out.filter((r) => r.kind === "DnsServer").map((r) => [r.name, r.variable]), [["default-server", "defaultServer"], ["dns-server", "dnsServer"]]);
    const byName = new Map(out.filter((r) => r.kind === "Device").map((r) => [r.inputs.name, [r.name, r.variable]]));
    assert.deepEqual(names.map((n) => byName.get(n)), [
      ["kids-room", "kidsRoomDevice"],
      ["_x", "xDevice"],
      ["_", "unnamedDevice"],
      ["a1b-2", "a1b2Device"],
      ["1-a2", "_1A2Device"],
      ["floor1-2nd", "floor1_2ndDevice"],
      ["ab-c", byName.get("ab-c")![1]],
      ["abc", byName.get("abc")![1]],
    ]);
    // The second of the two by id is numbered: the first keeps its own spelling.
    assert.ok(
      [["abCDevice", "abcDevice2"], ["abCDevice2", "abcDevice"]].some((pair) => JSON.stringify(pair) === JSON.stringify([byName.get("ab-c")![1], byName.get("abc")![1]])),
      JSON.stringify([byName.get("ab-c"), byName.get("abc")]),
    );
  });

  it("order and reads: servers (default first) and devices by id, addresses by ip, whatever order the service lists them in; at most four servers read at a time", async () => {
    for (let i = 0; i < 5; i++) await client.dnsServers.create({ name: `s${i}` });
    await client.dedicatedIpv4.allocate();
    await client.dedicatedIpv4.allocate();
    const expected = await exportAccount(client);
    assert.ok(expected.filter((r) => r.kind === "DnsServer").length >= 7 && expected.filter((r) => r.kind === "DedicatedIpv4").length >= 2);
    let inFlight = 0;
    let most = 0;
    const reversed = {
      dnsServers: {
        list: async () => (await client.dnsServers.list()).reverse(),
        get: async (id: string) => {
          most = Math.max(most, ++inFlight);
          try {
            await new Promise((r) => setImmediate(r));
            return await client.dnsServers.get(id);
          } finally {
            inFlight--;
          }
        },
      },
      devices: { list: async () => (await client.devices.list()).reverse() },
      dedicatedIpv4: { list: async () => (await client.dedicatedIpv4.list()).reverse() },
    } as unknown as Client;
    assert.deepEqual(await exportAccount(reversed), expected);
    assert.equal(most, 4);
  });

  it("uniqueNamer: the first free suffix, as if counted from 2 each time (a name taken by a suffix gets its own)", () => {
    const names = uniqueNamer((n, i) => `${n}-${i}`);
    assert.deepEqual(["phone", "phone", "phone-2", "phone", "phone-3", "phone"].map(names), ["phone", "phone-2", "phone-2-2", "phone-3", "phone-3-2", "phone-4"]);
    const variables = uniqueNamer((v, i) => `${v}${i}`, (v) => v.toLowerCase());
    assert.deepEqual(["phoneDevice", "PhoneDevice", "phoneDevice2", "phoneDevice"].map(variables), ["phoneDevice", "PhoneDevice2", "phoneDevice22", "phoneDevice3"]);
    const many = uniqueNamer((n, i) => `${n}_${i}`);
    const labels = Array.from({ length: 20_000 }, () => many("phone"));
    assert.equal(new Set(labels).size, 20_000);
    assert.equal(labels.at(-1), "phone_20000");
  });

  it("an object listed twice (overlapping pages, a hostile service) is exported once, read once", async () => {
    const expected = await exportAccount(client);
    let reads = 0;
    const twice = <T>(list: T[]): T[] => [...list, ...list.slice().reverse()];
    const doubled = {
      dnsServers: { list: async () => twice(await client.dnsServers.list()), get: async (id: string) => (reads++, client.dnsServers.get(id)) },
      devices: { list: async () => twice(await client.devices.list()) },
      dedicatedIpv4: { list: async () => twice(await client.dedicatedIpv4.list()) },
    } as unknown as Client;
    const out = await exportAccount(doubled);
    assert.deepEqual(out, expected, "the same resources, names and variables as a listing without repeats");
    assert.equal(reads, expected.filter((r) => r.kind === "DnsServer").length, "each server read once");
    assert.equal(new Set(out.map((r) => `${r.kind} ${r.id}`)).size, out.length);
  });

  it("typescriptProgram: literals of empty and longer lists, null, left-out undefined, keys that are no identifiers; a device with no server", () => {
    const program = typescriptProgram([
      { kind: "Device", name: "d", variable: "dDevice", id: "d9", inputs: { name: "D", deviceType: "IOS", settings: { a: [], b: ["x", "y"], c: null, d: undefined, "a-b": 1, "1a": 2, ok_1: true } } as never },
    ]);
    assert.equal(
      program.split("\n").slice(4).join("\n"),
      `new Device("d", {
  adopt: "d9",
  name: "D",
  deviceType: "IOS",
  settings: {
    a: [],
    b: [
      "x",
      "y",
    ],
    c: null,
    "a-b": 1,
    "1a": 2,
    ok_1: true,
  },
});
`,
    );
  });
});
