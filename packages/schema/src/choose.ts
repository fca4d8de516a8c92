import type { Candidate } from './candidates.js';
import type { FieldSpec } from './field-spec.js';

/**
 * Picks a field's value from its candidates and says how sure that is. Confidence is the winning
 * candidate's evidence (label match × type fit × placement × OCR confidence), lowered when a
 * different value has nearly as much evidence, raised a little when several places agree.
 */

export interface Choice {
  best?: Candidate;
  confidence: number;
  note?: string;
  /** Other values that competed, for notes and debugging. */
  runnerUp?: Candidate;
}

const ACCEPT = { optional: 0.45, required: 0.3 };

const key = (v: unknown) => JSON.stringify(v);

function merge(cands: Candidate[]): { cand: Candidate; support: number }[] {
  const byValue = new Map<string, { cand: Candidate; support: Set<string> }>();
  for (const c of cands) {
    const k = key(c.value);
    const cur = byValue.get(k);
    if (!cur) byValue.set(k, { cand: c, support: new Set(c.ids) });
    else {
      c.ids.forEach((id) => cur.support.add(id));
      // the strongest reading stands for the value, with what any reading learned about it
      const flags = {
        rounded: cur.cand.rounded || c.rounded, summed: cur.cand.summed || c.summed, tendered: cur.cand.tendered || c.tendered,
        components: cur.cand.components ?? c.components,
        // a value printed both above a tax summary and in it is not only the summary's
        inTaxSummary: cur.cand.inTaxSummary && c.inTaxSummary,
      };
      cur.cand = { ...(c.score > cur.cand.score ? c : cur.cand), ...flags };
    }
  }
  return [...byValue.values()].map((v) => ({ cand: v.cand, support: v.support.size }));
}

/**
 * Totals: among labelled totals, the largest and last printed amount is the grand total; the page's
 * arithmetic (a checked sum, cash − change, a rounding) outranks that, and the parts of a checked sum
 * and the rows of a tax summary rank below it.
 */
function totalBonus(field: FieldSpec, merged: { cand: Candidate }[]): Map<Candidate, number> {
  const bonus = new Map<Candidate, number>();
  if (!field.isTotal) return bonus;
  const labelled = merged.map((m) => m.cand).filter((c) => c.label >= 0.85 && typeof c.value === 'number');
  if (!labelled.length) return bonus;
  if (labelled.length >= 2) {
    const max = Math.max(...labelled.map((c) => c.value as number));
    // printed last: lowest on the last page where there is geometry (a receipt's reading order puts
    // its label column before its amount column), else last in reading order
    const where = (c: Candidate) => (labelled.every((l) => l.at !== undefined) ? c.at! : c.order);
    const last = Math.max(...labelled.map(where));
    for (const c of labelled) bonus.set(c, (c.value === max ? 0.06 : 0) + (where(c) === last ? 0.03 : 0));
  }
  // an amount the summary lines add up to is checked arithmetic, not a reading of a label
  for (const c of labelled) if (c.summed) bonus.set(c, Math.max(bonus.get(c) ?? 0, 0.1));
  // what the customer paid (cash − change) is the total
  for (const c of labelled) if (c.tendered) bonus.set(c, (bonus.get(c) ?? 0) + 0.1);
  // the subtotal a checked sum started from (and sums it went through) is a part of the total
  for (const s of labelled) {
    if (!s.summed) continue;
    for (const o of labelled) if (o.value !== s.value && s.components?.some((v) => Math.abs(v - (o.value as number)) < 0.005)) bonus.set(o, -0.2);
  }
  // a tax summary's "TOTAL" row is the net and the tax, when a total is printed above it
  if (labelled.some((c) => !c.inTaxSummary)) for (const c of labelled) if (c.inTaxSummary) bonus.set(c, (bonus.get(c) ?? 0) - 0.2);
  // the rounded total is what was paid, though a cent below the unrounded one
  for (const c of labelled) {
    if (!c.rounded) continue;
    bonus.set(c, 0.1);
    // the amount before rounding, wherever else it is printed ("GST summary: Total 80.91"), is not the total paid
    for (const o of labelled) if (!o.rounded && o.value !== c.value && Math.abs((o.value as number) - (c.value as number)) <= 0.05) bonus.set(o, -0.2);
  }
  return bonus;
}

export function choose(field: FieldSpec, cands: Candidate[]): Choice {
  if (!cands.length) return { confidence: 0, note: 'no labelled or typed candidate found in the document' };
  const merged = merge(cands);
  const bonus = totalBonus(field, merged);
  const rank = (m: { cand: Candidate }) => m.cand.score + (bonus.get(m.cand) ?? 0);
  merged.sort((a, b) => rank(b) - rank(a) || a.cand.order - b.cand.order);
  const [top, second] = merged;
  const threshold = field.required ? ACCEPT.required : ACCEPT.optional;
  if (top.cand.score < threshold) {
    return { confidence: 0, runnerUp: top.cand, note: `best candidate ${JSON.stringify(top.cand.printed)} (${top.cand.how}) is too weak (score ${top.cand.score.toFixed(2)} < ${threshold})` };
  }
  const ratio = second ? Math.min(1, rank(second) / rank(top)) : 0;
  const ambiguity = 1 - 0.45 * ratio ** 3;
  const agreement = 1 + 0.04 * Math.min(3, top.support - 1);
  const confidence = Math.max(0.01, Math.min(0.99, top.cand.score * ambiguity * agreement));
  return { best: top.cand, confidence, runnerUp: second?.cand };
}
