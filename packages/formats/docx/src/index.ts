export { parse } from './parse-docx.js';
