/** `dns-account export`: the account's DNS servers, devices and dedicated IPv4 addresses as code. */
import { type Command, escapedSource, insecureOption, json, out, profileOption, UsageError, withClient } from "../command";

export const exportCommand: Command = {
  summary: "Print the account as a Pulumi bulk-import file (pulumi import --file), a TypeScript program or an OpenTofu/Terraform configuration",
  usage: `Usage: dns-account export [--format import|typescript|hcl|seed] [--profile P] [--allow-insecure-http]

Reads every DNS server, device and dedicated IPv4 address of the account (credentials as for
dns-account token) and prints:
  --format import      (default) {"resources":[{"type","name","logicalName","id"}, …]} for
                       pulumi import --file FILE, which writes the program in the stack's language
                       through the dns-account plugin
  --format seed        an emulator seed (servers with rules, devices, addresses, quotas) for
                       dns-account emulator --seed FILE, to try the account offline
  --format typescript  a TypeScript program of the dynamic resources that adopts them all
  --format hcl         an OpenTofu/Terraform configuration (1.5 or newer): for each object an import
                       block and its resource block; tofu plan shows only imports and no change. It
                       starts with the terraform { required_providers } entry of dnsaccount: drop
                       that block when pasting into a configuration that already declares it
All four carry every property the resources manage, as it is now, so adopting them changes nothing.
What they do not manage is not carried: settings.blockedCategories (the service never reports it
back) and the others listed under "What the resources do not manage" in docs/plugin.md.
Resource names come from the objects' names (letters, digits, _ . -), made unique (phone, phone-2);
variable names are unique identifiers made of them (phoneDevice, phone2Device); in HCL, resource
labels are lower-case identifiers (phone, phone_2) and every string is escaped (no \${ or %{ template).`,
  options: { ...profileOption, ...insecureOption, format: { type: "string" } },
  async run(v) {
    const format = (v.format as string | undefined) ?? "import";
    if (format !== "import" && format !== "typescript" && format !== "hcl" && format !== "seed") throw new UsageError("--format must be import, typescript, hcl or seed");
    if (format === "seed") return exportSeed(v);
    if (format === "hcl") return exportHcl(v);
    await withClient(v, async (client) => {
      const { bulkImportFile, exportAccount, typescriptProgram } = require("../../provider/export") as typeof import("../../provider/export");
      const resources = await exportAccount(client);
      const text = format === "import" ? bulkImportFile(resources) : typescriptProgram(resources);
      // Names are JSON-quoted in both formats: a bidi override or C1 control in one is written escaped.
      out(escapedSource(text.replace(/\n$/, "")));
    });
  },
};

/** `--format hcl`: the account as OpenTofu/Terraform import and resource blocks (see provider/export-hcl.ts). */
async function exportHcl(v: Parameters<Command["run"]>[0]): Promise<void> {
  await withClient(v, async (client) => {
    const { exportAccount } = require("../../provider/export") as typeof import("../../provider/export");
    const { hclConfiguration } = require("../../provider/export-hcl") as typeof import("../../provider/export-hcl");
    // Every string is escaped by the writer (controls, bidi marks and template sequences included).
    out(hclConfiguration(await exportAccount(client)).replace(/\n$/, ""));
  });
}

/** `--format seed`: the account as an emulator seed (see emulator/seed/export.ts). */
async function exportSeed(v: Parameters<Command["run"]>[0]): Promise<void> {
  await withClient(v, async (client) => {
    const { accountSeedOf } = require("../../emulator/seed/export") as typeof import("../../emulator/seed/export");
    // As --json: a name's C1 control, bidi mark or line separator is written escaped, and means the same.
    out(json(await accountSeedOf(client), 2));
  });
}
