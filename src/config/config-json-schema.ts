// The JSON Schema of a config file, generated from its zod schema (config-file.ts) so that editors complete and
// check `.mqrc*` files as mq will. Run by the build (scripts/build.mjs writes dist/mqrc.schema.json) and by the
// tests that hold the shipped file to it; mq itself never calls it, since zod's converter is start-up time.
import * as z from 'zod';
import { ConfigFileSchema, ProfileSchema, Profiles } from './config-file.js';

// The input side (what a file says, before the transforms), as draft-07: the draft editors' JSON and YAML
// servers and ajv all read without asking.
const OPTIONS = { io: 'input', target: 'draft-07' } as const;

/** zod's types without a JSON Schema (z.toJSONSchema's `unrepresentable`), which 'any' would turn into {}. */
const UNREPRESENTABLE = ['custom', 'bigint', 'symbol', 'date', 'map', 'set', 'function', 'undefined', 'void', 'nan'];

export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ConfigFileSchema, {
    ...OPTIONS,
    // Profiles are a zod custom type (a Map keyed by any name, `__proto__` too), which JSON Schema cannot
    // express; a file holds them as an object of profiles. Any other type it cannot express is a build error.
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === Profiles) {
        const { $schema: _draft, ...profile } = z.toJSONSchema(ProfileSchema, OPTIONS);
        Object.assign(jsonSchema, { type: 'object', additionalProperties: profile });
      } else if (zodSchema !== Profiles.in && UNREPRESENTABLE.includes(zodSchema._zod.def.type)) {
        throw new Error(`the config file's schema has a ${zodSchema._zod.def.type} type JSON Schema cannot express`);
      }
    },
  });
  return {
    $schema: schema.$schema,
    title: 'mq config file (.mqrc, .mqrc.json, .mqrc.yaml, mq.config.json, ~/.config/mq/config.yaml)',
    ...schema,
  };
}
