import { BUILTIN_NUM_FMTS, isDateFormat, parseXmlTree, xAttr, xChild, xChildren } from '@quire/format-ooxml';

/** Per cell-style (cellXfs index): the number format code and whether the font is bold. */
export interface Styles {
  code(s: number): string;
  bold(s: number): boolean;
  isDate(s: number): boolean;
}

const on = (v: string | undefined) => v === undefined || v === '1' || v === 'true';

export function readStyles(xml: string | undefined, maxDepth: number): Styles {
  const codes: string[] = [];
  const bolds: boolean[] = [];
  if (xml) {
    const root = parseXmlTree(xml, 'xl/styles.xml', maxDepth);
    const custom = new Map<number, string>();
    for (const f of xChildren(xChild(root, 'numFmts'), 'numFmt')) custom.set(Number(xAttr(f, 'numFmtId')), xAttr(f, 'formatCode') ?? 'General');
    const fontBold = xChildren(xChild(root, 'fonts'), 'font').map((f) => {
      const b = xChild(f, 'b');
      return !!b && on(xAttr(b, 'val'));
    });
    for (const xf of xChildren(xChild(root, 'cellXfs'), 'xf')) {
      const id = Number(xAttr(xf, 'numFmtId') ?? 0);
      codes.push(custom.get(id) ?? BUILTIN_NUM_FMTS[id] ?? 'General');
      bolds.push(fontBold[Number(xAttr(xf, 'fontId') ?? 0)] ?? false);
    }
  }
  const dates = codes.map((c) => isDateFormat(c));
  return {
    code: (s) => codes[s] ?? 'General',
    bold: (s) => bolds[s] ?? false,
    isDate: (s) => dates[s] ?? false,
  };
}
