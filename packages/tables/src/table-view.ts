import type { TableElement } from '@quire/core';
import type { TableStructure } from './structure.js';

/** One merge decision between the end of one table and the start of the next (pages p and p+1). */
export interface MergeDecision {
  from: string;
  to: string;
  merged: boolean;
  confidence: number;
  /** Repeated header rows dropped from the continuation. */
  droppedHeaderRows: number;
  /** The continuation's first row finished the previous table's last row (a row split at the break). */
  stitchedRow: boolean;
  reasons: string[];
}

/** A table as the tables step outputs it: possibly merged from several extraction tables, or built from a chart. */
export interface TableView {
  /** The output table id: the first source table's id, or the figure id for a chart. */
  id: string;
  /** Source element ids (table ids; several for a merged table; the figure id for a chart). */
  citations: string[];
  pages: number[];
  table: TableElement;
  structure: TableStructure;
  fromChart: boolean;
  merges: MergeDecision[];
  chartType?: string;
  /** A chart table whose values a vision model read off the chart's picture (its id): estimates, not stored data. */
  chartReadBy?: string;
}
