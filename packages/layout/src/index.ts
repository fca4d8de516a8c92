export { layoutDocument, type LayoutInput, type LayoutOptions } from './layout-document.js';
export { analyzePage, type PageRegion } from './analyze-page.js';
export { finishDocument } from './finish.js';
export type { PageAnalysis, PageItem, BlockSummary } from './types.js';
export { normalizeText } from './text.js';
