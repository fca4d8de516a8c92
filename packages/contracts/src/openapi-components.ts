import { z } from 'zod';

type Json = Record<string, unknown>;
type Io = 'input' | 'output' | 'upload';
const PREFIX = '#/components/schemas/';

/**
 * Turns zod schemas into OpenAPI `components.schemas`, every reference written as
 * `#/components/schemas/<Name>`. Schemas carrying a zod `.meta({ id })` keep that id as their name; the
 * route schemas without one are named by the caller. zod converts a registry of named schemas in one go
 * (its `uri` option writes the references), which is what makes every nested named schema a component
 * instead of a `$defs` entry local to one operation.
 *
 * Requests and responses are converted separately (`io: 'input'` / `'output'`): a field with a default is
 * optional to send but always present in a reply. Where the two differ a schema gets two components,
 * `Name` (as returned) and `NameInput` (as sent); where they agree, one.
 */
export class ComponentSchemas {
  /**
   * `closedResponses`: response objects refuse properties they do not list (zod's own reading of a plain
   * object's output). The served document leaves them open, so a reply may gain a field without breaking
   * a client; the test that checks real replies against the document closes them, so an undocumented
   * field fails it. Objects declared `.strict()` are closed either way.
   */
  constructor(private readonly opts: { closedResponses?: boolean } = {}) {}

  private readonly names = new Map<z.ZodType, string>();
  private readonly taken = new Set<string>();
  private readonly used = { input: new Set<string>(), output: new Set<string>(), upload: new Set<string>() };

  /** The component name of a schema: its zod id, or `fallback` for an unnamed one (made unique). */
  name(schema: z.ZodType, fallback: string): string {
    const known = this.names.get(schema);
    if (known) return known;
    const id = z.globalRegistry.get(schema)?.id;
    let name = id ?? fallback;
    if (!id) for (let n = 2; this.taken.has(name) || z.globalRegistry._idmap.has(name); n++) name = `${fallback}${n}`;
    this.names.set(schema, name);
    this.taken.add(name);
    return name;
  }

  /**
   * A `$ref` to the schema as a JSON request (`input`), a response (`output`) or a multipart upload
   * (`upload`: the request fields plus the `file` part, as component `NameUpload`).
   */
  ref(schema: z.ZodType, io: Io, fallback: string): { $ref: string } {
    const name = this.name(schema, fallback);
    this.used[io].add(name);
    return { $ref: `${PREFIX}${name}\u0000${io}` }; // resolved to the final name in build()
  }

  /** Every component reachable from the references handed out, and a function rewriting those references. */
  build(): { schemas: Record<string, Json>; resolve: <T>(value: T) => T } {
    const registry = z.registry<{ id: string }>();
    for (const [id, schema] of z.globalRegistry._idmap) registry.add(schema as z.ZodType, { id });
    for (const [schema, name] of this.names) if (!registry.has(schema)) registry.add(schema, { id: name });
    const openObjects = !this.opts.closedResponses;
    const convert = (io: 'input' | 'output') => strip((z.toJSONSchema(registry, {
      target: 'draft-2020-12', io, unrepresentable: 'any', uri: (id) => `${PREFIX}${id}`,
      override: ({ zodSchema, jsonSchema }) => {
        const def = zodSchema._zod.def as { type: string; catchall?: unknown };
        if (openObjects && def.type === 'object' && def.catchall === undefined) delete (jsonSchema as Json).additionalProperties;
      },
    }) as { schemas: Record<string, Json> }).schemas);
    const input = convert('input');
    const output = convert('output');
    if (input.__shared || output.__shared) throw new Error('a schema could not be named as a component (zod emitted __shared $defs)');

    // Names whose input form differs from the output form; a schema referring to one of them differs too.
    // The input form is `NameInput` (`NameInput2`… should a zod schema already be called that).
    const inputNames = new Map<string, string>();
    const inputName = (name: string) => {
      let candidate = `${name}Input`;
      for (let n = 2; candidate in output || [...inputNames.values()].includes(candidate); n++) candidate = `${name}Input${n}`;
      return candidate;
    };
    for (let changed = true; changed;) {
      changed = false;
      for (const name of Object.keys(input)) {
        if (inputNames.has(name)) continue;
        if (JSON.stringify(renameRefs(input[name], inputNames)) !== JSON.stringify(output[name])) { inputNames.set(name, inputName(name)); changed = true; }
      }
    }
    const finalName = (name: string, io: string) => (io === 'upload' ? `${name}Upload` : io === 'input' ? inputNames.get(name) ?? name : name);
    const all: Record<string, Json> = { ...output };
    const add = (name: string, schema: Json) => {
      if (all[name]) throw new Error(`component name ${name} is taken: rename one of the zod schemas`);
      all[name] = schema;
    };
    for (const [name, renamed] of inputNames) add(renamed, renameRefs(input[name], inputNames));
    for (const name of this.used.upload) add(`${name}Upload`, withFilePart(renameRefs(input[name], inputNames)));

    const resolve = <T>(value: T): T => JSON.parse(JSON.stringify(value), (k, v) => {
      if (k !== '$ref' || typeof v !== 'string' || !v.includes('\u0000')) return v;
      const [ref, io] = v.split('\u0000');
      return PREFIX + finalName(ref.slice(PREFIX.length), io);
    }) as T;
    const roots = (['input', 'output', 'upload'] as const).flatMap((io) => [...this.used[io]].map((n) => finalName(n, io)));
    return { schemas: reachable(all, roots), resolve };
  }
}

/** A multipart body: the request's fields (sent as form fields) and the document as the `file` part. */
function withFilePart(schema: Json): Json {
  const properties = (schema.properties ?? {}) as Json;
  return {
    ...schema,
    description: 'Multipart form: the document as the `file` part (or `file_url`), options as form fields (objects as JSON text).',
    properties: { file: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream', description: 'The document (PDF, PNG, JPEG, TIFF, DOCX, PPTX, XLSX, HTML)' }, ...properties },
  };
}

/** zod puts `$schema` and `$id` on each converted schema; inside an OpenAPI document both only get in the way. */
function strip(schemas: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.entries(schemas).map(([k, { $schema: _s, $id: _i, ...rest }]) => [k, rest]));
}

/** References to the schemas in `renamed` pointed at their new names. */
function renameRefs(schema: Json, renamed: Map<string, string>): Json {
  return JSON.parse(JSON.stringify(schema), (k, v) => {
    const target = k === '$ref' && typeof v === 'string' && v.startsWith(PREFIX) ? renamed.get(v.slice(PREFIX.length)) : undefined;
    return target ? PREFIX + target : v;
  }) as Json;
}

/** The components the roots refer to, directly or through one another, sorted by name. */
function reachable(all: Record<string, Json>, roots: string[]): Record<string, Json> {
  const keep = new Set<string>();
  const visit = (name: string) => {
    if (keep.has(name)) return;
    if (!all[name]) throw new Error(`no component schema named ${name}`);
    keep.add(name);
    JSON.stringify(all[name], (k, v) => {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(PREFIX)) visit(v.slice(PREFIX.length));
      return v;
    });
  };
  roots.forEach(visit);
  return Object.fromEntries([...keep].sort().map((n) => [n, all[n]]));
}
