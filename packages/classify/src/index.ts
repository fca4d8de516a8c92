export { classifyBuiltin, documentText, CLASSIFY_PAGES } from './classify.js';
export { classifyPagePlan, type ClassifyPagePlan } from './page-plan.js';
