/**
 * The best one-to-one assignment of rows (values to place) to columns (fields) by total score: the
 * Hungarian method on costs, with one "left unplaced" column per row so that a row takes no field
 * rather than a field scoring under `minScore`. Returns, per row, its column or -1.
 */
export function bestAssignment(scores: number[][], minScore: number): number[] {
  const n = scores.length;
  if (!n) return [];
  const m = scores[0].length;
  const cols = m + n;
  const top = 1 + Math.max(0, ...scores.flat());
  const FORBIDDEN = top * 4;
  // cost of row i in column j: fields by their score, the row's own "unplaced" column at `top`, others forbidden
  const cost = (i: number, j: number) => (j < m ? (scores[i][j] >= minScore ? top - scores[i][j] : FORBIDDEN) : j - m === i ? top : FORBIDDEN);
  // e-maxx Hungarian, 1-indexed, rows ≤ columns
  const u = new Float64Array(n + 1), v = new Float64Array(cols + 1);
  const p = new Int32Array(cols + 1), way = new Int32Array(cols + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(cols + 1).fill(Infinity);
    const used = new Uint8Array(cols + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0];
      let delta = Infinity, j1 = 0;
      for (let j = 1; j <= cols; j++) {
        if (used[j]) continue;
        const cur = cost(i0 - 1, j - 1) - u[i0] - v[j];
        if (cur < minv[j]) { minv[j] = cur; way[j] = j0; }
        if (minv[j] < delta) { delta = minv[j]; j1 = j; }
      }
      for (let j = 0; j <= cols; j++) {
        if (used[j]) { u[p[j]] += delta; v[j] -= delta; } else minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do { const j1 = way[j0]; p[j0] = p[j1]; j0 = j1; } while (j0);
  }
  const out = new Array<number>(n).fill(-1);
  for (let j = 1; j <= m; j++) if (p[j] && scores[p[j] - 1][j - 1] >= minScore) out[p[j] - 1] = j - 1;
  return out;
}
