// Runs one operation of a Pulumi Automation API *inline program* under the real `pulumi` (the first on
// PATH), started by test/support/pulumi-inline.ts as `node inline-driver.js <request.json> <result.json>`
// with its working directory in the program folder. Everything Pulumi is required from that folder (its
// node_modules: an `npm pack` install of this package beside @pulumi/pulumi), so the program, the
// Automation API and the package share the one @pulumi/pulumi a user's program would load, and Pulumi
// serializes a dynamic resource's provider as a short require() of the installed package. The engine
// runs the program through the SDK's in-process language server: no pulumi-language-nodejs is needed;
// dynamic resources run in Pulumi's pulumi-resource-pulumi-nodejs, which resolves @pulumi/pulumi from
// the same folder.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** What the driver is asked to do (written by pulumi-inline.ts). */
export interface InlineRequest {
  projectName: string;
  stackName: string;
  /** The program module, relative to the program folder: its exports become the stack's outputs. */
  main: string;
  /** Stack configuration set before the operation (`secret` ones encrypted with the passphrase). */
  config?: Record<string, { value: string; secret?: boolean }>;
  op: "up" | "preview" | "refresh" | "destroy" | "outputs" | "none";
  /** Options of the operation (e.g. `{ replace: [urn] }`, `{ expectNoChanges: true }`). */
  options?: Record<string, unknown>;
}

/** What the driver answers (the operation's result; `error` with Pulumi's text when it failed). */
export interface InlineResult {
  stdout?: string;
  stderr?: string;
  summary?: { resourceChanges?: Record<string, number>; result?: string };
  changeSummary?: Record<string, number>;
  outputs?: Record<string, { value: unknown; secret: boolean }>;
  error?: string;
}

async function main(): Promise<void> {
  const [requestFile, resultFile] = process.argv.slice(2) as [string, string];
  const request = JSON.parse(readFileSync(requestFile, "utf8")) as InlineRequest;
  const fromProgram = createRequire(path.join(process.cwd(), "inline-driver.js"));
  /* eslint-disable @typescript-eslint/no-explicit-any -- the program folder's own @pulumi/pulumi, loaded by path */
  const auto = fromProgram("@pulumi/pulumi/automation") as any;
  const stack: any = await auto.LocalWorkspace.createOrSelectStack(
    { stackName: request.stackName, projectName: request.projectName, program: async () => ({ ...fromProgram(path.resolve(request.main)) }) },
    { workDir: process.cwd() },
  );
  /* eslint-enable @typescript-eslint/no-explicit-any */
  if (request.config) await stack.setAllConfig(request.config);
  let result: InlineResult = {};
  try {
    switch (request.op) {
      case "up":
      case "refresh":
      case "destroy":
        result = await stack[request.op](request.options ?? {});
        break;
      case "preview":
        result = await stack.preview(request.options ?? {});
        break;
      case "outputs":
        result = { outputs: await stack.outputs() };
        break;
      case "none":
        break;
    }
  } catch (err) {
    result = { error: err instanceof Error ? err.message : String(err) };
  }
  writeFileSync(resultFile, JSON.stringify(result));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
