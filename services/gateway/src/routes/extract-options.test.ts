import { ExtractOptionsSchema } from '@quire/contracts';
import { QuireError } from '@quire/core';
import { parseOrThrow } from '../http/validate.js';
import { normalizeExtractOptions } from './extract.js';

const normalize = (fields: Record<string, unknown>) => normalizeExtractOptions(parseOrThrow(ExtractOptionsSchema, fields));
const codeOf = (fn: () => unknown) => { try { fn(); } catch (e) { return e instanceof QuireError ? e.code : String(e); } return 'no error'; };

describe('extract options: extensions.chunking and extensions.chart_data', () => {
  it('takes chunk_types as a list or one name, from JSON or a multipart JSON string, without repeats', () => {
    expect(normalize({ extensions: { chunking: { chunk_types: ['header', 'page', 'header'] } } }).chunk_types).toEqual(['header', 'page']);
    expect(normalize({ extensions: '{"chunking":{"chunk_types":"recursive"}}' }).chunk_types).toEqual(['recursive']);
    expect(normalize({}).chunk_types).toBeUndefined();
  });

  it('refuses an unknown strategy or an empty list with REQ_003, and an unknown chunking field with REQ_002', () => {
    expect(codeOf(() => normalize({ extensions: { chunking: { chunk_types: ['sentence'] } } }))).toBe('REQ_003');
    expect(codeOf(() => normalize({ extensions: { chunking: { chunk_types: 'Header' } } }))).toBe('REQ_003');
    expect(codeOf(() => normalize({ extensions: { chunking: { chunk_types: [] } } }))).toBe('REQ_003');
    expect(codeOf(() => normalize({ extensions: { chunking: { chunk_type: 'page' } } }))).toBe('REQ_002');
  });

  it('reads chart_data as a boolean, off by default', () => {
    expect(normalize({ extensions: '{"chart_data":true}' }).chart_data).toBe(true);
    expect(normalize({}).chart_data).toBe(false);
    expect(codeOf(() => normalize({ extensions: { chart_data: 'maybe' } }))).toBe('REQ_003');
  });

  it('reads html_main_content as a boolean, absent (decided per page) by default', () => {
    expect(normalize({ extensions: '{"html_main_content":false}' }).html_main_content).toBe(false);
    expect(normalize({ extensions: { html_main_content: 'true' } }).html_main_content).toBe(true);
    expect('html_main_content' in normalize({})).toBe(false);
    expect(codeOf(() => normalize({ extensions: { html_main_content: 'maybe' } }))).toBe('REQ_003');
  });
});
