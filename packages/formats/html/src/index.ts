export { parse } from './parse-html.js';
