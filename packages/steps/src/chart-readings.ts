import { isQuireError, type Document, type FigureElement } from '@quire/core';
import { figureImages } from '@quire/extract';
import { JOB_CATALOG } from '@quire/queue';
import { NO_CHART_MODEL, type ChartReading } from '@quire/tables';
import type { JobContext } from '@quire/jobs';
import type { SavedExtraction } from './saved-extraction.js';

export interface DrawnChartReadings {
  /** By figure id: the series the vision model read, or why the chart could not be read. */
  readings: Map<string, ChartReading>;
  /** Reason given for drawn charts that got no reading at all (no vision model configured). */
  unreadable: string;
}

const drawnCharts = (doc: Document): FigureElement[] =>
  doc.pages.flatMap((p) => p.elements).filter((e): e is FigureElement => e.kind === 'figure' && e.visualType === 'chart' && !e.chart && !!e.id);

/**
 * Charts drawn in a PDF or an image store no series. When the configured language model has vision
 * (LanguageModel.readChart), each such chart's picture is rendered from the extraction's source
 * document (kept until retention, as for figure images) and read into series by the model. A chart
 * whose picture cannot be rendered, or whose reading the model could not make a table of, gets the
 * reason instead; transport trouble with the model (PROC_002/003/004) fails the job, which retries.
 */
export async function readDrawnCharts(ctx: JobContext, saved: SavedExtraction, extractionId: string): Promise<DrawnChartReadings> {
  const readings = new Map<string, ChartReading>();
  const drawn = drawnCharts(saved.document);
  const lm = ctx.services.languageModel;
  if (drawn.length === 0) return { readings, unreadable: NO_CHART_MODEL };
  if (!lm.supportsVision || !lm.readChart) {
    const unreadable = lm.id === 'builtin' ? NO_CHART_MODEL
      : `no series data: the chart is a picture (a raster image, or a drawing whose axes or sectors could not be read), and the configured model (${lm.id}) has no vision model to read it (QUIRE_LLM_VISION_MODEL)`;
    return { readings, unreadable };
  }
  // the extract job that saved the extraction names its staged source
  const source = JOB_CATALOG.extract.input.safeParse((await ctx.store.jobs.get(extractionId))?.input);
  if (!source.success) {
    return { readings, unreadable: 'no series data, and the source document of the extraction is no longer available to render the chart for the vision model' };
  }
  const { blob_key: blobKey, format } = source.data;
  const onlyDrawn: Document = { ...saved.document, pages: saved.document.pages.map((p) => ({ ...p, elements: p.elements.filter((e) => drawn.includes(e as FigureElement)) })) };
  const pictures = await figureImages(onlyDrawn, format, () => ctx.blobs.getBytes(blobKey), { limits: ctx.config.parseLimits });
  for (const [k, pic] of pictures.entries()) {
    const id = pic.figure.id!;
    if ('error' in pic) { readings.set(id, { error: `no series data, and the chart's picture could not be rendered for the vision model: ${pic.error}` }); continue; }
    try {
      const chart = await lm.readChart({ image: pic.image, caption: pic.figure.caption, textInside: pic.figure.text || undefined });
      readings.set(id, { chart, model: lm.id });
    } catch (e) {
      if (!isQuireError(e) || e.code !== 'PROC_001') throw e;
      readings.set(id, { error: `no series data, and the vision model's reading of the chart was not a usable table: ${e.message}` });
    }
    await ctx.checkpoint(k + 1, pictures.length + 1);
  }
  return { readings, unreadable: NO_CHART_MODEL };
}
