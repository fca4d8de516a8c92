export * from './types.js';
export { detectForm } from './detect.js';
export { fillForm } from './fill.js';
export { clearForm } from './clear.js';
export { toFillableCells, toSpecFormCells, fromSpecFormCells, type FormCell } from './convert.js';
export { readPageGeometry } from './page-geometry.js';
export { mapFormInstructionsByLabel } from './instructions/map.js';
