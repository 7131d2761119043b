/** `dns-account export`: the account's DNS servers, devices and dedicated IPv4 addresses as code. */
import { type Command, escapedSource, insecureOption, out, profileOption, UsageError, withClient } from "../command";

export const exportCommand: Command = {
  summary: "Print the account as a Pulumi bulk-import file (pulumi import --file), or as a TypeScript program",
  usage: `Usage: dns-account export [--format import|typescript] [--profile P] [--allow-insecure-http]

Reads every DNS server, device and dedicated IPv4 address of the account (credentials as for
dns-account token) and prints:
  --format import      (default) {"resources":[{"type","name","id"}, …]} for
                       pulumi import --file FILE, which writes the program in the stack's language
                       through the dns-account plugin
  --format typescript  a TypeScript program of the dynamic resources that adopts them all, with
                       every setting as it is now: the next pulumi up changes nothing
Names come from the objects' names (letters, digits, _ . -), made unique (phone, phone-2).`,
  options: { ...profileOption, ...insecureOption, format: { type: "string" } },
  async run(v) {
    const format = (v.format as string | undefined) ?? "import";
    if (format !== "import" && format !== "typescript") throw new UsageError("--format must be import or typescript");
    await withClient(v, async (client) => {
      const { bulkImportFile, exportAccount, typescriptProgram } = require("../../../provider/export") as typeof import("../../../provider/export");
      const resources = await exportAccount(client);
      const text = format === "import" ? bulkImportFile(resources) : typescriptProgram(resources);
      // Names are JSON-quoted in both formats: a bidi override or C1 control in one is written escaped.
      out(escapedSource(text.replace(/\n$/, "")));
    });
  },
};
