import assert from "node:assert/strict";
import fc from "fast-check";
import type { ExportedResource } from "../../provider/export";
import { hclConfiguration, hclName, hclString } from "../../provider/export-hcl";
import { terraformSchema } from "../../provider/tofu/schema";

/**
 * A quoted HCL string literal read back as HCL's scanner reads it (the test's own reading, not the
 * writer's): escapes decoded, `$${`/`%%{` as the literal `${`/`%{`. Fails on anything that would end
 * the string early or start a template sequence, or on a raw character HCL refuses in a quoted string.
 */
function readHclString(literal: string): string {
  assert.ok(literal.startsWith('"') && literal.endsWith('"') && literal.length >= 2, `quoted: ${literal}`);
  const s = literal.slice(1, -1);
  let out = "";
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (s.startsWith("$${", i) || s.startsWith("%%{", i)) {
      out += `${c}{`;
      i += 3;
    } else if (s.startsWith("${", i) || s.startsWith("%{", i)) {
      assert.fail(`a template sequence opens at ${i} in ${literal}`);
    } else if (c === '"') {
      assert.fail(`the string ends early at ${i} in ${literal}`);
    } else if (c === "\n" || c === "\r") {
      assert.fail(`a raw line break at ${i} in ${literal}`);
    } else if (c === "\\") {
      const e = s[i + 1];
      const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };
      if (e !== undefined && e in simple) {
        out += simple[e];
        i += 2;
      } else if (e === "u" && /^[0-9A-Fa-f]{4}$/.test(s.slice(i + 2, i + 6))) {
        const cp = parseInt(s.slice(i + 2, i + 6), 16);
        assert.ok(cp < 0xd800 || cp > 0xdfff, `\\u of a surrogate (invalid in HCL) in ${literal}`);
        out += String.fromCodePoint(cp);
        i += 6;
      } else if (e === "U" && /^[0-9A-Fa-f]{8}$/.test(s.slice(i + 2, i + 10))) {
        out += String.fromCodePoint(parseInt(s.slice(i + 2, i + 10), 16));
        i += 10;
      } else assert.fail(`an unknown escape at ${i} in ${literal}`);
    } else {
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      assert.doesNotMatch(ch, /[\u0000-\u001f\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/u, `a raw control or format character U+${cp.toString(16)} in ${literal}`);
      out += ch;
      i += ch.length;
    }
  }
  return out;
}

/** Names and values a service could return that break or reorder code written naively. */
const HOSTILE = [
  'say "hi"',
  "back\\slash\\",
  "${file(\"/etc/passwd\")}",
  "%{ for x in y }x%{ endfor }",
  "$${already} %%{escaped}",
  "$$${three}",
  "ends with $",
  "ends with %",
  "line\nbreak\r\nand\ttab",
  "bidi \u202Eevil\u202C and \u2066isolate\u2069",
  "C1 \u0085 \u009b and DEL \u007f",
  "line sep \u2028 para \u2029",
  "zero width \u200B\u200D\uFEFF",
  "tag \u{E0041} astral format",
  "emoji 😀 and Ünïcode ☃",
  "}\nresource \"x\" \"y\" {\n",
  "#comment // too /* and */",
  "<<EOT\nheredoc\nEOT",
  "",
];

describe("export --format hcl: the writer (issue 35)", () => {
  it("hclString: every hostile string is one quoted literal that reads back as itself, with no template sequence, no raw control or bidi character", () => {
    for (const s of HOSTILE) assert.equal(readHclString(hclString(s)), s, JSON.stringify(s));
    assert.equal(hclString('a "${b}"\n'), '"a \\"$${b}\\"\\n"');
    assert.equal(hclString("%{x} $${y} $$${z}"), '"%%{x} $$${y} $$$${z}"');
    assert.equal(hclString("a\u202Eb\u{E0041}\u0085"), '"a\\u202Eb\\U000E0041\\u0085"');
    assert.equal(hclString("$ % $x %y {"), '"$ % $x %y {"', "a $ or % not before { stays as it is");
  });

  it("hclString: any string (full Unicode) reads back as itself", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: fc.constantFrom("$", "%", "{", "}", "\\", '"', "\n", "\u202E", "a") }), (a, b) => {
        assert.equal(readHclString(hclString(a + b)), a + b);
      }),
      { numRuns: 500 },
    );
  });

  it("hclString: the same literal as the writer it replaced (a character at a time, which cost ~37x the value in memory), for any string", () => {
    // The earlier writer, kept as the oracle: one pass of one regular expression must say exactly what it said.
    const CONTROL = /^[\u0000-\u001f\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]$/u;
    const oracle = (value: string): string => {
      let out = '"';
      const chars = Array.from(value);
      for (const [i, ch] of chars.entries()) {
        const cp = ch.codePointAt(0)!;
        if (ch === "\\") out += "\\\\";
        else if (ch === '"') out += '\\"';
        else if (ch === "\n") out += "\\n";
        else if (ch === "\r") out += "\\r";
        else if (ch === "\t") out += "\\t";
        else if ((ch === "$" || ch === "%") && chars[i + 1] === "{") out += ch + ch;
        else if (cp >= 0xd800 && cp <= 0xdfff) out += "\\uFFFD";
        else if (CONTROL.test(ch)) out += cp > 0xffff ? `\\U${cp.toString(16).toUpperCase().padStart(8, "0")}` : `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
        else out += ch;
      }
      return `${out}"`;
    };
    const hostile = fc.constantFrom("$", "%", "{", "}", "$${", "\\", '"', "\n", "\r", "\t", "\u0000", "\u0085", "\u200b", "\u202e", "\u2028", "\ufeff", "\ud800", "\udc00", "\ud83d\ude00", "\u{E0001}", "a", "é");
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.array(hostile, { maxLength: 12 }), (a, parts) => {
        const value = a + parts.join("");
        assert.equal(hclString(value), oracle(value));
      }),
      { numRuns: 3000 },
    );
  });

  it("hclString: a lone surrogate, which UTF-8 cannot carry, is U+FFFD (never a \\uD800 that HCL refuses)", () => {
    assert.equal(hclString("a\uD800b"), '"a\\uFFFDb"');
    assert.equal(readHclString(hclString("\uDC00")), "\uFFFD");
  });

  it("hclName: lower-case identifiers of [a-z0-9_], a leading digit behind _, a fallback when nothing is left", () => {
    const cases: [string, string][] = [
      ["Kids' room", "kids_room"],
      ["Café Ünïcode ☃", "cafe_unicode"],
      ["..--Router--main!!..", "router_main"],
      ["a__b.c-d", "a_b_c_d"],
      ["2nd floor", "_2nd_floor"],
      ["${x}", "x"],
      ["%{ if true }", "if_true"],
      ['"; rm -rf /', "rm_rf"],
      ["line\nbreak", "line_break"],
      ["bidi\u202Eevil", "bidi_evil"],
      ["___", "fallback"],
      ["!!!", "fallback"],
      ["", "fallback"],
      ["ip-203.0.113.7", "ip_203_0_113_7"],
      ["x".repeat(70), "x".repeat(60)],
    ];
    assert.deepEqual(cases.map(([name]) => hclName(name, "fallback")), cases.map(([, want]) => want));
  });

  const server = (id: string, name: string, settings: object = {}, isDefault = false): ExportedResource => ({ kind: "DnsServer", name: "", variable: "", id, isDefault, inputs: { name, settings } as never });
  const device = (id: string, name: string, dnsServerId: string, settings = { protectionEnabled: true, detectDohAuthOnly: false }): ExportedResource => ({
    kind: "Device",
    name: "",
    variable: "",
    id,
    inputs: { name, deviceType: "IOS", dnsServerId, settings } as never,
  });

  it("hclConfiguration: the whole file; references to exported resources, a string id otherwise; labels unique per type; every setting; fmt's alignment", () => {
    const resources: ExportedResource[] = [
      server("s1", "Home", { protectionEnabled: true, blockTtlSeconds: 10 }, true),
      server("s2", "Kids' room", {
        blockingMode: { mode: "CUSTOM_IP", ipv4: "192.0.2.7" },
        userRules: { enabled: true, rules: ["||a.example^", "@@||b.example^"] },
        blockedServices: [],
        parentalControl: { enabled: true, schedule: {} },
      }),
      device("d1", "Phone", "s2"),
      device("d2", "phone", "s1", { protectionEnabled: false, detectDohAuthOnly: true }),
      device("d3", "phone 2", "elsewhere"),
      device("d4", "2nd floor", "s1"),
      { kind: "DedicatedIpv4", name: "", variable: "", id: "192.0.2.1", inputs: { deviceId: "d1" } },
      { kind: "DedicatedIpv4", name: "", variable: "", id: "192.0.2.2", inputs: {} },
      { kind: "DedicatedIpv4", name: "", variable: "", id: "192.0.2.3", inputs: { deviceId: "gone" } },
    ];
    assert.equal(
      hclConfiguration(resources),
      `# Made by dns-account export --format hcl: the account as it was, with an import block for each object.
# tofu plan shows only imports and no change; after tofu apply, change a value here and apply applies it.

# Drop this block if your configuration already declares the dnsaccount provider.
terraform {
  required_providers {
    dnsaccount = { source = "registry.opentofu.org/pulumi-dns-account/dnsaccount" }
  }
}

import {
  to = dnsaccount_dns_server.home
  id = "s1"
}

resource "dnsaccount_dns_server" "home" {
  name = "Home"
  settings {
    block_ttl_seconds  = 10
    protection_enabled = true
  }
}

import {
  to = dnsaccount_dns_server.kids_room
  id = "s2"
}

resource "dnsaccount_dns_server" "kids_room" {
  name = "Kids' room"
  settings {
    blocked_services = []
    blocking_mode {
      ipv4 = "192.0.2.7"
      mode = "CUSTOM_IP"
    }
    parental_control {
      enabled = true
      schedule {}
    }
    user_rules {
      enabled = true
      rules = [
        "||a.example^",
        "@@||b.example^",
      ]
    }
  }
}

import {
  to = dnsaccount_device.phone
  id = "d1"
}

resource "dnsaccount_device" "phone" {
  name          = "Phone"
  device_type   = "IOS"
  dns_server_id = dnsaccount_dns_server.kids_room.id
  settings {
    detect_doh_auth_only = false
    protection_enabled   = true
  }
}

import {
  to = dnsaccount_device.phone_2
  id = "d2"
}

resource "dnsaccount_device" "phone_2" {
  name          = "phone"
  device_type   = "IOS"
  dns_server_id = dnsaccount_dns_server.home.id
  settings {
    detect_doh_auth_only = true
    protection_enabled   = false
  }
}

import {
  to = dnsaccount_device.phone_2_2
  id = "d3"
}

resource "dnsaccount_device" "phone_2_2" {
  name          = "phone 2"
  device_type   = "IOS"
  dns_server_id = "elsewhere"
  settings {
    detect_doh_auth_only = false
    protection_enabled   = true
  }
}

import {
  to = dnsaccount_device._2nd_floor
  id = "d4"
}

resource "dnsaccount_device" "_2nd_floor" {
  name          = "2nd floor"
  device_type   = "IOS"
  dns_server_id = dnsaccount_dns_server.home.id
  settings {
    detect_doh_auth_only = false
    protection_enabled   = true
  }
}

import {
  to = dnsaccount_dedicated_ipv4.ip_192_0_2_1
  id = "192.0.2.1"
}

resource "dnsaccount_dedicated_ipv4" "ip_192_0_2_1" {
  device_id = dnsaccount_device.phone.id
}

import {
  to = dnsaccount_dedicated_ipv4.ip_192_0_2_2
  id = "192.0.2.2"
}

resource "dnsaccount_dedicated_ipv4" "ip_192_0_2_2" {}

import {
  to = dnsaccount_dedicated_ipv4.ip_192_0_2_3
  id = "192.0.2.3"
}

resource "dnsaccount_dedicated_ipv4" "ip_192_0_2_3" {
  device_id = "gone"
}
`,
    );
    assert.ok(!hclConfiguration(resources, { requiredProviders: false }).includes("terraform {"), "the terraform block can be left out");
  });

  it("hclConfiguration: hostile names and values stay inside string literals; labels are unique identifiers; every value reads back", () => {
    const resources: ExportedResource[] = [
      ...HOSTILE.map((name, i) => server(`s${i}`, name, { userRules: { enabled: true, rules: HOSTILE } })),
      ...HOSTILE.map((name, i) => device(`d"${i}\${x}`, name, `s${i}`)),
      { kind: "DedicatedIpv4", name: "", variable: "", id: '1.2.3.4"\n}${x}', inputs: { deviceId: "d\"0${x}" } },
    ];
    const text = hclConfiguration(resources);
    const literals: string[] = [];
    for (const [n, line] of text.split("\n").entries()) {
      if (line.startsWith("# ")) {
        assert.ok(/^# [A-Za-z .,;:'{}()-]+$/.test(line), `line ${n + 1}, a comment of the writer's own: ${line}`);
        continue;
      }
      // What is left once the string literals are out: the writer's own structure, nothing of the service's.
      const rest = line.replace(/"(?:[^"\\]|\\.)*"/g, (m) => (literals.push(readHclString(m)), '""'));
      assert.match(rest, /^ *(?:[a-z_][a-z0-9_.]* *= *(?:""|\[\]?|\{\}|true|false|[0-9]+|dnsaccount_[a-z_0-9.]+|\{ source = "" \})?|[a-z_][a-z0-9_]* \{\}?|resource "" "" \{\}?|import \{|""?,?|\]|\}|terraform \{|)$/, `line ${n + 1}: ${line}`);
    }
    for (const s of HOSTILE) assert.ok(literals.includes(s), `${JSON.stringify(s)} is written, as itself`);
    assert.ok(literals.includes('1.2.3.4"\n}${x}'), "an id is a string like any other");
    const labels = [...text.matchAll(/^resource "(\w+)" "([^"]*)"/gm)].map((m) => `${m[1]}.${m[2]}`);
    assert.equal(labels.length, resources.length);
    assert.equal(new Set(labels).size, labels.length, "labels are unique");
    for (const l of labels) assert.match(l.split(".")[1]!, /^[a-z_][a-z0-9_]*$/);
    assert.match(text, /dns_server_id = dnsaccount_dns_server\.say_hi\.id/, "references are kept whatever the names");
    assert.match(text, /device_id = dnsaccount_device\.say_hi\.id/);
  });

  it("hclConfiguration: names and blocks are the face's schema's: every argument written is one the resource type takes", () => {
    const schema = terraformSchema();
    const text = hclConfiguration([
      server("s1", "Home", {
        protectionEnabled: true,
        ipLogEnabled: false,
        blockTtlSeconds: 42,
        blockPrivateRelay: true,
        blockFirefoxCanary: false,
        blockChromePrefetch: true,
        autoConnectDevicesEnabled: true,
        blockingMode: { mode: "CUSTOM_IP", ipv4: "192.0.2.7", ipv6: "2001:db8::7" },
        userRules: { enabled: false, rules: ["||games.example^"] },
        filterLists: { enabled: false, ids: ["emulator_security"] },
        blockedServices: ["tiktok"],
        parentalControl: { enabled: true, blockAdultWebsites: true, safeSearch: true, youtubeSafeSearch: true, schedule: { monday: { from: "07:30", to: "21:00" } } },
        safeBrowsing: { enabled: false, blockDangerousDomains: false, blockNewlyRegisteredDomains: true, typosquatting: true, homoglyph: true, blockingMode: { mode: "NXDOMAIN" } },
        access: { enabled: true, allowedClients: ["192.0.2.0/24"], blockedClients: [], blockedDomainRules: ["blocked.example"], blockKnownScanners: false },
      }),
    ]);
    // Walk the resource block: each argument and block name must be in the schema block it is written in.
    const body = text.slice(text.indexOf('resource "dnsaccount_dns_server"'));
    const stack = [schema.resources.dnsaccount_dns_server!.block];
    let written = 0;
    for (const line of body.split("\n").slice(1)) {
      const block = /^ *([a-z_0-9]+) \{\}?$/.exec(line);
      const arg = /^ *([a-z_0-9]+) += /.exec(line);
      const top = stack[stack.length - 1]!;
      if (block) {
        const nested = top.block_types.find((b) => b.type_name === block[1]);
        assert.ok(nested, `block ${block[1]}`);
        written++;
        if (!line.endsWith("{}")) stack.push(nested.block);
      } else if (arg) {
        const a = top.attributes.find((x) => x.name === arg[1]);
        assert.ok(a && (a.optional || a.required), `argument ${arg[1]}`);
        written++;
      } else if (/^ *\}$/.test(line)) {
        stack.pop();
        if (stack.length === 0) break;
      }
    }
    assert.ok(written >= 40, `every setting is written (${written})`);
    assert.match(body, /monday \{\n {10}from = "07:30"\n {10}to {3}= "21:00"\n/);
  });
});
