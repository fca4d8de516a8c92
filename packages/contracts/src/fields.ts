import { z } from 'zod';

/** Multipart fields arrive as strings; JSON bodies as JSON. These accept both. */
export const BoolField = z.preprocess((v) => {
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(s)) return true;
    if (['false', '0', 'no', 'off', ''].includes(s)) return false;
  }
  return v;
}, z.boolean());

export const IntField = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().int());

/** A JSON object given either as an object or as a JSON string (multipart). */
export const jsonObjectField = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => {
    if (typeof v === 'string') {
      try { return JSON.parse(v); } catch { return v; }
    }
    return v;
  }, schema);

export const PageRangeField = z.string().min(1).describe('1-based pages and ranges, e.g. "1-3,5"');
