/**
 * Splits plain-language form instructions into statements: label–value pairs ("Name: Jane",
 * "X is Y", "set X to Y", "X = Y"), option choices ("check 'No' for question 3", "uncheck X"),
 * signatures ("sign as J. Doe") and facts about the person ("she is married").
 */

export type Statement =
  | { kind: 'value'; label: string; value: string; text: string }
  | { kind: 'choose'; option: string; target?: string; on: boolean; text: string }
  | { kind: 'sign'; value: string; text: string }
  | { kind: 'fact'; value: string; negated: boolean; text: string }
  /** No separator: "date of birth 2 Feb 1990" — the label is found against the cells. */
  | { kind: 'loose'; text: string };

const ABBREV = /\b(mr|mrs|ms|dr|st|no|jr|sr|inc|ltd|co|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|[a-z])$/i;
const NEW_STATEMENT = /^\s*(check|tick|select|uncheck|untick|deselect|set|sign|mark|choose|pick|fill|enter|put|write|[\p{L}\d][\p{L}\d '’/#-]{0,40}?(\s*[:=]|\s+(is|are|was)\s))/iu;

export function splitInstructions(instructions: string): string[] {
  const out: string[] = [];
  for (const part of instructions.split(/[\n;]+/)) {
    // sentence ends: ". " after a word that is not an initial or an abbreviation
    let start = 0;
    const pieces: string[] = [];
    for (const m of part.matchAll(/[.!?](?=\s+\S)/g)) {
      const before = part.slice(start, m.index);
      if (m[0] === '.' && ABBREV.test(before.trim())) continue;
      // "Smoker? No": a question followed by a short answer is one statement
      if (m[0] === '?' && part.slice(m.index! + 1).trim().split(/\s+/).length <= 3) continue;
      pieces.push(part.slice(start, m.index)); start = m.index! + 1;
    }
    pieces.push(part.slice(start));
    for (const p of pieces) {
      // commas only split where a new statement starts ("Name: Jane, check Yes"), never inside "Łódź, Poland"
      let acc = '';
      for (const c of p.split(',')) {
        if (acc && NEW_STATEMENT.test(c) && /[:=]|\b(is|are|check|tick|select|set|sign)\b/i.test(acc)) { out.push(acc); acc = c; }
        else acc = acc ? `${acc},${c}` : c;
      }
      out.push(acc);
    }
  }
  return out.map((s) => s.trim().replace(/[.!]+$/, '').trim()).filter(Boolean);
}

const unquote = (s: string) => s.trim().replace(/^["'“‘«]+|["'”’»]+$/g, '').trim();
const PRONOUN = /^(i|i'm|he|she|they|we|you|it|the applicant|applicant|the client|client|the employee|employee|the patient|patient)$/i;
const POSSESSIVE = /^(my|his|her|their|our|your|its|the)\s+/i;

export function parseStatement(text: string): Statement {
  const t = text.trim();
  let m = /^(?:please\s+)?sign(?:ed|\s+it|\s+the\s+form)?\s+(?:as|with|by|using)\s+(.+)$/i.exec(t) ?? /^signature\s*(?:[:=]|\bis\b)\s*(.+)$/i.exec(t);
  if (m) return { kind: 'sign', value: unquote(m[1]), text: t };
  m = /^(?:please\s+)?(check|tick|select|mark|choose|pick|cross|uncheck|untick|deselect|unselect|clear)\s+(?:the\s+)?(?:box\s+|option\s+)?(.+?)(?:\s+(?:box|option|checkbox))?(?:\s+(?:for|in|on|under|at|of)\s+(.+))?$/i.exec(t);
  if (m) {
    const on = !/^(uncheck|untick|deselect|unselect|clear)$/i.test(m[1]);
    return { kind: 'choose', option: unquote(m[2]), target: m[3] ? unquote(m[3]) : undefined, on, text: t };
  }
  m = /^(?:please\s+)?(?:set|fill(?:\s+in)?|enter|put|write)\s+(?:the\s+)?(.+?)\s+(?:to|=|as|with)\s+(.+)$/i.exec(t);
  if (m) return { kind: 'value', label: m[1].trim(), value: unquote(m[2]), text: t };
  m = /^(?:please\s+)?(?:enter|put|write)\s+(.+?)\s+(?:in|into|for|as)\s+(?:the\s+)?(.+)$/i.exec(t);
  if (m) return { kind: 'value', label: m[2].replace(/\s+(field|box)$/i, '').trim(), value: unquote(m[1]), text: t };
  m = /^([^:=]{1,80}?)\s*[:=]\s*(.+)$/.exec(t);
  if (m && !/^\d+$/.test(m[1].trim())) return { kind: 'value', label: m[1].trim(), value: unquote(m[2]), text: t };
  m = /^(.{1,80}?)\s+(?:is|are|was|=)\s+(not\s+)?(.+)$/i.exec(t);
  if (m) {
    const subject = m[1].trim();
    if (PRONOUN.test(subject)) return { kind: 'fact', value: unquote(m[3]), negated: !!m[2], text: t };
    return { kind: 'value', label: subject.replace(POSSESSIVE, ''), value: (m[2] ? 'not ' : '') + unquote(m[3]), text: t };
  }
  m = /^(?:i|he|she|they|we)\s+(?:am|is|are)\s+(not\s+)?(.+)$/i.exec(t) ?? /^(?:i'm|she's|he's|they're)\s+(not\s+)?(.+)$/i.exec(t);
  if (m) return { kind: 'fact', value: unquote(m[2]), negated: !!m[1], text: t };
  return { kind: 'loose', text: t };
}
