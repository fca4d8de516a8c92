import type { Document, FigureElement } from '@quire/core';
import type { FigureImage } from './figure-images.js';

/** A vision model's figure description (packages/models LanguageModel.describeFigure). */
export type FigureDescriber = (req: { image: { bytes: Uint8Array; mime: string }; caption?: string; textInside?: string }) => Promise<string>;

const MAX_INSIDE = 300;

/**
 * Sets figure.extra.description for figure_processing.description. With a vision model (describe) and
 * the figure's picture, the model describes it; a model error falls back to the text description
 * and is reported in description_error. Without a model the description is built from what the
 * extraction read: the caption, the text inside the figure and, for office charts, the chart type,
 * title and series, and it says so. A figure with none of these gets description_error instead.
 */
export async function describeFigures(doc: Document, opts: { describe?: FigureDescriber; images?: ReadonlyMap<FigureElement, FigureImage> } = {}): Promise<void> {
  for (const page of doc.pages) {
    for (const el of page.elements) {
      if (el.kind !== 'figure') continue;
      const image = opts.images?.get(el);
      let modelError: string | undefined;
      if (opts.describe && image) {
        try {
          const text = (await opts.describe({ image: { bytes: image.bytes, mime: image.mime }, caption: el.caption, textInside: el.text || undefined })).trim();
          if (text) { el.extra = { ...el.extra, description: text }; continue; }
          modelError = 'The model returned an empty description';
        } catch (e) {
          modelError = `The model could not describe the figure: ${e instanceof Error ? e.message : String(e)}`;
        }
      }
      const fromText = textDescription(el, Boolean(opts.describe));
      el.extra = { ...el.extra, ...(fromText ? { description: fromText } : {}), ...(modelError || !fromText ? { description_error: modelError ?? NO_SOURCE } : {}) };
    }
  }
}

const NO_SOURCE = 'No description: no image model is configured and the figure has no caption, chart data or text inside it';

/** The description from caption, chart data and inner text, prefixed with where it came from; undefined when there is nothing. */
function textDescription(f: FigureElement, modelConfigured = false): string | undefined {
  const parts: string[] = [];
  if (f.caption) parts.push(`Caption: ${clean(f.caption)}`);
  if (f.chart) {
    const c = f.chart;
    const names = c.series.map((s) => s.name).filter(Boolean);
    const cats = c.series[0]?.categories ?? [];
    let s = `${article(c.chartType)} ${c.chartType} chart`;
    if (c.title) s += ` titled "${clean(c.title)}"`;
    s += ` with ${c.series.length} series${names.length ? ` (${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''})` : ''}`;
    if (cats.length) s += ` over ${cats.length} categories (${String(cats[0])} to ${String(cats[cats.length - 1])})`;
    parts.push(`${s}.`);
  }
  const inside = clean(f.text ?? '');
  if (inside && inside !== clean(f.caption ?? '') && inside !== clean(f.chart?.title ?? '')) {
    parts.push(`Text in the ${f.visualType === 'chart' ? 'chart' : 'image'}: ${inside.length > MAX_INSIDE ? `${inside.slice(0, MAX_INSIDE).replace(/\s+\S*$/, '')} …` : inside}`);
  }
  if (!parts.length) return undefined;
  const why = modelConfigured ? 'the image model gave none' : 'no image model configured';
  return `Described from the extracted ${f.chart ? 'chart data, ' : ''}caption and text (${why}). ${parts.join(' ')}`;
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
const article = (w: string) => (/^[aeiou]/i.test(w) ? 'An' : 'A');
