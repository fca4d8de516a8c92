/**
 * Page size of a raster in points. A density (DPI) recorded in the file is used when it is above
 * 72: 72 is what sharp reports both for "absent" and for the screen default, so it says nothing.
 * Without a usable density, an image whose longer side is at least 2000 px is taken as a 300 DPI
 * page scan (a letter/A4 scan is 2480–3508 px), and a smaller one as 72 DPI (1 px = 1 pt: screenshots,
 * photos, web images), which keeps both kinds at plausible paper sizes. A page larger than the
 * side limit gets a higher density rather than an absurd size.
 */
export function pageSizePt(width: number, height: number, density: number | undefined, maxSidePt: number): { widthPt: number; heightPt: number; dpi: number } {
  let dpi: number;
  if (density !== undefined && density > 72 && density <= 4800) dpi = density;
  else dpi = Math.max(width, height) >= 2000 ? 300 : 72;
  const longest = (Math.max(width, height) / dpi) * 72;
  if (longest > maxSidePt) dpi = (Math.max(width, height) * 72) / maxSidePt;
  return { widthPt: (width / dpi) * 72, heightPt: (height / dpi) * 72, dpi };
}
