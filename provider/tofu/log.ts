/**
 * The face's log: hclog's JSON lines on stderr, which go-plugin's client reads and re-logs under tofu's
 * own log (`TF_LOG`). A line is JSON with `@level`, `@message`, `@module` and `@timestamp`; go-plugin
 * parses the timestamp with the layout `2006-01-02T15:04:05.000000Z07:00`, so it carries exactly six
 * fractional digits, or the whole line shows as raw text. Extra fields are the line's key/value pairs.
 *
 * Nothing but the handshake line may reach stdout (./handshake): {@link keepStdoutClean} sends `console.*`
 * to stderr, as hclog lines, and whatever else writes to stdout after the handshake.
 */
import { Console } from "node:console";
import { performance } from "node:perf_hooks";
import { format } from "node:util";

/**
 * hclog's levels, as go-plugin's client reads them.
 *
 * @example
 * ```ts
 * const level: Level = "debug";
 * ```
 */
export type Level = "trace" | "debug" | "info" | "warn" | "error";

/**
 * `time` (milliseconds since the epoch, with a fraction) in hclog's layout, in UTC: six fractional digits.
 *
 * @example
 * ```ts
 * hclogTimestamp(0.0015); // "1970-01-01T00:00:00.000001Z"
 * ```
 */
export function hclogTimestamp(time: number = performance.timeOrigin + performance.now()): string {
  const ms = Math.floor(time);
  const micros = Math.min(999_999, Math.floor((time - ms) * 1000) + (ms % 1000) * 1000);
  const whole = new Date(ms - (ms % 1000)).toISOString().slice(0, 19);
  return `${whole}.${String(micros).padStart(6, "0")}Z`;
}

/**
 * One hclog line (with its newline): `@level`, `@message`, `@module`, `@timestamp`, then `fields`.
 *
 * @example
 * ```ts
 * hclogLine("info", "serving", { address: "127.0.0.1:40123" });
 * ```
 */
export function hclogLine(level: Level, message: string, fields: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ "@level": level, "@message": message, "@module": "dnsaccount", "@timestamp": hclogTimestamp(), ...fields })}\n`;
}

/**
 * Writes one hclog line to stderr.
 *
 * @example
 * ```ts
 * log("debug", "StopProvider: aborting calls in flight");
 * ```
 */
export function log(level: Level, message: string, fields?: Record<string, unknown>): void {
  process.stderr.write(hclogLine(level, message, fields));
}

/**
 * Keeps stdout for the handshake line alone: `console.*` becomes hclog lines on stderr (log → info,
 * warn → warn, error → error, debug/trace → debug), and stdout's `write` becomes a write to stderr, so
 * that no other write (a dependency's, a module preloaded by the user's `NODE_OPTIONS`) reaches the
 * client before or after the handshake line. The returned function writes that line, once. (A preloaded
 * module that writes to stdout while it loads, before this runs, cannot be stopped from here.)
 *
 * @example
 * ```ts
 * const announce = keepStdoutClean();
 * announce("1|6|tcp|127.0.0.1:40123|grpc|MIIB...");
 * ```
 */
export function keepStdoutClean(): (line: string) => void {
  const levels: Record<string, Level> = { log: "info", info: "info", warn: "warn", error: "error", debug: "debug", trace: "debug" };
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  const target = console as unknown as Record<string, unknown>;
  for (const [method, level] of Object.entries(levels)) {
    target[method] = (...args: unknown[]) => log(level, format(...args));
  }
  for (const method of ["dir", "table", "group", "groupEnd", "time", "timeEnd", "timeLog", "count", "assert"]) {
    const fn = (toStderr as unknown as Record<string, unknown>)[method];
    if (typeof fn === "function") target[method] = fn.bind(toStderr);
  }
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
    (process.stderr.write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write;
  let announced = false;
  return (line) => {
    if (announced) throw new Error("the handshake line is written once");
    announced = true;
    write(`${line}\n`);
  };
}
