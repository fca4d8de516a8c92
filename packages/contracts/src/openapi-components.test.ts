import { z } from 'zod';
import { ComponentSchemas } from './openapi-components.js';

// ids unique to this test: the global zod registry is shared by every schema loaded in the process
const Money = z.object({ amount: z.number(), currency: z.string().default('EUR') }).meta({ id: 'TestMoney' });
const Order = z.object({ total: Money, note: z.string().optional() }).meta({ id: 'TestOrder' });
const Flag = z.object({ on: z.boolean() }).strict().meta({ id: 'TestFlag' });

describe('ComponentSchemas', () => {
  it('makes every named schema a component and refers to it by #/components/schemas (no $defs)', () => {
    const c = new ComponentSchemas();
    const ref = c.ref(Order, 'output', 'Unused');
    const { schemas, resolve } = c.build();
    expect(resolve(ref)).toEqual({ $ref: '#/components/schemas/TestOrder' });
    expect(Object.keys(schemas).sort()).toEqual(['TestMoney', 'TestOrder']); // only what the references reach
    expect((schemas.TestOrder.properties as Record<string, unknown>).total).toEqual({ $ref: '#/components/schemas/TestMoney' });
    expect(JSON.stringify(schemas)).not.toMatch(/\$defs|\$schema|"\$id"/);
  });

  it('gives a request its own component where its input form differs (a default is optional to send), and its referrers too', () => {
    const c = new ComponentSchemas();
    const req = c.ref(Order, 'input', 'X');
    const res = c.ref(Order, 'output', 'X');
    const { schemas, resolve } = c.build();
    expect([resolve(req).$ref, resolve(res).$ref]).toEqual(['#/components/schemas/TestOrderInput', '#/components/schemas/TestOrder']);
    expect(schemas.TestMoney.required).toEqual(['amount', 'currency']);
    expect(schemas.TestMoneyInput.required).toEqual(['amount']);
    expect((schemas.TestOrderInput.properties as Record<string, unknown>).total).toEqual({ $ref: '#/components/schemas/TestMoneyInput' });
  });

  it('names an unnamed schema by its fallback, made unique, and adds the file part to an upload', () => {
    const c = new ComponentSchemas();
    const a = c.ref(z.object({ x: z.string() }), 'output', 'ThingResponse');
    const b = c.ref(z.object({ y: z.string() }), 'output', 'ThingResponse');
    const up = c.ref(Flag, 'upload', 'Y');
    const { schemas, resolve } = c.build();
    expect([resolve(a).$ref, resolve(b).$ref, resolve(up).$ref]).toEqual(['#/components/schemas/ThingResponse', '#/components/schemas/ThingResponse2', '#/components/schemas/TestFlagUpload']);
    expect(schemas.TestFlagUpload).toMatchObject({ additionalProperties: false, properties: { file: { type: 'string', format: 'binary' }, on: { type: 'boolean' } } });
  });

  it('leaves response objects open unless asked to close them; strict objects are closed either way', () => {
    const open = new ComponentSchemas();
    open.ref(Order, 'output', 'X');
    open.ref(Flag, 'output', 'Y');
    const closed = new ComponentSchemas({ closedResponses: true });
    closed.ref(Order, 'output', 'X');
    const o = open.build().schemas;
    expect(o.TestOrder.additionalProperties).toBeUndefined();
    expect(o.TestFlag.additionalProperties).toBe(false);
    expect(closed.build().schemas.TestOrder.additionalProperties).toBe(false);
  });
});
