/**
 * The face's codec over static code (issue 35 §3): what ./codec gives, over the module protobuf.js's
 * `pbjs -t static-module --keep-case` generates from ./protocol's descriptor. The face's bundle is built with
 * this in ./codec's place and the generated module inside it (scripts/bundle.mjs's `tofuInside`); nothing
 * is generated at run time, and V8's code cache holds every message's functions.
 *
 * pbjs names each message's class after the message, so a message named `Object` (tfplugin6's
 * `Schema.Object`) would hide the global `Object` that its own generated code calls: the build gives pbjs
 * that message as {@link STATIC_RENAMES}' name (names are not on the wire; field numbers are), and this
 * codec answers to the protocol's name.
 */
import type { Codec, MessageType } from "./codec";

/**
 * The messages the generated code holds under another name than the protocol's (full names), and why:
 * see the module's comment.
 *
 * @example
 * ```ts
 * STATIC_RENAMES["tfplugin6.Schema.Object"]; // "tfplugin6.Schema.Object_"
 * ```
 */
export const STATIC_RENAMES: Readonly<Record<string, string>> = { "tfplugin6.Schema.Object": "tfplugin6.Schema.Object_" };

/** A generated class: a function with the message's static functions. */
function isMessage(value: unknown): value is MessageType {
  return typeof value === "function" && typeof (value as Partial<MessageType>).encode === "function" && typeof (value as Partial<MessageType>).decode === "function";
}

/**
 * The codec of `root`, the generated module's exports (`$root`: packages as objects, messages as
 * classes).
 *
 * @example
 * ```ts
 * const { type } = staticCodec(require("./protocol.static.js"));
 * ```
 */
export function staticCodec(root: Record<string, unknown>): Codec {
  const byName = new Map<string, MessageType>();
  const generated = new Map(Object.entries(STATIC_RENAMES).map(([protocol, staticName]) => [staticName, protocol]));
  const walk = (ns: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(ns)) {
      if (!/^[A-Za-z_]/.test(key) || (typeof value !== "object" && typeof value !== "function") || value === null) continue;
      const full = prefix ? `${prefix}.${key}` : key;
      if (isMessage(value)) byName.set(generated.get(full) ?? full, value);
      // Packages are objects; a message's nested messages are its class's properties.
      if (typeof value === "object" || isMessage(value)) walk(value as Record<string, unknown>, full);
    }
  };
  walk(root, "");
  return {
    kind: "static",
    type(name) {
      const found = byName.get(name);
      if (!found) throw new Error(`no message ${name} in the generated protocol code`);
      return found;
    },
    names: () => [...byName.keys()],
  };
}
