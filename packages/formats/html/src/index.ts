export { parse } from './parse-html.js';
export { decodeHtml, detectCharset } from './decode.js';
