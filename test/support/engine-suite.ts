import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AccountSeedInput, type Emulator, type EmulatorOptions, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _packageVersion } from "./codegen-project";
import { _homeNetworkLife, _pluginTarball } from "./home-network-program";
import { _failWithout, type PulumiProject } from "./pulumi-cli";

/** Options of {@link _engineSuite}. */
export interface EngineSuiteOptions {
  /** Why the engine (or a tool the suite needs) cannot run the suite, checked first: the suite fails, it never skips. */
  missing: () => string | undefined;
  /** The prefix of the suite's temporary folder, which holds the plugin tarball. */
  prefix: string;
  /** An API key of the emulator's user@example.com: the key the programs use and `dashboard`'s. */
  apiKey: string;
  /** The emulator's options (a seeded account, say). */
  emulator?: EmulatorOptions;
}

/** What {@link _engineSuite} sets up; each field is there once the suite's first `before` hook has run. */
export interface EngineSuite {
  /** The suite's temporary folder, removed after the suite. */
  root: string;
  /** The plugin as `npm run package:plugin` makes it (linux-amd64), in `root`. */
  tarball: string;
  emu: Emulator;
  /** A client of the account by `apiKey`: what a user sees in the dashboard. */
  dashboard: Client;
  /** Projects to remove after the suite. */
  projects: PulumiProject[];
  /** {@link _homeNetworkLife} of `project` (a program of `runtime`) with this suite's plugin, emulator and key. */
  homeNetworkLife(project: PulumiProject, runtime: string): Promise<void>;
}

/**
 * The set-up the real-engine suites that install the plugin from its tarball share, as mocha hooks of
 * the `describe` that calls it: a `before` that fails without the engine (`missing`), makes a temporary
 * folder with the plugin tarball in it, starts an emulator with `apiKey` for user@example.com and a
 * dashboard client of it; an `after` that closes them and removes the projects and the folder. The
 * suite's own `before` hooks run after this one.
 *
 * @example
 * ```ts
 * describe("engine: …", function () {
 *   const suite = _engineSuite({ missing: () => _engineMissing("go"), prefix: "dns-account-engine-go-", apiKey: API_KEY });
 *   it("…", async () => {
 *     const project = _pulumiProject("dns-account-engine-go-program-");
 *     suite.projects.push(project);
 *     await _installPlugin(project, suite.tarball);
 *   });
 * });
 * ```
 */
export function _engineSuite(options: EngineSuiteOptions): EngineSuite {
  const suite = {
    projects: [] as PulumiProject[],
    homeNetworkLife: (project: PulumiProject, runtime: string) =>
      _homeNetworkLife({ project, runtime, tarball: suite.tarball, version: _packageVersion(), baseUrl: suite.emu.url, apiKey: options.apiKey, dashboard: suite.dashboard }),
  } as EngineSuite;
  before(async function () {
    _failWithout(options.missing());
    suite.root = mkdtempSync(path.join(os.tmpdir(), options.prefix));
    const started = Date.now();
    suite.tarball = await _pluginTarball(suite.root);
    console.log(`      plugin tarball in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    suite.emu = await startEmulator(options.emulator);
    suite.emu.addApiKey("user@example.com", options.apiKey);
    suite.dashboard = createClient({ baseUrl: suite.emu.url, apiKey: options.apiKey });
  });
  after(async () => {
    await suite.dashboard?.close();
    await suite.emu?.close();
    for (const p of suite.projects) p.remove();
    if (suite.root) rmSync(suite.root, { recursive: true, force: true });
  });
  return suite;
}

/**
 * A dashboard-made account for the emulator's `seed`: two servers with settings, devices whose names
 * collide once made names (`Phone 2`, `phone2`; `_`), a dedicated address. A new object each call.
 *
 * @example
 * ```ts
 * const emu = await startEmulator({ seed: _seededAccount() });
 * ```
 */
export function _seededAccount(): AccountSeedInput {
  return {
    version: 1,
    username: "user@example.com",
    synthetic_traffic: false,
    dns_servers: [
      {
        id: "home0001",
        name: "Home Server",
        default: true,
        settings: {
          user_rules_settings: { enabled: true, rules: ["||ads.example^", "@@||ok.example^"] },
          access_settings: { enabled: true, allowed_clients: ["192.168.1.0/24"], blocked_clients: ["10.0.0.0/8"], blocked_domain_rules: ["bad.example"], block_known_scanners: true },
          safebrowsing_settings: { enabled: true, block_dangerous_domains: true, block_nrd: false, blocking_mode_settings: { blocking_mode: "NXDOMAIN" } },
          block_ttl_seconds: 120,
        },
      },
      { id: "kids0001", name: "Kids", settings: { user_rules_settings: { enabled: true, rules: ["||games.example^"] }, protection_enabled: true } },
    ],
    devices: [
      { id: "phone001", name: "Phone", device_type: "IOS", dns_server_id: "home0001" },
      { id: "phone002", name: "Phone 2", device_type: "ANDROID", dns_server_id: "kids0001", settings: { protection_enabled: false } },
      { id: "phone003", name: "phone2", device_type: "ANDROID", dns_server_id: "home0001" },
      { id: "under001", name: "_", device_type: "ROUTER", dns_server_id: "home0001" },
    ],
    dedicated_ipv4: [{ ip: "198.51.100.7", device_id: "phone001" }],
  };
}
