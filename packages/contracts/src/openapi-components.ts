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
  private readonly names = new Map<z.ZodType, string>();
  private readonly taken = new Set<string>();
  private readonly used = { input: new Set<string>(), output: new Set<string>(), upload: new Set<string>() };

  /** The component name of a schema: its zod id, or `fallback` for an unnamed one (made unique). */
  name(schema: z.ZodType, fallback: string): string {
    const known = this.names.get(schema);
    if (known) return known;
    const id = z.globalRegistry.get(schema)?.id;
    let name = id ?? fallback;
    if (!id) for (let n = 2; this.taken.has(name); n++) name = `${fallback}${n}`;
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
    const convert = (io: 'input' | 'output') => strip((z.toJSONSchema(registry, {
      target: 'draft-2020-12', io, unrepresentable: 'any', uri: (id) => `${PREFIX}${id}`,
    }) as { schemas: Record<string, Json> }).schemas);
    const input = convert('input');
    const output = convert('output');
    if (input.__shared || output.__shared) throw new Error('a schema could not be named as a component (zod emitted __shared $defs)');

    // Names whose input form differs from the output form; a schema referring to one of them differs too.
    const differs = new Set<string>();
    for (let changed = true; changed;) {
      changed = false;
      for (const name of Object.keys(input)) {
        if (differs.has(name)) continue;
        if (JSON.stringify(renameRefs(input[name], differs)) !== JSON.stringify(output[name])) { differs.add(name); changed = true; }
      }
    }
    const finalName = (name: string, io: string) => (io === 'upload' ? `${name}Upload` : io === 'input' && differs.has(name) ? `${name}Input` : name);
    const all: Record<string, Json> = {};
    for (const [name, s] of Object.entries(output)) all[name] = s;
    for (const name of differs) all[`${name}Input`] = renameRefs(input[name], differs);
    for (const name of this.used.upload) all[`${name}Upload`] = withFilePart(renameRefs(input[name], differs));

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

function renameRefs(schema: Json, names: Set<string>): Json {
  return JSON.parse(JSON.stringify(schema), (k, v) =>
    k === '$ref' && typeof v === 'string' && v.startsWith(PREFIX) && names.has(v.slice(PREFIX.length)) ? `${v}Input` : v) as Json;
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
