// A request body checked on its text before JSON.parse: some shapes cost far more heap than text (ten million
// numbers, 20 MiB, take over 300 MiB), and zod makes one issue per bad array element. One pass, allocating
// nothing, refuses such bodies and finds the first non-string of a list of strings; stringListsOf says which
// fields of a request schema are such lists, for both faces.
import * as z from 'zod';

/** No request of the v1 API nests deeper than 3; a body may carry unknown fields, which the service ignores. */
const MAX_BODY_DEPTH = 64;
/** Arrays and objects in one body: a request has a handful. */
const MAX_BODY_CONTAINERS = 10_000;
/** Numbers, booleans and nulls in one body: a request has a few dozen at most. Strings are not counted. */
const MAX_BODY_SCALARS = 10_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** A key longer than this is no field of the API: it is not kept. */
const MAX_KEY_LENGTH = 256;

/** The first reason to refuse the body; undefined when it may be parsed (a body not JSON at all: JSON.parse says). */
export function refuseBodyShape(text: string, stringLists: ReadonlySet<string>): string | undefined {
  /** Whether each open container is an array (true) or an object (false), outermost first. */
  const arrays: boolean[] = [];
  let containers = 0;
  let scalars = 0;
  let inString = false;
  /** The last character outside strings that is not white space: a value starts after `[`, `,` or `:`. */
  let previous = COMMA;
  /** Where the key of a top-level member starts, while it is being read. */
  let keyStart = -1;
  let expectKey = false;
  /** The top-level member being read, when its key is short enough to be a field. */
  let member: string | undefined;
  /** Inside the top-level member's array, when the member is a list of strings: the element's index. */
  let listIndex = -1;

  const elementOfList = () => arrays.length === 2 && arrays[1] === true && listIndex >= 0;
  const notAString = (what: string) => `${member}[${listIndex}]: expected a string, received ${what}`;

  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) {
        inString = false;
        if (keyStart >= 0) {
          member = i - keyStart - 1 <= MAX_KEY_LENGTH ? text.slice(keyStart + 1, i) : undefined;
          keyStart = -1;
        }
        previous = QUOTE;
      }
      continue;
    }
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    switch (c) {
      case QUOTE:
        inString = true;
        if (arrays.length === 1 && arrays[0] === false && expectKey) {
          keyStart = i;
          expectKey = false;
        }
        break;
      case OPEN_OBJECT:
      case OPEN_ARRAY: {
        if (elementOfList()) return notAString(c === OPEN_ARRAY ? 'array' : 'object');
        arrays.push(c === OPEN_ARRAY);
        if (arrays.length > MAX_BODY_DEPTH) return `the body nests arrays and objects more than ${MAX_BODY_DEPTH} deep`;
        if (++containers > MAX_BODY_CONTAINERS) return `the body holds more than ${MAX_BODY_CONTAINERS} arrays and objects`;
        if (arrays.length === 1) expectKey = c === OPEN_OBJECT;
        // The list of a top-level member named as a list of strings: its elements are checked as they come.
        if (arrays.length === 2 && c === OPEN_ARRAY && member !== undefined && stringLists.has(member)) listIndex = 0;
        break;
      }
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        arrays.pop();
        if (arrays.length < 2) listIndex = -1;
        break;
      case COMMA:
        if (arrays.length === 1 && arrays[0] === false) expectKey = true;
        if (elementOfList()) listIndex++;
        break;
      case COLON:
        break;
      default:
        // The first character of a number, true, false or null (or of something JSON.parse will refuse).
        if (previous === OPEN_ARRAY || previous === COMMA || previous === COLON) {
          if (elementOfList()) return notAString(c === 0x74 || c === 0x66 ? 'boolean' : c === 0x6e ? 'null' : 'number');
          if (++scalars > MAX_BODY_SCALARS) return `the body holds more than ${MAX_BODY_SCALARS} numbers, booleans and nulls`;
        }
    }
    previous = c;
  }
  return undefined;
}

const stringListFields = new WeakMap<z.ZodType, ReadonlySet<string>>();

/** The top-level fields of a request schema that take a list of strings (in any branch of a union). */
export function stringListsOf(schema: z.ZodType): ReadonlySet<string> {
  let fields = stringListFields.get(schema);
  if (!fields) {
    const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
    fields = new Set(Object.keys(shape).filter((key) => takesStringList(shape[key]!)));
    stringListFields.set(schema, fields);
  }
  return fields;
}

function takesStringList(schema: z.ZodType): boolean {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return takesStringList(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return takesStringList(schema.in as z.ZodType);
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).some(takesStringList);
  return schema instanceof z.ZodArray && schema.element instanceof z.ZodString;
}
