export { classifyBuiltin, documentText, pipelineTokens, CLASSIFY_PAGES, MIN_EVIDENCE } from './classify.js';
export { classifyPagePlan, type ClassifyPagePlan } from './page-plan.js';
