/**
 * The package schema as the plugin serves it: `GetSchema`'s text and which properties of a resource or
 * of the configuration are secret (the document and `project` live in `../schema/shape`, shared with the
 * TypeScript functions).
 */
import document from "../schema/schema.json";
import { type PropertySpec, schema } from "../schema/shape";

export { type ObjectSpec, type PropertySpec, project, schema } from "../schema/shape";

/** `GetSchema`'s answer: the schema with the package's version. */
export function schemaText(version: string): string {
  return JSON.stringify({ ...(document as object), version });
}

const secretsOf = (props: Record<string, PropertySpec> = {}): Set<string> => new Set(Object.entries(props).filter(([, p]) => p.secret).map(([k]) => k));

/** Secret output properties of a resource type token. */
export function secretOutputs(type: string): Set<string> {
  return secretsOf(schema.resources[type]?.properties);
}

/** Secret input properties of a resource type token. */
export function secretInputs(type: string): Set<string> {
  return secretsOf(schema.resources[type]?.inputProperties);
}

/** Secret configuration keys. */
export function secretConfig(): Set<string> {
  return secretsOf(schema.config.variables);
}
