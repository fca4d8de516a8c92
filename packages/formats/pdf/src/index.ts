export { readPdf, readPdfPages, type PdfReadResult } from './read.js';
export { openPdf, type PdfHandle } from './handle.js';
export { setPdfWorkerThread, loadPdfjs } from './pdfjs.js';
