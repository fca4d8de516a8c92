import { QuireError } from '@quire/core';
import { parseRels, parseXmlTree, relsPathFor, xAttr, xChild, xChildren, type SafeZip } from '@quire/format-ooxml';

export interface SheetInfo {
  name: string;
  state: 'visible' | 'hidden' | 'veryHidden';
  kind: 'worksheet' | 'chartsheet' | 'other';
  part?: string;
  /** 0-based position in the workbook (hidden sheets counted). */
  workbookIndex: number;
}

export interface Workbook {
  part: string;
  sheets: SheetInfo[];
  date1904: boolean;
  stylesPart?: string;
  sharedStringsPart?: string;
}

export async function readWorkbook(zip: SafeZip, maxDepth: number): Promise<Workbook> {
  const rootRels = parseRels(await zip.text('_rels/.rels'), '');
  const part = [...rootRels.values()].find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  const xml = await zip.text(part);
  if (!xml) throw new QuireError('FILE_003', 'File corrupted: no Excel workbook part', { part });
  const root = parseXmlTree(xml, part, maxDepth);
  const rels = parseRels(await zip.text(relsPathFor(part)), part);
  const pr = xAttr(xChild(root, 'workbookPr'), 'date1904');
  const sheets = xChildren(xChild(root, 'sheets'), 'sheet').map((s, i): SheetInfo => {
    const rel = rels.get(xAttr(s, 'r:id') ?? '');
    const type = rel?.type ?? '';
    const state = xAttr(s, 'state');
    return {
      name: xAttr(s, 'name') ?? `Sheet${i + 1}`,
      state: state === 'hidden' || state === 'veryHidden' ? state : 'visible',
      kind: type.endsWith('/worksheet') ? 'worksheet' : type.endsWith('/chartsheet') ? 'chartsheet' : 'other',
      part: rel && !rel.external ? rel.target : undefined,
      workbookIndex: i,
    };
  });
  const byType = (t: string) => [...rels.values()].find((r) => r.type.endsWith(t) && !r.external)?.target;
  return { part, sheets, date1904: pr === '1' || pr === 'true', stylesPart: byType('/styles'), sharedStringsPart: byType('/sharedStrings') };
}
