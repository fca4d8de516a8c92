import { findElementById, type Document } from '@quire/core';
import { extractSchemaBuiltin } from './extract-schema.js';
import { invoiceDocument } from '../../../tests/fixtures/documents/invoice.js';
import { formDocument } from '../../../tests/fixtures/documents/form.js';

/** The text an id points at (a text element or a table cell). */
function textOf(doc: Document, id: string): string {
  const hit = findElementById(doc, id);
  if (!hit) throw new Error(`citation ${id} does not resolve`);
  const el = hit.element;
  if (el.kind === 'table') return hit.cellIndex !== undefined ? el.cells[hit.cellIndex].text : '';
  return el.text;
}

/** Every cited element exists and contains the value's printed digits/words. */
function expectCited(doc: Document, ids: unknown, printed: string) {
  expect(Array.isArray(ids)).toBe(true);
  const norm = (s: string) => s.replace(/[\s,]/g, '').toLowerCase();
  for (const id of ids as string[]) expect(norm(textOf(doc, id))).toContain(norm(printed));
}

const invoiceSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    due_date: { type: 'string', format: 'date' },
    customer_id: { type: 'string' },
    po_number: { type: 'string' },
    payment_terms: { type: 'string' },
    email: { type: 'string', format: 'email' },
    subtotal: { type: 'number' },
    total: { type: 'number', description: 'The total amount due' },
    currency: { type: 'string' },
    tax_id: { type: 'string', description: 'VAT registration number' },
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { description: { type: 'string' }, quantity: { type: 'integer' }, unit_price: { type: 'number' }, amount: { type: 'number' } },
      },
    },
  },
  required: ['invoice_number', 'total'],
};

describe('extractSchemaBuiltin on an invoice', () => {
  const doc = invoiceDocument();
  const out = extractSchemaBuiltin({ document: doc, schema: invoiceSchema, wantConfidence: true });
  const v = out.values as Record<string, unknown>;
  const c = out.citations as Record<string, unknown>;
  const conf = out.confidence as Record<string, unknown>;

  it('reads label: value lines and normalizes dates', () => {
    expect(v.invoice_number).toBe('INV-2024-0042');
    expect(v.invoice_date).toBe('2024-02-02');
    // 03/03/2024 is the same either way round; the document has no US signals
    expect(v.due_date).toBe('2024-03-03');
    expectCited(doc, c.invoice_number, 'INV-2024-0042');
    expectCited(doc, c.invoice_date, '2 Feb 2024');
  });

  it('reads a value printed to the right of its label and in the next table cell', () => {
    expect(v.customer_id).toBe('C-99812');
    expect(v.po_number).toBe('PO-7781');
    expect(v.payment_terms).toBe('Net 30');
    expectCited(doc, c.customer_id, 'C-99812');
    expect((c.po_number as string[])[0]).toMatch(/^tbl-\d+-r1c1$/);
  });

  it('prefers the grand total and reads money', () => {
    expect(v.total).toBe(1559.4);
    expect(v.subtotal).toBe(1299.5);
    expect(v.currency).toBe('EUR');
    expect(v.email).toBe('billing@acme-supplies.example');
    expectCited(doc, c.total, '1,559.40');
  });

  it('maps the line-items table to objects, skipping the totals row', () => {
    expect(v.line_items).toEqual([
      { description: 'Widget A', quantity: 2, unit_price: 10, amount: 20 },
      { description: 'Gadget B', quantity: 1, unit_price: 1234.5, amount: 1234.5 },
      { description: 'Service fee', quantity: 3, unit_price: 15, amount: 45 },
    ]);
    const rows = c.line_items as Record<string, string[]>[];
    expect(rows[1].unit_price[0]).toMatch(/-r2c2$/);
    expectCited(doc, rows[1].unit_price, '1,234.50');
  });

  it('returns null with a note for a field the document does not have', () => {
    expect(v.tax_id).toBeNull();
    expect(c.tax_id).toBeNull();
    expect(out.notes?.['/tax_id']).toMatch(/not found/);
  });

  it('gives confidence that orders sure and contested answers', () => {
    for (const k of ['invoice_number', 'invoice_date', 'total']) {
      expect(conf[k]).toBeGreaterThan(0);
      expect(conf[k]).toBeLessThanOrEqual(1);
    }
    expect(conf.invoice_number as number).toBeGreaterThan(0.85);
    // two labelled totals compete (table total vs total due): less sure than a lone invoice number
    expect(conf.total as number).toBeLessThan(conf.invoice_number as number);
    expect(conf.tax_id).toBeNull();
  });

  it('leaves confidence out unless asked', () => {
    expect(extractSchemaBuiltin({ document: doc, schema: invoiceSchema }).confidence).toBeUndefined();
  });
});

describe('extractSchemaBuiltin on a form (label above value)', () => {
  const doc = formDocument();
  const schema = {
    type: 'object',
    properties: {
      full_name: { type: 'string' },
      date_of_birth: { type: 'string', format: 'date' },
      email: { type: 'string', format: 'email' },
      phone: { type: 'string' },
      website: { type: 'string', format: 'uri' },
      member_discount: { type: 'number' },
      married: { type: 'boolean' },
      number_of_dependents: { type: 'integer' },
      employer: { type: ['string', 'null'] },
      applicant: { type: 'object', properties: { email: { type: 'string' } } },
    },
  };
  const out = extractSchemaBuiltin({ document: doc, schema, wantConfidence: true });
  const v = out.values as Record<string, unknown>;
  const c = out.citations as Record<string, unknown>;

  it('reads values below their labels, coerced to the schema types', () => {
    expect(v).toMatchObject({
      full_name: 'Jane Q. Public', date_of_birth: '1990-03-05', email: 'jane.public@example.org', phone: '(555) 123-4567',
      website: 'https://jane.example.org', member_discount: 15, married: true, number_of_dependents: 2, employer: null,
    });
    expect((v.applicant as Record<string, unknown>).email).toBe('jane.public@example.org');
    expectCited(doc, c.full_name, 'Jane Q. Public');
    expectCited(doc, c.date_of_birth, 'March 5, 1990');
    expectCited(doc, c.married, 'Yes');
    expect(out.notes?.['/employer']).toBeDefined();
  });
});

describe('schema-shaped output', () => {
  it('nulls a value the schema rejects instead of returning it', () => {
    const doc = formDocument();
    const out = extractSchemaBuiltin({ document: doc, schema: { type: 'object', properties: { full_name: { type: 'string', maxLength: 5 } } } });
    expect((out.values as Record<string, unknown>).full_name).toBeNull();
    expect(out.notes?.['/full_name']).toMatch(/schema validation/);
  });
  it('does not invent a date for a field with no label (no guessing)', () => {
    const out = extractSchemaBuiltin({ document: formDocument(), schema: { type: 'object', properties: { start_date: { type: 'string', format: 'date' } } } });
    expect((out.values as Record<string, unknown>).start_date).toBeNull();
  });
});
