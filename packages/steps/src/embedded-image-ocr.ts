import type { ParseOptions } from '@quire/core';
import type { Config } from '@quire/runtime';

/** OCR of images on text-layer PDF pages, as the QUIRE_OCR_EMBEDDED_IMAGE* settings say. */
export const embeddedImageOcr = (config: Pick<Config, 'ocrEmbeddedImages' | 'ocrEmbeddedImagePagePixels' | 'ocrEmbeddedImageDocumentPixels'>): ParseOptions['embeddedImageOcr'] =>
  config.ocrEmbeddedImages
    ? { maxPixelsPerPage: config.ocrEmbeddedImagePagePixels, maxPixelsPerDocument: config.ocrEmbeddedImageDocumentPixels }
    : false;
