export interface TedsCell { text: string; rowSpan?: number; colSpan?: number }
export type TedsTable = TedsCell[][];
export function tedsText(s: string | undefined): string;
export function teds(predicted: TedsTable, truth: TedsTable, options?: { withText?: boolean }): number;
export function tableFromSlots<T>(grid: (T | null)[][], textOf: (id: T) => string): TedsTable;
export function tableFromTexts(rows: string[][]): TedsTable;
