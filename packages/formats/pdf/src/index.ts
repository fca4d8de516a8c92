export { readPdf, readPdfPages, type PdfReadResult } from './read.js';
export { openPdf, type PdfHandle } from './handle.js';
export { setPdfWorkerThread, loadPdfjs, openDocument, standardFontFile, type RangeSource, type PDFDocumentProxy, type PDFPageProxy } from './pdfjs.js';
export { loadEditablePdf } from './pdf-lib-document.js';
export { countPdfPages } from './page-count.js';
export { encryptedPdfError, unreadablePdfError } from './errors.js';
export { type Matrix, IDENTITY, multiply, applyMatrix, invertMatrix } from './matrix.js';
export { type ContentOp, type Operand, isName, isString, numberOf, parseContent, rewriteContent } from './content-stream.js';
