import type { DetectedCell } from './types.js';

type NBox = [number, number, number, number];

/** The box of each checkbox of a cell: from detection when known, else a square around its centre. */
export function detailBoxes(cell: DetectedCell): NBox[] {
  const details = cell.checkbox_details ?? [];
  const known = cell.source.kind === 'drawn' ? cell.source.boxes : undefined;
  if (known && known.length === details.length) return known;
  const b = cell.bounding_box;
  const side = Math.min(b[2] - b[0], b[3] - b[1]) / 2;
  return details.map((d) => [d.center_coord[0] - side, d.center_coord[1] - side, d.center_coord[0] + side, d.center_coord[1] + side]);
}
