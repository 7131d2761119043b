import { createHash } from "node:crypto";
import { escapeHtml } from "../http/util";

/**
 * An Apple configuration profile (XML plist) that sets a device's encrypted DNS: `doh` (HTTPS) or
 * `dot` (TLS), with on-demand rules that skip the given Wi-Fi networks and excluded domains.
 * UUIDs are derived from the device id so the same device gets the same profile.
 *
 * @example
 * ```ts
 * const bytes = mobileConfig("doh", { id: "ab12", name: "Phone" }, "https://ab12.dns.emulator.invalid/dns-query", [], []);
 * ```
 */
export function mobileConfig(
  protocol: "doh" | "dot",
  device: { id: string; name: string },
  server: string,
  excludeWifi: readonly string[],
  excludeDomains: readonly string[],
): Buffer {
  const uuid = (salt: string): string => {
    const h = createHash("sha256").update(`${device.id}:${protocol}:${salt}`).digest("hex");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`.toUpperCase();
  };
  const x = escapeHtml;
  const strings = (items: readonly string[]): string => items.map((s) => `<string>${x(s)}</string>`).join("");
  const dns =
    protocol === "doh"
      ? `<key>DNSProtocol</key><string>HTTPS</string><key>ServerURL</key><string>${x(server)}</string>`
      : `<key>DNSProtocol</key><string>TLS</string><key>ServerName</key><string>${x(server)}</string>`;
  const rules = [
    ...(excludeWifi.length ? [`<dict><key>Action</key><string>Disconnect</string><key>SSIDMatch</key><array>${strings(excludeWifi)}</array></dict>`] : []),
    ...(excludeDomains.length
      ? [`<dict><key>Action</key><string>EvaluateConnection</string><key>ActionParameters</key><array><dict><key>DomainAction</key><string>NeverConnect</string><key>Domains</key><array>${strings(excludeDomains)}</array></dict></array></dict>`]
      : []),
    "<dict><key>Action</key><string>Connect</string></dict>",
  ].join("");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
<key>PayloadContent</key><array><dict>
<key>DNSSettings</key><dict>${dns}</dict>
<key>OnDemandRules</key><array>${rules}</array>
<key>PayloadDisplayName</key><string>${x(device.name)} (${protocol.toUpperCase()})</string>
<key>PayloadIdentifier</key><string>invalid.emulator.dns.${x(device.id)}.${protocol}.settings</string>
<key>PayloadType</key><string>com.apple.dnsSettings.managed</string>
<key>PayloadUUID</key><string>${uuid("settings")}</string>
<key>PayloadVersion</key><integer>1</integer>
</dict></array>
<key>PayloadDisplayName</key><string>${x(device.name)}</string>
<key>PayloadIdentifier</key><string>invalid.emulator.dns.${x(device.id)}.${protocol}</string>
<key>PayloadType</key><string>Configuration</string>
<key>PayloadUUID</key><string>${uuid("profile")}</string>
<key>PayloadVersion</key><integer>1</integer>
</dict></plist>
`;
  return Buffer.from(xml, "utf8");
}
