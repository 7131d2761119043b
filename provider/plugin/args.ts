/**
 * The plugin's command line, read as the engine writes it and as Pulumi's Go providers read it (their
 * `flag.Parse()`, with glog's logging flags registered): the engine starts a resource plugin as
 *
 *     pulumi-resource-dns-account [--logtostderr] [-v=<level>] [--tracing <endpoint>] <engine-address>
 *
 * (`--logtostderr` and `-v` only under `pulumi --logflow`, `--tracing` under `pulumi --tracing <url>`).
 * Go's flag syntax: one or two dashes, `-name=value` or `-name value` for a flag that takes a value,
 * flags end at the first argument that is not one or after `--`. An unknown flag is refused, as a Go
 * provider refuses it, rather than taken for the engine's address (issue 32).
 */
import { ConfigError } from "../../sdk/errors";

/** What the engine passed the plugin. */
export interface PluginArgs {
  /** The engine's gRPC address (`127.0.0.1:<port>`); absent when the plugin was started by hand. */
  engineAddress?: string;
  /** `--tracing`: the engine's tracing endpoint (the plugin records no spans; it is accepted, not used). */
  tracing?: string;
  /** `--logtostderr`, under `pulumi --logflow`. */
  logToStderr: boolean;
  /** `-v=<level>`, under `pulumi --logflow -v=<level>`; 0 without. */
  verbose: number;
}

/** The flags a Go provider accepts: Pulumi's `--tracing` and glog's, by whether they take a value. */
const VALUE_FLAGS = new Set(["tracing", "v", "vmodule", "log_dir", "log_link", "logbuflevel", "log_backtrace_at", "stderrthreshold"]);
const BOOLEAN_FLAGS = new Set(["logtostderr", "alsologtostderr"]);
/** Go's strconv.ParseBool spellings. */
const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

function refuse(message: string, flag: string): never {
  throw new ConfigError(message, { field: flag });
}

/**
 * Reads the plugin's arguments (`process.argv.slice(2)`). Throws a {@link ConfigError} (code
 * `invalid_config`, `field` the flag, e.g. `--tracing`) for an unknown flag, a flag without its value,
 * a `-v` that is not a level, or more than one argument after the flags.
 *
 * @example
 * ```ts
 * parsePluginArgs(["--tracing", "tcp://127.0.0.1:4000", "127.0.0.1:50051"]);
 * // { engineAddress: "127.0.0.1:50051", tracing: "tcp://127.0.0.1:4000", logToStderr: false, verbose: 0 }
 * ```
 */
export function parsePluginArgs(argv: readonly string[]): PluginArgs {
  const result: PluginArgs = { logToStderr: false, verbose: 0 };
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.length < 2 || !arg.startsWith("-")) break;
    if (arg === "--") {
      i++;
      break;
    }
    const body = arg.slice(arg.startsWith("--") ? 2 : 1);
    if (body === "" || body.startsWith("-") || body.startsWith("=")) refuse(`bad flag syntax in argument ${i + 1}`, `argument ${i + 1}`);
    const eq = body.indexOf("=");
    const name = eq < 0 ? body : body.slice(0, eq);
    const flag = `--${name}`;
    let value = eq < 0 ? undefined : body.slice(eq + 1);
    if (BOOLEAN_FLAGS.has(name)) {
      if (value !== undefined && !TRUE.has(value) && !FALSE.has(value)) refuse(`${flag} takes true or false`, flag);
      if (name === "logtostderr") result.logToStderr = value === undefined || TRUE.has(value);
      continue;
    }
    if (!VALUE_FLAGS.has(name)) refuse(`unknown flag ${flag} (the plugin takes --tracing, --logtostderr, -v and the engine's address)`, flag);
    if (value === undefined) {
      if (i + 1 >= argv.length) refuse(`${flag} needs a value`, flag);
      value = argv[++i]!;
    }
    if (name === "tracing") result.tracing = value;
    if (name === "v") {
      if (!/^\d+$/.test(value)) refuse("-v takes a level (a whole number)", "-v");
      result.verbose = Number(value);
    }
  }
  const rest = argv.slice(i);
  if (rest.length > 1) refuse("the plugin takes one argument after its flags: the engine's address", "engine-address");
  if (rest.length === 1) result.engineAddress = rest[0]!;
  return result;
}
