export { parse, countDocxPages, type DocxPartReader } from './parse-docx.js';
