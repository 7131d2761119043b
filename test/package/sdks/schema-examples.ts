// The examples of the package schema's resources and functions (provider/schema/schema.json), as Pulumi's
// docs and SDK generators read them: `{{% examples %}}` … `{{% example %}}` `### title` and one fenced
// block per language … `{{% /example %}}` `{{% /examples %}}`, then an optional `## Import` section.

import { readFileSync } from "node:fs";
import path from "node:path";
import { fencedBlocks } from "../../support/readme-blocks";

/** The six languages the Pulumi Registry shows, as the fences name them. */
export const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "csharp", "java", "yaml"] as const;
/** One of {@link EXAMPLE_LANGUAGES}. */
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

/** One `{{% example %}}` of a resource or function. */
export interface SchemaExample {
  /** The resource's or function's token (`dns-account:index:Device`). */
  token: string;
  /** Its name (`Device`, `getFilterLists`): names files and messages. */
  name: string;
  kind: "resource" | "function";
  /** The `###` title. */
  title: string;
  /** The program in each language the example has (a language missing is absent). */
  programs: Partial<Record<ExampleLanguage, string>>;
}

/** A resource or function of the schema, with its examples and `## Import` section. */
export interface SchemaEntry {
  token: string;
  name: string;
  kind: "resource" | "function";
  examples: SchemaExample[];
  /** The text of its `## Import` section, or undefined when it has none. */
  importSection: string | undefined;
}

/** The package schema. */
export function readSchema(root: string): { resources: Record<string, { description: string }>; functions: Record<string, { description: string }> } {
  return JSON.parse(readFileSync(path.join(root, "provider", "schema", "schema.json"), "utf8")) as ReturnType<typeof readSchema>;
}

/**
 * Every resource and function of the schema with its examples, in the schema's order.
 *
 * @example
 * ```ts
 * const device = schemaEntries(root).find((e) => e.name === "Device")!;
 * device.examples[0]!.programs.python; // the Python program of its first example
 * ```
 */
export function schemaEntries(root: string): SchemaEntry[] {
  const schema = readSchema(root);
  const all = [
    ...Object.entries(schema.resources).map(([token, spec]) => ({ token, spec, kind: "resource" as const })),
    ...Object.entries(schema.functions).map(([token, spec]) => ({ token, spec, kind: "function" as const })),
  ];
  return all.map(({ token, spec, kind }) => {
    const name = token.split(":").pop()!;
    const [body, importSection] = spec.description.split(/\n## Import\n/) as [string, string | undefined];
    const examples: SchemaExample[] = [];
    const section = /\{\{% examples %\}\}([\s\S]*?)\{\{% \/examples %\}\}/.exec(body)?.[1] ?? "";
    for (const [, inner] of section.matchAll(/\{\{% example %\}\}([\s\S]*?)\{\{% \/example %\}\}/g)) {
      const title = /^### (.+)$/m.exec(inner!)?.[1]?.trim() ?? "";
      const programs: SchemaExample["programs"] = {};
      for (const block of fencedBlocks(inner!, `${token} description`)) {
        if ((EXAMPLE_LANGUAGES as readonly string[]).includes(block.lang)) {
          if (programs[block.lang as ExampleLanguage] !== undefined) throw new Error(`${token}: "${title}" has two ${block.lang} blocks`);
          programs[block.lang as ExampleLanguage] = block.text;
        }
      }
      examples.push({ token, name, kind, title, programs });
    }
    return { token, name, kind, examples, importSection: importSection?.trim() };
  });
}

/** Every example of the schema that has a program in `lang`, each with a name unique among them (`Device-1`). */
export function programsIn(root: string, lang: ExampleLanguage): { id: string; example: SchemaExample; text: string }[] {
  return schemaEntries(root).flatMap((entry) =>
    entry.examples.flatMap((example, i) => (example.programs[lang] === undefined ? [] : [{ id: `${entry.name}-${i + 1}`, example, text: example.programs[lang] }])),
  );
}
