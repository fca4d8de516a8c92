export { classifyBuiltin, documentText, kindLogit, CLASSIFY_PAGES } from './classify.js';
export { classifyPagePlan, type ClassifyPagePlan } from './page-plan.js';
export { kindOf, kindEvidence, documentKindEvidence, DOCUMENT_KINDS, type DocumentKind, type KindEvidence } from './document-kind.js';
