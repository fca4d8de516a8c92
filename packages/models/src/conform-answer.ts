import type { Document } from '@quire/core';
import { validatorFor } from './ajv.js';
import type { JsonSchema, SchemaAnswer } from './language-model.js';

/**
 * The last word on a schema answer, whichever engine produced it: values validate against the
 * caller's schema or the failing field is null with the reason in `notes`; citations and confidence
 * mirror the values (a leaf cites an array of element ids, a null value cites null) and cite only
 * ids that exist in the document.
 */

/** JSON pointer of a path ("/vendor/name"). */
export const jsonPointer = (path: (string | number)[]) => '/' + path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const fromPointer = (p: string) => (p ? p.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')) : []);

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function setAt(root: { v: unknown }, path: string[], value: unknown, remove = false): void {
  if (!path.length) { root.v = value; return; }
  let cur: unknown = root.v;
  for (const p of path.slice(0, -1)) cur = (cur as Record<string, unknown> | undefined)?.[p];
  if (typeof cur !== 'object' || cur === null) return;
  const last = path[path.length - 1];
  if (remove) delete (cur as Record<string, unknown>)[last];
  else (cur as Record<string, unknown>)[last] = value;
}

/** Every id a citation may name: txt-N, tbl-N, tbl-N-rRcC, fig-N (as the document carries them). */
export function documentIds(doc: Document): Set<string> {
  const ids = new Set<string>();
  for (const page of doc.pages) {
    for (const el of page.elements) {
      if (el.id) ids.add(el.id);
      if (el.kind === 'table') for (const c of el.cells) if (c.id) ids.add(c.id);
    }
  }
  return ids;
}

/** Nulls (or, for extra properties, removes) what the schema rejects; returns the pointers it touched. */
function enforceValues(schema: JsonSchema, holder: { v: unknown }, notes: Record<string, string>): void {
  const validate = validatorFor(schema);
  if (!validate) return;
  for (let pass = 0; pass < 10 && !validate(holder.v); pass++) {
    let changed = false;
    for (const e of validate.errors ?? []) {
      const params = e.params as { missingProperty?: string; additionalProperty?: string };
      if (e.keyword === 'required' && params.missingProperty) {
        const at = [...fromPointer(e.instancePath), params.missingProperty];
        const ptr = jsonPointer(at);
        if (ptr in notes) continue;
        notes[ptr] = notes[ptr] ?? 'required field missing from the answer';
        setAt(holder, at, null);
        changed = true;
      } else if (e.keyword === 'additionalProperties' && params.additionalProperty) {
        setAt(holder, [...fromPointer(e.instancePath), params.additionalProperty], undefined, true);
        changed = true;
      } else if (!(e.instancePath in notes) && e.instancePath) {
        notes[e.instancePath] = `dropped: value failed schema validation (${e.message ?? e.keyword})`;
        setAt(holder, fromPointer(e.instancePath), null);
        changed = true;
      } else if (!e.instancePath && !('' in notes) && !isPlain(holder.v)) {
        notes[''] = `dropped: answer failed schema validation (${e.message ?? e.keyword})`;
        holder.v = null;
        changed = true;
      }
    }
    if (!changed) return;
  }
}

/** Citations shaped like `values`: a leaf becomes the list of its known ids (null when none). */
function mirrorCitations(value: unknown, cite: unknown, known: Set<string> | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v, i) => mirrorCitations(v, Array.isArray(cite) ? cite[i] : undefined, known));
  if (isPlain(value)) return Object.fromEntries(Object.keys(value).map((k) => [k, mirrorCitations(value[k], isPlain(cite) ? cite[k] : undefined, known)]));
  const list = (typeof cite === 'string' ? [cite] : Array.isArray(cite) ? cite.flat(4) : []).filter((x): x is string => typeof x === 'string');
  const ok = [...new Set(list.filter((id) => !known || known.has(id)))];
  return ok.length ? ok : null;
}

function mirrorConfidence(value: unknown, conf: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v, i) => mirrorConfidence(v, Array.isArray(conf) ? conf[i] : undefined));
  if (isPlain(value)) return Object.fromEntries(Object.keys(value).map((k) => [k, mirrorConfidence(value[k], isPlain(conf) ? conf[k] : undefined)]));
  return typeof conf === 'number' && Number.isFinite(conf) ? Math.min(1, Math.max(0, Math.round(conf * 1000) / 1000)) : null;
}

/** Citation ids that are not in the document (for a model's retry feedback). */
export function unknownCitations(cite: unknown, known: Set<string>): string[] {
  const out: string[] = [];
  const visit = (c: unknown) => {
    if (typeof c === 'string') { if (!known.has(c)) out.push(c); } else if (Array.isArray(c)) c.forEach(visit); else if (isPlain(c)) Object.values(c).forEach(visit);
  };
  visit(cite);
  return [...new Set(out)];
}

/** ajv's complaints about `values` (empty when they validate). */
export function schemaErrors(schema: JsonSchema, values: unknown): string[] {
  const validate = validatorFor(schema);
  if (!validate || validate(values)) return [];
  return (validate.errors ?? []).slice(0, 20).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}

export function conformAnswer(schema: JsonSchema, answer: SchemaAnswer, opts: { knownIds?: Set<string>; wantConfidence?: boolean } = {}): SchemaAnswer {
  const notes: Record<string, string> = { ...(answer.notes ?? {}) };
  const holder = { v: structuredClone(answer.values ?? null) };
  enforceValues(schema, holder, notes);
  const out: SchemaAnswer = { values: holder.v, citations: mirrorCitations(holder.v, answer.citations, opts.knownIds), notes };
  if (opts.wantConfidence) out.confidence = mirrorConfidence(holder.v, answer.confidence);
  return out;
}
