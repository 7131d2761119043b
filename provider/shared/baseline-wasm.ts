/**
 * Liftoff-only WebAssembly for a provider process, which both gRPC faces (the Pulumi plugin's
 * ../plugin/start and the OpenTofu face's ../tofu/main) set once they serve.
 */

/**
 * From here on, V8 compiles WebAssembly with its baseline compiler only (`--liftoff-only`). The one module a
 * provider process compiles is undici's HTTP parser (llhttp), at its first request: by default V8 also
 * optimises it in the background, and a process that has made its few requests then spends 80-260 ms of CPU
 * finishing that work before it can exit (issue 35 §3, measured on the tofu face: a working provider process
 * 130-170 ms of CPU less, a tofu command 140-310 ms; on the Pulumi plugin, a phase of up to 50 resources 0.76×
 * the CPU, larger ones not measured). Set after the face's bundle is loaded and after its bin
 * refreshed the bundle's code cache: V8 rejects a code cache made under other flags, so set as a command-line
 * flag, or before the cache is written, it would cost the next start the whole cache.
 *
 * @example
 * ```ts
 * started?.(); // the bin queues its code cache refresh here (a setImmediate)
 * setImmediate(baselineWasmOnly); // queued after it: the cache is written before the flag changes
 * ```
 */
export function baselineWasmOnly(): void {
  (require("node:v8") as typeof import("node:v8")).setFlagsFromString("--liftoff-only");
}
