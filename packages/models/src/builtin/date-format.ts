/** Parses dates written the usual ways and re-formats them to a form's own pattern (MM/DD/YYYY, DD.MM.YYYY, YYYY-MM-DD…). */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

export interface SimpleDate { y: number; m: number; d: number }

function month(s: string): number | undefined {
  const k = s.toLowerCase().replace(/\.$/, '');
  if (k.length < 3) return undefined;
  const i = MONTHS.findIndex((n) => n.startsWith(k));
  return i >= 0 ? i + 1 : undefined;
}

const valid = (y: number, m: number, d: number): SimpleDate | undefined =>
  m >= 1 && m <= 12 && d >= 1 && d <= 31 && y >= 1000 && y <= 9999 ? { y, m, d } : undefined;
const year = (s: string) => (s.length === 2 ? (Number(s) > 30 ? 1900 : 2000) + Number(s) : Number(s));

/** A date found in `s`, with where it was. Numeric d/m order: day first when the first number is over 12 or the separator is '.', else month first. */
export function findDate(s: string): { date: SimpleDate; index: number; length: number } | undefined {
  const day = '(\\d{1,2})(?:st|nd|rd|th)?';
  const mon = '([A-Za-z]{3,9}\\.?)';
  const yr = '(\\d{4}|\\d{2})';
  const tries: [RegExp, (m: RegExpExecArray) => SimpleDate | undefined][] = [
    [/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/, (m) => valid(+m[1], +m[2], +m[3])],
    [new RegExp(`\\b${day}\\s+(?:of\\s+)?${mon},?\\s+${yr}\\b`), (m) => { const mo = month(m[2]); return mo ? valid(year(m[3]), mo, +m[1]) : undefined; }],
    [new RegExp(`\\b${mon}\\s+${day},?\\s+${yr}\\b`), (m) => { const mo = month(m[1]); return mo ? valid(year(m[3]), mo, +m[2]) : undefined; }],
    [/\b(\d{1,2})([/.\-])(\d{1,2})\2(\d{4}|\d{2})\b/, (m) => {
      const a = +m[1], b = +m[3], y = year(m[4]);
      return a > 12 || m[2] === '.' ? valid(y, b, a) : valid(y, a, b);
    }],
  ];
  for (const [re, conv] of tries) {
    const m = re.exec(s);
    const date = m ? conv(m) : undefined;
    if (m && date) return { date, index: m.index, length: m[0].length };
  }
  return undefined;
}

/** Formats with tokens YYYY YY MMMM MMM MM M DD D (anything else is copied). */
export function formatDate(d: SimpleDate, pattern: string): string {
  return pattern.replace(/YYYY|YY|MMMM|MMM|MM|M|DD|D/g, (t) => {
    switch (t) {
      case 'YYYY': return String(d.y);
      case 'YY': return String(d.y % 100).padStart(2, '0');
      case 'MMMM': return cap(MONTHS[d.m - 1]);
      case 'MMM': return cap(MONTHS[d.m - 1].slice(0, 3));
      case 'MM': return String(d.m).padStart(2, '0');
      case 'M': return String(d.m);
      case 'DD': return String(d.d).padStart(2, '0');
      default: return String(d.d);
    }
  });
}

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
