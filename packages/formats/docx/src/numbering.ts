import { parseXml, type XmlNode } from '@quire/format-ooxml';

interface Level { numFmt: string; lvlText: string; start: number }

const v = (n: unknown): string | undefined => (n && typeof n === 'object' ? ((n as XmlNode)['@_w:val'] as string | undefined) : undefined);

function readLevels(lvls: XmlNode[]): Map<number, Level> {
  const out = new Map<number, Level>();
  for (const l of lvls) {
    const ilvl = Number(l['@_w:ilvl'] ?? 0);
    out.set(ilvl, { numFmt: v(l['w:numFmt']) ?? 'decimal', lvlText: v(l['w:lvlText']) ?? `%${ilvl + 1}.`, start: Number(v(l['w:start']) ?? 1) });
  }
  return out;
}

function toRoman(n: number): string {
  const map: [number, string][] = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];
  let out = '';
  for (const [val, s] of map) while (n >= val) { out += s; n -= val; }
  return out;
}

function toLetters(n: number): string {
  let s = '';
  while (n > 0) { n--; s = String.fromCharCode(97 + (n % 26)) + s; n = Math.floor(n / 26); }
  return s;
}

export function formatNumber(n: number, fmt: string): string {
  switch (fmt) {
    case 'lowerLetter': return toLetters(n);
    case 'upperLetter': return toLetters(n).toUpperCase();
    case 'lowerRoman': return toRoman(n);
    case 'upperRoman': return toRoman(n).toUpperCase();
    default: return String(n);
  }
}

/**
 * numbering.xml: w:num → w:abstractNum levels (format, level text, start, overrides). `next` advances
 * the counters the way Word does for one list instance: a level counts on, deeper levels restart.
 */
export class Numbering {
  private levels = new Map<string, Map<number, Level>>();
  private counters = new Map<string, number[]>();

  constructor(xml: string | undefined) {
    if (!xml) return;
    const doc = parseXml(xml, ['w:abstractNum', 'w:num', 'w:lvl', 'w:lvlOverride'], 'numbering');
    const root = (doc['w:numbering'] ?? {}) as XmlNode;
    const abstract = new Map<string, Map<number, Level>>();
    for (const a of (root['w:abstractNum'] ?? []) as XmlNode[]) abstract.set(String(a['@_w:abstractNumId']), readLevels((a['w:lvl'] ?? []) as XmlNode[]));
    for (const n of (root['w:num'] ?? []) as XmlNode[]) {
      const base = abstract.get(String(v(n['w:abstractNumId']))) ?? new Map<number, Level>();
      const levels = new Map(base);
      for (const o of (n['w:lvlOverride'] ?? []) as XmlNode[]) {
        const ilvl = Number(o['@_w:ilvl'] ?? 0);
        const lvl = o['w:lvl'] as XmlNode[] | undefined;
        if (lvl?.length) levels.set(ilvl, readLevels(lvl).values().next().value!);
        const start = v(o['w:startOverride']);
        if (start !== undefined) levels.set(ilvl, { ...(levels.get(ilvl) ?? { numFmt: 'decimal', lvlText: `%${ilvl + 1}.` }), start: Number(start) });
      }
      this.levels.set(String(n['@_w:numId']), levels);
    }
  }

  /** Marker and orderedness for the next paragraph of list `numId` at `ilvl`; undefined when not a list. */
  next(numId: string, ilvl: number): { marker: string; ordered: boolean } | undefined {
    if (numId === '0') return undefined;
    const levels = this.levels.get(numId);
    if (!levels) return undefined;
    const lvl = levels.get(ilvl) ?? { numFmt: 'bullet', lvlText: '•', start: 1 };
    if (lvl.numFmt === 'none') return undefined;
    const c = this.counters.get(numId) ?? [];
    for (let i = 0; i < ilvl; i++) if (c[i] === undefined) c[i] = levels.get(i)?.start ?? 1;
    c[ilvl] = c[ilvl] === undefined ? lvl.start : c[ilvl] + 1;
    c.length = ilvl + 1;
    this.counters.set(numId, c);
    if (lvl.numFmt === 'bullet') return { marker: '-', ordered: false };
    const marker = lvl.lvlText.replace(/%([1-9])/g, (_m, d: string) => {
      const i = Number(d) - 1;
      return formatNumber(c[i] ?? 1, levels.get(i)?.numFmt ?? 'decimal');
    });
    return { marker: marker.trim() || `${c[ilvl]}.`, ordered: true };
  }
}
