/**
 * Reads fill instructions the way people write them — "Name: Jane" lines, one long sentence, or a
 * paragraph about the person ("My name is …, I live at …, I am single") — into clauses: one value
 * (or one box to tick) each, with the words that name the field when the writer gave them.
 */

export type Clause =
  /** A value for a field; `label` is absent when the writer only gave the value ("call me on 555-0100"). */
  | { kind: 'value'; label?: string; value: string; text: string }
  /** Tick (or untick) an option, optionally within a named question ("check 'No' for question 3"). */
  | { kind: 'choose'; option: string; target?: string; on: boolean; text: string; whole?: string }
  /** A fact about the person ("I am single"): an option to tick, or a value whose field is found from it. */
  | { kind: 'fact'; value: string; negated: boolean; text: string }
  | { kind: 'sign'; value: string; text: string }
  /** No separator ("first name John"): the leading words that name a field are the label, found against the form. */
  | { kind: 'loose'; text: string };

/** Words before a period that do not end a sentence (initials, titles, street and month abbreviations). */
const ABBREV = /\b(mr|mrs|ms|dr|st|ave|rd|blvd|apt|no|jr|sr|inc|ltd|co|corp|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|[a-z])$/i;
const TITLE = /\b(mr|mrs|ms|dr|prof|[a-z])$/i;
const VERB = /^(?:please\s+)?(check|tick|select|uncheck|untick|deselect|unselect|mark|choose|pick|cross|set|sign|fill|enter|put|write)\b/i;
/** First-person and third-person statements that open a new clause inside a sentence. */
const PERSON = /^(?:(?:my|his|her|their|our|the)\s+[\p{L}\d][\p{L}\d '’/#-]{0,40}?\s+(?:is|are|was|:)|(?:i|he|she|they|we)\s+(?:am|is|are|was|were|live|lives|work|works|was born|were born)\b|i'm\b|i’m\b|(?:she|he|they)'s\b)/iu;
/** Words after "and" that open a new statement. */
const AND_STATEMENT = /^(?:my|his|her|their|i|i'm|he|she|they|check|tick|sign|lives?|works?|was born|born)\b/i;
const LABELLED = /^[\p{L}\d][\p{L}\d '’/#().,*$&-]{0,90}?\s*[:=]\s*\S/u;

/**
 * Splits the instructions into clauses. `namesField` tells whether a phrase opens with words naming a
 * field of this form: it lets "last name Smith, first name John" split at its commas while
 * "1 Main St, Springfield, IL 62704" stays one value.
 */
export function splitClauses(instructions: string, namesField: (phrase: string, fromWord?: number) => boolean | number): string[] {
  const named = (phrase: string, fromWord = 1) => Number(namesField(phrase, fromWord));
  const out: string[] = [];
  for (const line of instructions.split(/[\n;]+|\s+•\s+/)) {
    const item = line.replace(/^\s*(?:[-*•]|\d+[.)](?=\s))\s*/, '');
    for (const sentence of sentences(item, named)) {
      // a "label: value" line keeps its commas (an address, "Smith, John") unless another statement follows;
      // elsewhere a comma or "and" splits where the rest opens a statement or names a field ("…, city, state and ZIP code 12345")
      const opener = (rest: string) => {
        const t = rest.trim().replace(/^(?:and|also|plus|then)\s+/i, '');
        return VERB.test(t) || PERSON.test(t) || LABELLED.test(t);
      };
      const labelled = LABELLED.test(sentence.trim());
      const bits = sentence.split(/(,|\s+and\s+)/i);
      let acc = bits[0];
      for (let k = 1; k < bits.length; k += 2) {
        const sep = bits[k], rest = bits.slice(k + 1).join('');
        const statement = AND_STATEMENT.test(rest.trimStart());
        let starts: boolean;
        // a labelled line's label runs to its colon ("City, state, and ZIP code: …"): only its value may split
        if (labelled) starts = /[:=]/.test(acc) && (sep === ',' || statement) && opener(bits[k + 1]);
        else if (opener(rest) || (sep !== ',' && statement)) starts = true;
        else {
          // the rest opens with a field's label, and that label does not begin back in this clause
          // ("city or town, state, and ZIP code 12345" stays whole; "address 1 Main St, city Springfield" splits)
          const restScore = named(rest.trim());
          starts = restScore > 0 && named(`${acc}${sep}${rest}`.trim(), acc.trim().split(/\s+/).length + 1) < restScore;
        }
        if (starts) { out.push(acc); acc = bits[k + 1]; } else acc += sep + bits[k + 1];
      }
      out.push(acc);
    }
  }
  return out.map((s) => s.trim().replace(/^(?:and|also|plus|then)\s+/i, '').replace(/[.!,]+$/, '').trim()).filter(Boolean);
}

/**
 * Splits a line into sentences. `named` (see splitClauses) keeps a printed label that holds its own
 * question or exclamation mark whole ("do you have children and pets? Yes", "fancy fields! Val"):
 * the mark does not end a sentence when the words before it, from the sentence's start or a clause
 * break, and on past the mark name a field of the form.
 */
function sentences(part: string, named: (phrase: string, fromWord?: number) => number): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const m of part.matchAll(/[.!?](?=\s+\S)/g)) {
    const before = part.slice(start, m.index);
    if (m[0] !== '.' && labelRunsOn(before, part.slice(m.index!), named)) continue;
    // a printed label may hold periods ("Apt. No.: 4", "Signature of U.S. person: …"): before a line's colon only a statement ends a sentence
    const colon = part.indexOf(':');
    if (colon > m.index! && colon < 100 && !VERB.test(before.trim()) && !PERSON.test(before.trim())) continue;
    // "Dr. Jones", "J. Doe" never end a sentence; "Apt. no. 4" does not, "…: No. My email…" does
    const next = part.slice(m.index! + 1).trimStart();
    if (m[0] === '.' && (TITLE.test(before.trim()) || (ABBREV.test(before.trim()) && !/^\p{Lu}/u.test(next)))) continue;
    // "Smoker? No", "My do you smoke? is yes": a question followed by a short answer is one statement
    if (m[0] === '?' && part.slice(m.index! + 1).split(/[.!?](?=\s|$)/)[0].trim().split(/\s+/).length <= 3) continue;
    pieces.push(before); start = m.index! + 1;
  }
  pieces.push(part.slice(start));
  return pieces;
}

/** Does a field's label run from some clause start in `before` on through `after` (which opens with the mark)? */
function labelRunsOn(before: string, after: string, named: (phrase: string, fromWord?: number) => number): boolean {
  const starts = [0, ...[...before.matchAll(/,\s*|\s+and\s+/gi)].map((b) => b.index! + b[0].length)];
  return starts.some((at) => {
    const tail = before.slice(at).trim();
    return tail !== '' && named(`${tail}${after}`.trim(), tail.split(/\s+/).length) > 0;
  });
}

const unquote = (s: string) => s.trim().replace(/^["'“‘«]+|["'”’»]+$/g, '').trim();
const SUBJECT = /^(i|i'm|i’m|he|she|they|we|you|the applicant|applicant|the client|client|the employee|employee|the patient|patient)$/i;
const POSSESSIVE = /^(my|his|her|their|our|your|its|the)\s+/i;

/** What people say instead of naming the field. */
const PHRASED: [RegExp, string][] = [
  [/^(?:(?:i|he|she|they|we)\s+)?(?:live|lives|reside|resides)\s+(?:at|in|on)\s+(.+)$/i, 'address'],
  [/^(?:(?:i|he|she|they|we)\s+(?:was|were)\s+)?born\s+(?:on\s+)?(.+)$/i, 'date of birth'],
  [/^(?:i|he|she|they|we)\s+(?:work|works)\s+(?:as\s+an?\s+|as\s+)(.+)$/i, 'occupation'],
  [/^(?:i|he|she|they|we)\s+(?:work|works)\s+(?:at|for)\s+(.+)$/i, 'employer'],
  [/^(?:i'm|i’m|i am|my name is|name is|he is|she is)\s+called\s+(.+)$/i, 'name'],
  [/^(?:call|reach|phone)\s+(?:me|him|her|them)\s+(?:on|at)\s+(.+)$/i, 'phone'],
  [/^(?:email|e-mail|write to)\s+(?:me|him|her|them)\s+at\s+(.+)$/i, 'email'],
];

export function parseClause(text: string): Clause {
  const t = text.trim().replace(/^please\s+/i, '');
  let m = /^sign(?:ed|\s+it|\s+the\s+form)?\s+(?:as|with|by|using)\s+(.+)$/i.exec(t) ?? /^signature\s*(?:[:=]|\bis\b)\s*(.+)$/i.exec(t);
  if (m) return { kind: 'sign', value: unquote(m[1]), text: t };
  // "Label: value" first: a printed label may itself begin with a verb ("Select your favorite planet: Pluto")
  m = /^([^:=]{1,100}?)\s*[:=]\s*(.+)$/.exec(t);
  if (m && !/^\d+$/.test(m[1].trim())) return { kind: 'value', label: m[1].trim().replace(POSSESSIVE, ''), value: unquote(m[2]), text: t };
  m = /^(check|tick|select|mark|choose|pick|cross|uncheck|untick|deselect|unselect|clear)\s+(?:the\s+)?(?:(?:box|option|checkbox)\s+(?:for|labell?ed|marked)\s+)?(.+?)(?:\s+(?:box|option|checkbox))?(?:\s+(?:for|in|on|under|at|of)\s+(.+))?$/i.exec(t);
  if (m) {
    const on = !/^(uncheck|untick|deselect|unselect|clear)$/i.test(m[1]);
    // "Head of household": the words after "of" may be the option's own, not a question's name
    const whole = m[3] ? unquote(t.slice(t.toLowerCase().indexOf(m[2].toLowerCase())).replace(/\s+(?:box|option|checkbox)$/i, '')) : undefined;
    return { kind: 'choose', option: unquote(m[2]), target: m[3] ? unquote(m[3]) : undefined, on, text: t, ...(whole ? { whole } : {}) };
  }
  m = /^(?:set|fill(?:\s+in)?|enter|put|write)\s+(?:the\s+)?(.+?)\s+(?:to|=|as|with)\s+(.+)$/i.exec(t);
  if (m) return { kind: 'value', label: m[1].trim(), value: unquote(m[2]), text: t };
  m = /^(?:enter|put|write)\s+(.+?)\s+(?:in|into|for|on)\s+(?:the\s+)?(.+)$/i.exec(t);
  if (m) return { kind: 'value', label: m[2].replace(/\s+(field|box|line)$/i, '').trim(), value: unquote(m[1]), text: t };
  for (const [re, label] of PHRASED) {
    m = re.exec(t);
    if (m) return { kind: 'value', label, value: unquote(m[1]), text: t };
  }
  m = /^(.{1,80}?)\s+(?:is|are|was)\s+(not\s+)?(.+)$/i.exec(t);
  if (m) {
    const subject = m[1].trim();
    if (SUBJECT.test(subject)) return { kind: 'fact', value: unquote(m[3]).replace(/^(?:a|an)\s+/i, ''), negated: !!m[2], text: t };
    return { kind: 'value', label: subject.replace(POSSESSIVE, ''), value: (m[2] ? 'not ' : '') + unquote(m[3]), text: t };
  }
  m = /^(?:i|he|she|they|we)\s+(?:am|is|are)\s+(not\s+)?(.+)$/i.exec(t) ?? /^(?:i'm|i’m|she's|he's|they're)\s+(not\s+)?(.+)$/i.exec(t);
  if (m) return { kind: 'fact', value: unquote(m[2]).replace(/^(?:a|an)\s+/i, ''), negated: !!m[1], text: t };
  return { kind: 'loose', text: t };
}
