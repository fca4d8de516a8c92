import { z } from 'zod';
import { BoolField, jsonObjectField } from './fields.js';
import { PlanInfoSchema } from './common.js';

export const TablesConfigSchema = z.object({
  merge: BoolField.optional().describe('Merge tables that continue across pages (default false)'),
  table_format: z.enum(['html', 'json']).optional().describe('html (default): an HTML table string; json: structured headers and rows (TableJson)'),
  charts_to_tables: BoolField.optional().describe('Also convert charts into tables (from_chart true): office charts from their stored series; charts drawn in a PDF or image read by the vision model when QUIRE_LLM_VISION_MODEL is configured (+1 credit per chart converted), else listed in charts_not_converted'),
}).strict().meta({ id: 'TablesConfig' });

/** POST /tables body. Unknown fields are refused (REQ_002); a bad tables_config value is REQ_003. */
export const TablesRequestSchema = z.object({
  extraction_id: z.string().min(1).describe('A completed saved extraction of this organization'),
  tables_config: jsonObjectField(TablesConfigSchema).optional(),
  async: BoolField.optional(),
}).strict().meta({ id: 'TablesRequest' });

export type TablesRequest = z.infer<typeof TablesRequestSchema>;

const CellType = z.enum(['number', 'percent', 'currency', 'string', 'missing', 'empty']);

export const TableJsonCellSchema = z.object({
  id: z.string().optional().describe('Source cell id, e.g. tbl-1-r4c2 (for a merged table, the id in the table it came from)'),
  row: z.number().int(), col: z.number().int(), row_span: z.number().int(), col_span: z.number().int(),
  text: z.string().describe('Cell text as printed'),
  type: CellType.describe('number, percent, currency, string; missing for dashes and n/a; empty'),
  value: z.union([z.number(), z.string(), z.null()]).describe('"(1,234.5)" → -1234.5; "12 %" → 12 with unit "%"; strings as text; null when empty or missing'),
  unit: z.string().optional().describe('"%" or the currency symbol/code'),
}).meta({ id: 'TableJsonCell' });

export const TableJsonSchema = z.object({
  id: z.string(), citations: z.array(z.string()), pages: z.array(z.number().int()), from_chart: z.boolean(),
  n_rows: z.number().int(), n_cols: z.number().int(),
  header_rows: z.number().int().describe('Leading column-header rows'),
  stub_cols: z.number().int().describe('Leading row-header (stub) columns'),
  columns: z.array(z.object({
    index: z.number().int(),
    path: z.array(z.string()).describe('Header texts top to bottom, e.g. ["2023","Q1"]: a MultiIndex tuple'),
    name: z.string(), type: CellType, is_stub: z.boolean(),
  })),
  header: z.array(z.array(TableJsonCellSchema)).describe('Header rows with spans'),
  rows: z.array(z.object({
    index: z.number().int(),
    role: z.enum(['data', 'total', 'section']),
    row_header: z.array(z.string()),
    values: z.array(z.union([z.number(), z.string(), z.null()])).describe('One value per column; spanning cells repeat'),
    cells: z.array(TableJsonCellSchema).describe('Cells starting in this row, with spans'),
  })),
  merge: z.array(z.object({
    from: z.string(), to: z.string(), merged: z.boolean(), confidence: z.number(),
    droppedHeaderRows: z.number().int(), stitchedRow: z.boolean(), reasons: z.array(z.string()),
  })).optional().describe('Cross-page merge decisions taken at this table (merge=true)'),
  chart_type: z.string().optional(),
  chart_read_by: z.string().optional().describe('Set when a vision model read the values off the chart picture (the model id): estimates, not stored data'),
}).meta({ id: 'TableJson' });

export const TablesResultSchema = z.object({
  tables_id: z.string(),
  tables_output: z.object({
    tables: z.array(z.object({
      table_content: z.union([z.string(), TableJsonSchema]).describe('HTML string (table_format html) or TableJson (json)'),
      citations: z.array(z.string()).describe('Source table ids (several for a merged table) or the figure id of a chart'),
      from_chart: z.boolean(),
    })),
    merges: z.array(z.record(z.string(), z.unknown())).optional().describe('Every cross-page merge decision with its confidence (merge=true)'),
    charts_not_converted: z.array(z.object({ id: z.string(), page: z.number().int(), reason: z.string() })).optional().describe('charts_to_tables: charts that could not be converted (no stored series and no vision model, or an unusable reading), with the reason'),
  }),
  credits_used: z.number(),
  plan_info: PlanInfoSchema.optional(),
}).meta({ id: 'TablesResult' });

// ---- POST /charts ----

/** POST /charts body (the spec leaves it open): a saved extraction whose charts are reconstructed. */
export const ChartsRequestSchema = z.object({
  extraction_id: z.string().min(1).describe('A completed saved extraction of this organization'),
  async: BoolField.optional(),
}).strict().meta({ id: 'ChartsRequest' });
export type ChartsRequest = z.infer<typeof ChartsRequestSchema>;

const NumOrNull = z.number().nullable();
export const ChartSchema = z.object({
  id: z.string().describe('Figure id (as in bounding_boxes.Images)'),
  page: z.number().int(),
  chart_type: z.string().describe('Chart class: column, bar, line, pie, scatter, bubble, combo, …'),
  title: z.string().nullable(),
  series: z.array(z.object({
    name: z.string(), plot_type: z.string().nullable(),
    categories: z.array(z.union([z.string(), z.number()])), values: z.array(NumOrNull),
    x_values: z.array(NumOrNull).optional().describe('Scatter and bubble charts'),
    bubble_sizes: z.array(NumOrNull).optional(),
    source_ranges: z.object({ name: z.string().optional(), categories: z.string().optional(), values: z.string().optional(), bubble_sizes: z.string().optional() }).optional().describe('Cell formulas feeding the series'),
    interpolated: z.array(z.boolean()).optional().describe('Charts read from a PDF drawing: true where the value lies between ticks (read off the scale, within reading.uncertainty)'),
    mark_boxes: z.array(z.array(z.number()).nullable()).optional().describe('Charts read from a PDF drawing: each point\'s mark on the page (normalized polygon); null for a missing point'),
  })),
  axes: z.object({ x: z.object({ title: z.string().nullable() }), y: z.object({ title: z.string().nullable() }) }),
  source: z.object({
    bounding_box: z.array(z.number()).describe('Normalized polygon on the page; empty for spreadsheet charts'),
    sheet_name: z.string().optional(), excel_range: z.string().optional().describe('Spreadsheet charts: the anchor range'),
    source_ranges: z.array(z.string()),
  }),
  exports: z.object({
    csv: z.string().describe('RFC 4180 CSV: header row, one row per category or point'),
    xlsx: z.string().optional().describe('Base64 XLSX workbook: the chart\'s series on a sheet (the same grid as the CSV) and a native chart of the same type'),
  }),
  reading: z.object({
    confidence: z.number().describe('0..1: how sure the recogniser is that the drawing is a chart of this type'),
    value_scale: z.enum(['linear', 'log', 'share']).describe('Value axis read from the tick labels; share: pie slices in percent of the whole'),
    uncertainty: z.number().describe('Largest error of a value, in value units (tick fit residual plus the drawing\'s coordinate precision)'),
    note: z.string(),
  }).optional().describe('Set for charts read from a PDF\'s vector drawing (no stored series): exact when the ticks are exact'),
  read_by: z.string().optional().describe('Set when a vision model read the values off the chart picture (the model id): estimates, not stored data'),
}).meta({ id: 'Chart' });

export const ChartsResultSchema = z.object({
  charts_id: z.string(),
  extraction_id: z.string(),
  charts: z.array(ChartSchema),
  not_converted: z.array(z.object({ id: z.string(), page: z.number().int(), reason: z.string() })).describe('Charts whose series could be neither read from their drawing nor stored (raster charts with no vision model configured), with the reason'),
  exports: z.object({
    csv: z.string().describe('Every chart in one RFC 4180 CSV, one row per point: chart_id, page, chart_type, series, category, x, value'),
    xlsx: z.string().describe('Base64 XLSX workbook with one sheet (and native chart) per chart'),
  }).optional().describe('The whole extraction\'s charts (absent when none was reconstructed)'),
  credits_used: z.number().describe('1 per reconstructed chart'),
  plan_info: PlanInfoSchema,
}).meta({ id: 'ChartsResult' });
