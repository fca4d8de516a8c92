import type { FontInfo } from './text.js';

/**
 * Bold/italic from a PostScript font name, for fonts whose flags pdf.js does not set. Names carry the
 * style after a '-' or ',' (Arial-BoldMT, Verdana,Bold) or glued on in abbreviated form (MyriadBdIt,
 * HelveticaNeueLTStd-BlkCn); TeX fonts encode it in the family code (CMBX10 bold, CMTI10 italic,
 * SFTI1200 italic). "Medium" is not bold (500), but URW's "Medi" is their Bold.
 */
export function styleFromName(rawName: string): { bold: boolean; italic: boolean } {
  const name = rawName.replace(/^[A-Z]{6}\+/, '');
  const bold = /bold|black|heavy|semibold|demi|extrabold|ultrabold|ultrablack/i.test(name) ||
    /(Bd|Blk|Hv|Sb)(?=[A-Z]|$|\d)/.test(name) || /[-,]Medi(Ital)?$/.test(name) ||
    /^(CMBX|CMB\d|CMBSY|SFBX|SFB\d|SFBI|LMRoman\d*-Bold)/.test(name);
  const italic = /italic|oblique|slanted|kursiv/i.test(name) || /(It|Obl|Ita|Ital)(?=[A-Z]|$|\d)/.test(name) ||
    /^(CMTI|CMSL|CMBXTI|CMBXSL|CMMI|CMITT|SFTI|SFSL|SFBI|SFBL)/.test(name);
  return { bold, italic };
}

interface PdfjsFontLike { name?: string; bold?: boolean; black?: boolean; italic?: boolean }

/** Font name without the subset tag (ABCDEF+), with pdf.js's flags or else the name's style. */
export function fontInfoFrom(f: PdfjsFontLike | null | undefined): FontInfo | undefined {
  if (!f) return undefined;
  const name = typeof f.name === 'string' ? f.name.replace(/^[A-Z]{6}\+/, '') : undefined;
  const fromName = name ? styleFromName(name) : { bold: false, italic: false };
  return { name, bold: !!(f.bold || f.black) || fromName.bold, italic: !!f.italic || fromName.italic };
}
