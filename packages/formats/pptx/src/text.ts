import { xAttr, xChild, xChildren, type XEl } from '@quire/format-ooxml';

export interface Paragraph {
  text: string;
  /** a:pPr lvl (0-based outline level). */
  level: number;
  bullet?: { ordered: boolean; marker: string };
}

type BulletRule = { kind: 'none' } | { kind: 'char' } | { kind: 'num'; type: string; startAt: number };

function bulletRule(pPr: XEl | undefined): BulletRule | undefined {
  if (!pPr) return undefined;
  for (const c of pPr.children) {
    if (c.local === 'buNone') return { kind: 'none' };
    if (c.local === 'buChar' || c.local === 'buBlip') return { kind: 'char' };
    if (c.local === 'buAutoNum') return { kind: 'num', type: xAttr(c, 'type') ?? 'arabicPeriod', startAt: Number(xAttr(c, 'startAt') ?? 1) || 1 };
  }
  return undefined;
}

/** Paragraph text: runs, fields and line breaks in order. */
export function paragraphText(p: XEl, lineBreak = '\n'): string {
  let s = '';
  for (const c of p.children) {
    if (c.local === 'r' || c.local === 'fld') s += xChildren(c, 't').map((t) => t.text).join('');
    else if (c.local === 'br') s += lineBreak;
  }
  return s;
}

const ROMAN: [number, string][] = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];
const roman = (n: number) => ROMAN.reduce((acc, [v, s]) => { while (n >= v) { acc += s; n -= v; } return acc; }, '');
const alpha = (n: number) => { let s = ''; while (n > 0) { n--; s = String.fromCharCode(97 + (n % 26)) + s; n = Math.floor(n / 26); } return s; };

/** Renders an auto-number marker ("arabicPeriod" 3 → "3.", "alphaUcParenR" 2 → "B)"). */
function autoNumMarker(type: string, n: number): string {
  const m = /^(arabic|alphaLc|alphaUc|romanLc|romanUc)(.*)$/.exec(type);
  const scheme = m?.[1] ?? 'arabic', suffix = m?.[2] ?? 'Period';
  let v = scheme === 'arabic' ? String(n) : scheme.startsWith('alpha') ? alpha(n) : roman(n);
  if (scheme.endsWith('Uc')) v = v.toUpperCase();
  if (suffix.startsWith('ParenBoth')) return `(${v})`;
  if (suffix.startsWith('ParenR')) return `${v})`;
  if (suffix.startsWith('Plain')) return v;
  return `${v}.`;
}

/**
 * Reads a text body's paragraphs with their outline level and bullet. A bullet is decided by the
 * paragraph's own pPr, then the list styles in order (the shape's lstStyle, the layout and master
 * placeholders', the master's body/title style): the first that says buNone/buChar/buAutoNum wins.
 */
export function readParagraphs(txBody: XEl | undefined, inherited: XEl[]): Paragraph[] {
  const chain = [xChild(txBody, 'lstStyle'), ...inherited].filter((x): x is XEl => !!x);
  const counters: number[] = [];
  const out: Paragraph[] = [];
  for (const p of xChildren(txBody, 'p')) {
    const pPr = xChild(p, 'pPr');
    const level = Math.min(8, Math.max(0, Number(xAttr(pPr, 'lvl') ?? 0) || 0));
    const text = paragraphText(p);
    if (!text.trim()) continue;
    let rule = bulletRule(pPr);
    for (const style of chain) {
      if (rule) break;
      rule = bulletRule(xChild(style, `lvl${level + 1}pPr`));
    }
    counters.length = Math.min(counters.length, level + 1);
    const para: Paragraph = { text, level };
    if (rule?.kind === 'char') {
      counters[level] = 0;
      para.bullet = { ordered: false, marker: '-' };
    } else if (rule?.kind === 'num') {
      counters[level] = (counters[level] || rule.startAt - 1) + 1;
      para.bullet = { ordered: true, marker: autoNumMarker(rule.type, counters[level]) };
    } else counters.length = 0;
    out.push(para);
  }
  return out;
}
