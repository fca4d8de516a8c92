import { createConfig, lintFromString } from '@redocly/openapi-core';
import { spawnSync } from 'node:child_process';
import { buildOpenApi } from '@quire/contracts';
import { recordedExamples, routeDocs } from './route-docs.js';

/** The document GET /openapi.json serves, checked by two independent validators. */
describe('GET /openapi.json document', () => {
  const doc = buildOpenApi(routeDocs(), recordedExamples());
  const text = JSON.stringify(doc);

  it('refers only to components.schemas, and every reference resolves', () => {
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(50);
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    const broken = refs.filter((r) => !r.startsWith('#/components/schemas/') || !(r.slice('#/components/schemas/'.length) in schemas));
    expect(broken).toEqual([]);
    expect(text).not.toContain('$defs');
  });

  it('passes Redocly lint (recommended ruleset) with zero errors', async () => {
    // recorded examples that do not match their schemas would only warn under the recommended ruleset
    const config = await createConfig({ extends: ['recommended'], rules: { 'no-invalid-media-type-examples': 'error', 'no-invalid-parameter-examples': 'error' } });
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    // Warnings accepted, and only these kinds: the spec's own paths /schema/configs/{id} and
    // /schema/{id}/versions overlap, and health probes, docs and the portal page answer no 4xx of their own.
    const warningKinds = new Set(problems.filter((p) => p.severity === 'warn').map((p) => p.ruleId));
    expect([...warningKinds].filter((k) => !['no-ambiguous-paths', 'operation-4xx-response'].includes(k))).toEqual([]);
  });

  it('passes swagger-parser validation (OpenAPI 3.1 schema and references)', () => {
    // In a child node: swagger-parser is CommonJS requiring an ES module, which jest's module runtime cannot load.
    const script = `import SwaggerParser from '@apidevtools/swagger-parser';
      const chunks = []; for await (const c of process.stdin) chunks.push(c);
      try { await SwaggerParser.validate(JSON.parse(Buffer.concat(chunks).toString())); console.log('valid'); }
      catch (e) { console.log(e.message); process.exitCode = 1; }`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { input: text, encoding: 'utf8', cwd: process.cwd() });
    expect(run.stdout.trim()).toBe('valid');
    expect(run.status).toBe(0);
  });

  it('carries a recorded request and response example, with curl (and SDK) snippets, on every operation', () => {
    type Op = { operationId: string; description?: string; requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { content?: Record<string, { example?: unknown; examples?: unknown }> }>; 'x-codeSamples'?: { label: string; source: string }[] };
    const ops = Object.values(doc.paths as Record<string, Record<string, Op>>).flatMap((p) => Object.values(p));
    const missing: string[] = [];
    for (const op of ops) {
      if (op.requestBody && !Object.values(op.requestBody.content).some((m) => m.example !== undefined)) missing.push(`${op.operationId}: request`);
      const responses = Object.entries(op.responses).filter(([code]) => /^2|^503$/.test(code)).map(([, r]) => r);
      if (!responses.some((r) => Object.values(r.content ?? {}).some((m) => m.example !== undefined || m.examples !== undefined))) missing.push(`${op.operationId}: response`);
      const samples = op['x-codeSamples'] ?? [];
      if (!samples.some((s) => s.label === 'curl' && s.source.startsWith('curl '))) missing.push(`${op.operationId}: curl`);
      if (!op.description?.includes('```sh')) missing.push(`${op.operationId}: snippet in description`);
    }
    expect(missing).toEqual([]);
    const extract = ops.find((o) => o.operationId === 'extract')!;
    expect(extract['x-codeSamples']!.find((s) => s.label === '@quire/sdk')!.source).toContain("quire.extract('./invoice.pdf')");
    expect(extract['x-codeSamples']![0].source).toContain('-F file=@invoice.pdf');
  });

  it('gives every operation a unique operationId, a tag, error responses and its security', () => {
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string; tags: string[]; responses: Record<string, unknown>; security?: unknown[] }>>).flatMap((p) => Object.values(p));
    expect(ops.length).toBe(routeDocs().length);
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    for (const op of ops) {
      expect(op.tags).toHaveLength(1);
      expect(op.responses['500']).toBeDefined();
    }
    const upload = (doc.paths as Record<string, Record<string, { requestBody: { content: Record<string, { schema: { $ref: string } }> } }>>)['/extract'].post.requestBody.content;
    expect(upload['multipart/form-data'].schema.$ref).toBe('#/components/schemas/ExtractOptionsUpload');
    expect(((doc.components as { schemas: Record<string, { properties: Record<string, { format?: string }> }> }).schemas.ExtractOptionsUpload.properties.file.format)).toBe('binary');
    expect(Object.keys((doc.components as { securitySchemes: object }).securitySchemes).sort()).toEqual(['apiKey', 'portalToken']);
  });
});
