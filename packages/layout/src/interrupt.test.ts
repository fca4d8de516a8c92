import { interruptible } from '@quire/core';
import { layoutDocument } from '@quire/layout';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';

/**
 * Layout is synchronous and takes seconds on a crowded page; a job told to stop meanwhile must not run
 * it to the end. Its loops call checkInterrupt, so a check that throws ends it from inside (not only
 * between pages or phases).
 */
function crowdedPage() {
  const p = new PageBuilder(1, 1224, 1584);
  for (let col = 0; col < 4; col++) {
    let y = 40;
    for (let k = 0; k < 12; k++) y = p.paragraph(40 + col * 290, y, 270, prose(60, col * 50 + k), { size: 7 }) + 4;
  }
  for (let r = 0; r < 40; r++) for (let c = 0; c < 10; c++) p.text(40 + c * 110, 1100 + r * 10, String(r * 10 + c), { size: 6 });
  return p.build();
}

describe('layout and a stop check', () => {
  it('checks many times while laying out one page, so a stop is seen within it', () => {
    const page = crowdedPage();
    let checks = 0;
    layoutDocument(input([page]));
    interruptible(() => { checks++; }, () => layoutDocument(input([page])));
    // far more than one check per phase: the loops over words, bands and rules check
    expect(checks).toBeGreaterThan(page.words.length);
  });

  it('the check\'s error ends the layout where it is raised', () => {
    const page = crowdedPage();
    const stop = new Error('job canceled');
    let checks = 0;
    expect(() => interruptible(() => { if (++checks === 100) throw stop; }, () => layoutDocument(input([page])))).toThrow(stop);
    expect(checks).toBe(100);
  });
});
