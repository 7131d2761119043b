// The schema check of Pulumi YAML programs, shared by examples/yaml-home-network and the README's YAML blocks.

/** A property of the package schema (the parts the check reads). */
export type Prop = { type?: string; $ref?: string; items?: Prop; additionalProperties?: Prop; properties?: Record<string, Prop>; required?: string[]; enum?: { value: string; name?: string }[] };
/** The package schema (provider/schema/schema.json), the parts the check reads. */
export type Schema = {
  types: Record<string, Prop>;
  provider: { inputProperties: Record<string, Prop> };
  resources: Record<string, { inputProperties: Record<string, Prop>; properties: Record<string, Prop> }>;
  functions: Record<string, { inputs: Prop; outputs: Prop }>;
};
/** A Pulumi YAML program, as js-yaml reads it. */
export type Program = {
  config?: Record<string, unknown>;
  variables?: Record<string, { "fn::invoke"?: { function: string; arguments?: Record<string, unknown>; return?: string } }>;
  resources: Record<string, { type: string; properties?: Record<string, unknown>; options?: { provider?: string } }>;
  outputs?: Record<string, unknown>;
};

/** The type token of an explicit provider of the package. */
export const PROVIDER = "pulumi:providers:dns-account";

/**
 * Every problem of a Pulumi YAML program against the package schema: unknown types, properties,
 * functions or enum values, wrong value types, missing required properties, and interpolations
 * (`${res.prop.sub}`) that name nothing the schema declares.
 */
export function problems(program: Program, schema: Schema): string[] {
  const out: string[] = [];
  const resolve = (p: Prop): Prop => (p.$ref ? schema.types[decodeURIComponent(p.$ref.replace("#/types/", ""))] ?? { type: "missing" } : p);
  /** The schema of `${name.a.b}`, or undefined when it names nothing. */
  const reference = (expr: string): Prop | undefined => {
    const [head, ...rest] = expr.split(".");
    let spec: Prop | undefined;
    if (program.resources[head!]) {
      const type = program.resources[head!]!.type;
      if (type === PROVIDER) return rest.length === 0 ? { type: "provider" } : undefined;
      spec = { type: "object", properties: { ...schema.resources[type]?.properties, id: { type: "string" }, urn: { type: "string" } } };
    } else if (program.variables?.[head!]?.["fn::invoke"]) {
      const call = program.variables[head!]!["fn::invoke"]!;
      const outputs = schema.functions[call.function]?.outputs;
      spec = call.return ? outputs?.properties?.[call.return] : outputs;
    } else if (program.config?.[head!] !== undefined) spec = { type: "string" };
    for (const key of rest) {
      spec = spec && resolve(spec);
      spec = spec?.properties?.[key] ?? spec?.additionalProperties;
    }
    return spec;
  };
  const check = (where: string, value: unknown, spec: Prop): void => {
    const s = resolve(spec);
    if (typeof value === "string" && /^\$\{[^}]+\}$/.test(value)) {
      if (!reference(value.slice(2, -1))) out.push(`${where}: ${value} names nothing in the schema`);
      return;
    }
    if (s.enum) {
      if (!s.enum.some((e) => e.value === value)) out.push(`${where}: ${JSON.stringify(value)} is not a value of the enum`);
      return;
    }
    switch (s.type) {
      case "string":
        if (typeof value !== "string") out.push(`${where}: a string is expected`);
        return;
      case "integer":
      case "number":
        if (typeof value !== "number") out.push(`${where}: a number is expected`);
        return;
      case "boolean":
        if (typeof value !== "boolean") out.push(`${where}: a boolean is expected`);
        return;
      case "array":
        if (!Array.isArray(value)) out.push(`${where}: a list is expected`);
        else value.forEach((v, i) => check(`${where}[${i}]`, v, s.items!));
        return;
      case "object": {
        if (typeof value !== "object" || value === null || Array.isArray(value)) return void out.push(`${where}: an object is expected`);
        if (s.additionalProperties) {
          for (const [k, v] of Object.entries(value)) check(`${where}.${k}`, v, s.additionalProperties);
          return;
        }
        for (const [k, v] of Object.entries(value)) {
          const p = s.properties?.[k];
          if (!p) out.push(`${where}.${k}: no such property`);
          else check(`${where}.${k}`, v, p);
        }
        for (const r of s.required ?? []) if (!(r in value)) out.push(`${where}.${r}: required`);
        return;
      }
      default:
        out.push(`${where}: the schema has no type ${s.type}`);
    }
  };

  for (const [name, v] of Object.entries(program.variables ?? {})) {
    const call = v["fn::invoke"];
    if (!call) continue;
    const fn = schema.functions[call.function];
    if (!fn) {
      out.push(`variables.${name}: no function ${call.function}`);
      continue;
    }
    check(`variables.${name}.arguments`, call.arguments ?? {}, fn.inputs);
    if (call.return && !fn.outputs.properties?.[call.return]) out.push(`variables.${name}: ${call.function} returns no ${call.return}`);
  }
  for (const [name, r] of Object.entries(program.resources)) {
    const inputs = r.type === PROVIDER ? schema.provider.inputProperties : schema.resources[r.type]?.inputProperties;
    if (!inputs) {
      out.push(`resources.${name}: no resource type ${r.type}`);
      continue;
    }
    check(`resources.${name}.properties`, r.properties ?? {}, { type: "object", properties: inputs });
    const provider = r.options?.provider;
    if (provider !== undefined && program.resources[provider.slice(2, -1)]?.type !== PROVIDER) out.push(`resources.${name}.options.provider: not a dns-account provider`);
  }
  for (const [name, v] of Object.entries(program.outputs ?? {})) {
    if (typeof v === "string" && /^\$\{[^}]+\}$/.test(v) && !reference(v.slice(2, -1))) out.push(`outputs.${name}: ${v} names nothing in the schema`);
  }
  return out;
}

/**
 * The classes, arguments and outputs a program in another Pulumi language names that the schema does
 * not have, in that language's spelling (Python snake_case, Go/C# PascalCase, Java camelCase): a check
 * of a documentation example where its language host cannot run it.
 *
 * @example
 * ```ts
 * _namesNotInSchema('x = dns_account.Device("x", nmae="A")', "python", schema); // ["argument nmae"]
 * ```
 */
export function _namesNotInSchema(text: string, lang: "python" | "go" | "csharp" | "java", schema: Schema): string[] {
  const short = (token: string) => token.split(":").pop()!;
  const classes = new Set([...Object.keys(schema.resources), ...Object.keys(schema.types)].map(short));
  const props = new Set<string>();
  for (const r of Object.values(schema.resources)) for (const k of [...Object.keys(r.inputProperties), ...Object.keys(r.properties)]) props.add(k);
  for (const t of Object.values(schema.types)) for (const k of Object.keys(t.properties ?? {})) props.add(k);
  const camel = (name: string) =>
    lang === "python" ? name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()) : name[0]!.toLowerCase() + name.slice(1);
  const out: string[] = [];
  // Go names an enum's values as constants, the type's name and the value's schema `name`: DeviceTypeMac.
  const enumConstants = new Set(Object.entries(schema.types).flatMap(([token, t]) => (t.enum ?? []).map((e) => short(token) + (e.name ?? e.value))));
  const cls = (name: string) => {
    if (!classes.has(name.replace(/^New/, "").replace(/Args$/, "")) && !enumConstants.has(name)) out.push(`class ${name}`);
  };
  const prop = (kind: string, name: string) => {
    if (!props.has(camel(name))) out.push(`${kind} ${name}`);
  };
  const all = (re: RegExp) => [...text.matchAll(re)].map((m) => m[1]!);
  if (lang === "python") {
    all(/dns_account\.(\w+)\(/g).forEach(cls);
    all(/\b([a-z_][a-z0-9_]*)=/g).forEach((k) => prop("argument", k));
    for (const v of all(/^(\w+) = dns_account\.\w+\(/gm)) for (const a of all(new RegExp(`\\b${v}\\.(\\w+)`, "g"))) prop("output", a);
  } else if (lang === "go") {
    all(/dnsaccount\.(\w+)/g).forEach(cls);
    all(/^\s*([A-Z]\w*):/gm).forEach((k) => prop("field", k));
    for (const v of all(/(\w+), err := dnsaccount\.New\w+\(/g)) for (const a of all(new RegExp(`\\b${v}\\.(\\w+)`, "g"))) prop("output", a);
  } else if (lang === "csharp") {
    all(/new (\w+)\(/g).forEach(cls);
    all(/new (\w+Args)\b/g).forEach(cls);
    all(/^\s*([A-Z]\w*) = /gm).forEach((k) => prop("property", k));
    all(/\{ ([A-Z]\w*) = /g).forEach((k) => prop("property", k));
    for (const v of all(/var (\w+) = new \w+\(/g)) for (const a of all(new RegExp(`\\b${v}\\.(\\w+)`, "g"))) prop("output", a);
  } else {
    all(/import io\.github\.pulumidnsaccount\.dnsaccount\.(?:inputs\.|enums\.)?(\w+);/g).forEach(cls);
    const outputs = new Set<string>();
    for (const v of all(/var (\w+) = new \w+\(/g)) for (const a of all(new RegExp(`\\b${v}\\.(\\w+)\\(\\)`, "g"))) outputs.add(a);
    outputs.forEach((a) => prop("output", a));
    all(/\.(\w+)\(/g)
      .filter((m) => !["builder", "build", "run", "export"].includes(m) && !outputs.has(m))
      .forEach((m) => prop("builder method", m));
  }
  return [...new Set(out)];
}
