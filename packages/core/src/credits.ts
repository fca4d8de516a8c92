/**
 * The spec's credit price table, in one place. Prices are per page unless the unit says otherwise.
 * /schema with effort: the spec gives both 6 and 4 per page; we charge 6 (see docs/decisions.md).
 */
const PRICES = {
  classify: { perPage: 0.5 },
  extract: { perPage: 1 },
  split: { perPage: 2 },
  schema: { perPage: 1, effortPerPage: 6, agenticConfidenceSurchargePerPage: 3 },
  tables: { perTable: 0.25, perTableMerged: 0.5, perChart: 1 },
  charts: { perChart: 1 },
  formDetect: { perPage: 1 },
  formFill: { perPage: 3 },
  formClear: { perPage: 3 },
} as const;

export type Step = 'classify' | 'extract' | 'schema' | 'tables' | 'charts' | 'split' | 'form_detect' | 'form_fill' | 'form_clear';

const round = (n: number) => Math.round(n * 1000) / 1000;

export interface CreditQuote {
  pages?: number;
  tables?: number;
  charts?: number;
  merge?: boolean;
  effort?: boolean;
  agenticConfidence?: boolean;
}

/** Credits for one run of a step. Pure, so the gateway can quote before work and the worker can charge after. */
export function creditsFor(step: Step, q: CreditQuote): number {
  const pages = q.pages ?? 0;
  switch (step) {
    case 'classify': return round(pages * PRICES.classify.perPage);
    case 'extract': return round(pages * PRICES.extract.perPage);
    case 'split': return round(pages * PRICES.split.perPage);
    case 'schema': {
      const base = q.effort ? PRICES.schema.effortPerPage : PRICES.schema.perPage;
      const extra = q.agenticConfidence ? PRICES.schema.agenticConfidenceSurchargePerPage : 0;
      return round(pages * (base + extra));
    }
    case 'tables': {
      const perTable = q.merge ? PRICES.tables.perTableMerged : PRICES.tables.perTable;
      return round((q.tables ?? 0) * perTable + (q.charts ?? 0) * PRICES.tables.perChart);
    }
    case 'charts': return round((q.charts ?? 0) * PRICES.charts.perChart);
    case 'form_detect': return round(pages * PRICES.formDetect.perPage);
    case 'form_fill': return round(pages * PRICES.formFill.perPage);
    case 'form_clear': return round(pages * PRICES.formClear.perPage);
  }
}
