import { clusterDrawings } from './clusters.js';
import type { Piece } from './paths.js';

const W = 612, H = 792;

/** Small curve pieces (a drawing's strokes) filling a region. */
function strokes(x0: number, y0: number, x1: number, y1: number, n = 16): Piece[] {
  return Array.from({ length: n }, (_, i) => {
    const w = (x1 - x0) / 4, h = (y1 - y0) / 4;
    const x = x0 + w * (i % 4), y = y0 + h * Math.floor(i / 4);
    return { x0: x, y0: y, x1: x + w + 2, y1: y + h + 2, count: 1 };
  });
}

describe('clusterDrawings', () => {
  it('two framed figures across a narrow gutter stay two drawings', () => {
    // left frame 72..306 × 540..700, right frame 318..552 × 420..700: 12 pt apart, closer than the join gap
    const left: Piece = { x0: 72, y0: 540, x1: 306, y1: 700, count: 4, outline: true };
    const right: Piece = { x0: 318, y0: 420, x1: 552, y1: 700, count: 4, outline: true };
    const out = clusterDrawings([left, right, ...strokes(90, 560, 290, 690), ...strokes(330, 440, 540, 690)], [], W, H);
    expect(out).toHaveLength(2);
    const [a, b] = [...out].sort((p, q) => p.box.x0 - q.box.x0);
    expect(a.box.x1 * W).toBeCloseTo(306, 0);
    expect(b.box.x0 * W).toBeCloseTo(318, 0);
    expect(b.box.y0 * H).toBeCloseTo(420, 0); // the left drawing does not reach up into the text beside the right one
    expect(a.box.y0 * H).toBeCloseTo(540, 0);
  });

  it('without outlines, nearby strokes still join into one drawing', () => {
    const out = clusterDrawings([...strokes(90, 560, 290, 690), ...strokes(300, 560, 500, 690)], [], W, H);
    expect(out).toHaveLength(1);
  });
});
