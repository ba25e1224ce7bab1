// The text of a config file mq writes (`mq config init`): YAML with a comment header, or JSON for a file whose
// name says JSON. Values are plain strings; anything YAML could read as another type or syntax is quoted.
import { extname } from 'node:path';

export type ConfigText = Record<string, string>;

// YAML 1.1 words some readers still turn into booleans or null, and anything that looks like a number.
const AMBIGUOUS = /^(?:y|yes|n|no|true|false|on|off|null|~|[-+.]?\d.*)$/i;
const PLAIN = /^[A-Za-z0-9_][A-Za-z0-9_./@-]*$/;

/** `schema`, which editors check the file against: a `$schema` key in JSON (mq ignores it), the YAML language server's first-line comment. */
export function configFileText(path: string, values: ConfigText, header: readonly string[], schema?: string): string {
  if (extname(path) === '.json') return `${JSON.stringify(schema === undefined ? values : { $schema: schema, ...values }, null, 2)}\n`;
  const modeline = schema === undefined ? [] : [`yaml-language-server: $schema=${schema}`];
  const comments = [...modeline, ...header].map((line) => `# ${line}`.trimEnd());
  const lines = Object.entries(values).map(([key, value]) => `${key}: ${yamlScalar(value)}`);
  return `${[...comments, ...lines].join('\n')}\n`;
}

/** A JSON string is a valid YAML double-quoted scalar, so quoting is JSON.stringify. */
function yamlScalar(value: string): string {
  return PLAIN.test(value) && !AMBIGUOUS.test(value) ? value : JSON.stringify(value);
}
