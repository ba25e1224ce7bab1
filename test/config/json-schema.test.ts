// The JSON Schema editors check config files against (dist/mqrc.schema.json, written by the build from the zod
// schema): the shipped file is what the zod schema gives now, ajv and zod accept and refuse the same files, and an
// editor reading a `.mqrc.json` by its "$schema" flags a wrong key.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateConfigFile } from '../../src/config/config-file.js';
import { checkBranch } from '../../src/config/branch-name.js';
import { configJsonSchema } from '../../src/config/config-json-schema.js';
import { CONFIG_SCHEMA_FILE, installedSchemaFile } from '../../src/config/schema-location.js';

const ROOT = join(import.meta.dirname, '../..');
const SHIPPED = join(ROOT, CONFIG_SCHEMA_FILE);
const shippedText = () => readFileSync(SHIPPED, 'utf8');

// Strict, as a careful editor is; a union type (timeout: string or number) is standard JSON Schema.
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(JSON.parse(shippedText()) as object);

/** Both validators' verdicts on one file's content: ajv on the shipped schema, zod through mq's own check. */
function verdicts(content: unknown): { ajv: boolean; zod: boolean } {
  let zod = true;
  try {
    validateConfigFile('/x/config.json', 'user', content);
  } catch {
    zod = false;
  }
  return { ajv: validate(content), zod };
}

const VALID = {
  apiUrl: 'https://api.trunk.io/v1',
  repo: 'acme/widgets',
  targetBranch: 'main',
  org: 'acme',
  output: 'table',
  timeout: '30s',
  profiles: {
    staging: { apiUrl: 'https://staging.example.com/api/v1', targetBranch: 'develop', timeout: '2m' },
    ci: { output: 'json' },
    sandbox: { apiUrl: 'http://127.0.0.1:8080/v1', repo: { host: 'github.example.com', owner: 'acme', name: 'widgets' } },
  },
};

describe('the shipped JSON Schema', () => {
  it('is what z.toJSONSchema makes of the config file schema now (run `npm run build` after changing it)', () => {
    expect(JSON.parse(shippedText())).toEqual(configJsonSchema());
    expect(shippedText()).toBe(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  });

  it('ships in the package, where mq config init finds it', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(manifest.files).toContain(CONFIG_SCHEMA_FILE);
    expect(installedSchemaFile()).toBe(SHIPPED);
  });

  it('describes every key for editors, and refuses keys it does not list', () => {
    const schema = configJsonSchema() as { properties: Record<string, { description?: string }>; additionalProperties: unknown };
    expect(schema.additionalProperties).toBe(false);
    for (const [key, property] of Object.entries(schema.properties)) expect(property.description, key).toMatch(/\w/);
  });
});

describe('ajv on the schema and zod agree', () => {
  // [what, content, accepted]
  const CASES: [string, unknown, boolean][] = [
    ['the example', VALID, true],
    ['an empty file', {}, true],
    ['a $schema key', { $schema: './node_modules/mq/dist/mqrc.schema.json', targetBranch: 'main' }, true],
    ['a user file', { tokenFile: '~/.config/mq/token', trustedApiUrls: ['https://staging.example.com/api/v1'] }, true],
    ['a number of seconds', { timeout: 90 }, true],
    ['branch for targetBranch', { branch: 'main' }, false],
    ['an unknown key', { colour: 'never' }, false],
    ['an unknown key in a profile', { profiles: { ci: { branch: 'main' } } }, false],
    ['a token in a profile', { profiles: { ci: { token: 'x' } } }, false],
    ['trustedApiUrls in a profile', { profiles: { ci: { trustedApiUrls: [] } } }, false],
    ['a profile that is not a map', { profiles: { ci: 'json' } }, false],
    ['profiles as a list', { profiles: [] }, false],
    ['an unknown key in repo', { repo: { owner: 'a', name: 'b', branch: 'main' } }, false],
    ['repo without a name', { repo: { owner: 'a' } }, false],
    ['output xml', { output: 'xml' }, false],
    ['a branch with a space', { targetBranch: 'my branch' }, false],
    ['an empty org', { org: '' }, false],
    ['a blank tokenCommand', { tokenCommand: '  ' }, false],
    ['a $schema that is not a string', { $schema: 7 }, false],
    ['a list', [], false],
    ['a string', 'targetBranch: main', false],
  ];
  it.each(CASES)('%s', (_what, content, accepted) => {
    expect(verdicts(content)).toEqual({ ajv: accepted, zod: accepted });
  });

  const KEYS = Object.keys((configJsonSchema() as { properties: object }).properties);
  /** Values of each key's JSON type that mq accepts. */
  const GOOD: Record<string, fc.Arbitrary<unknown>> = {
    $schema: fc.string(),
    apiUrl: fc.constantFrom('https://api.trunk.io/v1', 'http://127.0.0.1:9/v1', 'https://mq.example.com/api/v1/'),
    repo: fc.oneof(
      fc.constantFrom('acme/widgets', 'ghe.example.com/acme/tools'),
      fc.record({ host: fc.constant('github.com'), owner: fc.constant('acme'), name: fc.constant('w') }, { requiredKeys: ['owner', 'name'] }),
    ),
    targetBranch: fc.stringMatching(/^(refs\/heads\/)?[\w./-]{1,20}$/).filter((name) => checkBranch(name).ok),
    org: fc.stringMatching(/^[\w-]{1,20}$/),
    output: fc.constantFrom('table', 'json'),
    timeout: fc.oneof(fc.constantFrom('500ms', '30s', '2m', '1m30s'), fc.integer({ min: 1, max: 3600 })),
    tokenCommand: fc.stringMatching(/^\S[ -~]{0,20}$/),
    tokenFile: fc.stringMatching(/^\S[ -~]{0,20}$/),
    token: fc.stringMatching(/^\S{1,20}$/),
    trustedApiUrls: fc.array(fc.constant('https://mq.example.com/v1'), { maxLength: 2 }),
    profiles: fc.dictionary(fc.stringMatching(/^\w{1,8}$/), fc.record({ targetBranch: fc.constant('dev'), output: fc.constant('json') }, { requiredKeys: [] })),
  };
  /** The JSON types each key takes; any other is refused by both. */
  const TYPES: Record<string, string[]> = {
    repo: ['string', 'object'],
    timeout: ['string', 'number'],
    trustedApiUrls: ['array'],
    profiles: ['object'],
  };
  const jsonType = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

  it('accept a file of well-formed values, one token key at most', () => {
    const files = fc.record(GOOD, { requiredKeys: [] }).map((file) => {
      const { token, tokenCommand, tokenFile, ...rest } = file as Record<string, unknown>;
      const [tokenKey] = Object.entries({ token, tokenCommand, tokenFile }).filter(([, value]) => value !== undefined);
      return tokenKey ? { ...rest, [tokenKey[0]]: tokenKey[1] } : rest;
    });
    fc.assert(
      fc.property(files, (file) => {
        expect(verdicts(file)).toEqual({ ajv: true, zod: true });
      }),
    );
  });

  it('refuse a key holding a value of another JSON type', () => {
    const spoiled = fc.tuple(fc.constantFrom(...KEYS), fc.jsonValue()).filter(([key, value]) => !(TYPES[key] ?? ['string']).includes(jsonType(value)));
    fc.assert(
      fc.property(spoiled, ([key, value]) => {
        expect(verdicts({ ...VALID, [key]: value }), key).toEqual({ ajv: false, zod: false });
      }),
    );
  });

  it('refuse any key they do not know, at the top or in a profile', () => {
    const unknown = fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !KEYS.includes(key));
    fc.assert(
      fc.property(unknown, fc.jsonValue(), fc.boolean(), (key, value, inProfile) => {
        const file = inProfile ? { profiles: { ci: { [key]: value } } } : { [key]: value };
        expect(verdicts(JSON.parse(JSON.stringify(file)))).toEqual({ ajv: false, zod: false });
      }),
    );
  });
});

describe('an editor reading a .mqrc.json by its "$schema"', () => {
  const TEXT = `{
  "$schema": "./node_modules/mq/dist/mqrc.schema.json",
  "repo": "acme/widgets",
  "branch": "main",
  "profiles": { "ci": { "outptu": "json" } }
}
`;

  it('finds the schema the "$schema" names, in the package', () => {
    const { $schema } = JSON.parse(TEXT) as { $schema: string };
    expect(join('/p', $schema)).toBe(join('/p/node_modules/mq', CONFIG_SCHEMA_FILE));
  });

  it('flags the wrong keys, at the top and in a profile, and nothing else', () => {
    expect(validate(JSON.parse(TEXT))).toBe(false);
    const flagged = (validate.errors ?? []).map((error: ErrorObject) => [error.instancePath, error.keyword, error.params.additionalProperty]);
    expect(flagged).toEqual([
      ['', 'additionalProperties', 'branch'],
      ['/profiles/ci', 'additionalProperties', 'outptu'],
    ]);
  });

  it('passes the file once the keys are right, as mq does', () => {
    const fixed = JSON.parse(TEXT.replace('"branch"', '"targetBranch"').replace('"outptu"', '"output"')) as unknown;
    expect(verdicts(fixed)).toEqual({ ajv: true, zod: true });
  });
});
