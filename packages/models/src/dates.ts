/**
 * Finds and normalizes dates in free text: ISO, numeric (d/m/y or m/d/y, 2- or 4-digit years) and
 * written ("2 Feb 1990", "March 5, 2021", "5-Mar-21"). Ambiguous numeric dates are resolved with a
 * DateContext (the document's other dates, its currency, the caller's prompt).
 */

export interface DateContext {
  /** true: 02/03 is 2 March; false: February 3; undefined: fall back to the separator heuristic. */
  dayFirst?: boolean;
}

export interface FoundDate {
  iso: string;
  /** The matched text. */
  raw: string;
  index: number;
  /** 1 for unambiguous forms, lower when day/month order was a guess. */
  certainty: number;
  /** Time of day when printed next to the date ("8:13:39 PM"), as HH:MM:SS. */
  time?: string;
}

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, janv: 1, janvier: 1, januar: 1, feb: 2, february: 2, fev: 2, fevr: 2, fevrier: 2, februar: 2,
  mar: 3, march: 3, mars: 3, marz: 3, apr: 4, april: 4, avr: 4, avril: 4, may: 5, mai: 5, jun: 6, june: 6, juin: 6, juni: 6,
  jul: 7, july: 7, juil: 7, juillet: 7, juli: 7, aug: 8, august: 8, aout: 8, sep: 9, sept: 9, september: 9, septembre: 9,
  oct: 10, october: 10, octobre: 10, oktober: 10, nov: 11, november: 11, novembre: 11, dec: 12, december: 12, decembre: 12, dezember: 12,
  // Italian, Spanish, Portuguese, Dutch, Nordic, Polish (genitive, as dates print it)
  gennaio: 1, enero: 1, janeiro: 1, januari: 1, tammikuuta: 1, stycznia: 1,
  febbraio: 2, febrero: 2, fevereiro: 2, februari: 2, helmikuuta: 2, lutego: 2,
  marzo: 3, marco: 3, maart: 3, maaliskuuta: 3, marca: 3,
  aprile: 4, abril: 4, huhtikuuta: 4, kwietnia: 4,
  maggio: 5, mayo: 5, maio: 5, mei: 5, maj: 5, toukokuuta: 5, maja: 5,
  giugno: 6, junio: 6, junho: 6, kesakuuta: 6, czerwca: 6,
  luglio: 7, julio: 7, julho: 7, heinakuuta: 7, lipca: 7,
  agosto: 8, augustus: 8, augusti: 8, elokuuta: 8, sierpnia: 8,
  settembre: 9, septiembre: 9, setembro: 9, syyskuuta: 9, wrzesnia: 9,
  ottobre: 10, octubre: 10, outubro: 10, lokakuuta: 10, pazdziernika: 10,
  noviembre: 11, novembro: 11, marraskuuta: 11, listopada: 11,
  dicembre: 12, diciembre: 12, dezembro: 12, joulukuuta: 12, grudnia: 12,
  // Danish, Norwegian; Czech and Slovak (genitive); Romanian, Hungarian, Catalan, Turkish; Russian (genitive)
  marts: 3, desember: 12,
  ledna: 1, unora: 2, brezna: 3, dubna: 4, kvetna: 5, cervna: 6, cervence: 7, srpna: 8, zari: 9, rijna: 10, listopadu: 11, prosince: 12,
  januara: 1, februara: 2, aprila: 4, juna: 6, jula: 7, augusta: 8, septembra: 9, oktobra: 10, novembra: 11, decembra: 12,
  ianuarie: 1, februarie: 2, martie: 3, aprilie: 4, iunie: 6, iulie: 7, septembrie: 9, octombrie: 10, noiembrie: 11, decembrie: 12,
  marcius: 3, aprilis: 4, majus: 5, junius: 6, julius: 7, augusztus: 8, szeptember: 9,
  gener: 1, febrer: 2, maig: 5, juny: 6, juliol: 7, agost: 8, setembre: 9, desembre: 12,
  ocak: 1, subat: 2, mart: 3, nisan: 4, mayis: 5, haziran: 6, temmuz: 7, agustos: 8, eylul: 9, ekim: 10, kasim: 11, aralik: 12,
  января: 1, февраля: 2, марта: 3, апреля: 4, мая: 5, июня: 6, июля: 7,
  августа: 8, сентября: 9, октября: 10, ноября: 11, декабря: 12,
  // the abbreviations invoices print ("27. Okt. 2024", "12 mrt 2024", "5 dic. 2024", "3 ott 2024")
  mrz: 3, okt: 10, dez: 12, mrt: 3, ene: 1, abr: 4, ago: 8, dic: 12, gen: 1, mag: 5, giu: 6, lug: 7, set: 9, sett: 9, ott: 10, setiembre: 9,
};
/** The month a written month word names (English, French, German, Italian, Spanish, Portuguese, Dutch, Nordic, Polish; "Sept.", "März" alike), 0 for none. */
export function monthNumber(word: string): number {
  return MONTHS[word.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\.$/, '')] ?? 0;
}
const MONTH_RE = `(${Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|')})\\.?`;

const pad = (n: number) => String(n).padStart(2, '0');

function fullYear(y: string): number {
  const n = Number(y);
  if (y.length === 4) return n;
  return n < 50 ? 2000 + n : 1900 + n;
}

function isValidDate(y: number, m: number, d: number): boolean {
  if (y < 1000 || y > 2999 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

function timeAfter(text: string, from: number): string | undefined {
  const m = /^[ ,T]*(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?/i.exec(text.slice(from));
  if (!m) return undefined;
  let h = Number(m[1]);
  const pm = m[4]?.toLowerCase().startsWith('p');
  if (m[4] && h === 12) h = pm ? 12 : 0;
  else if (pm) h += 12;
  if (h > 23 || Number(m[2]) > 59) return undefined;
  return `${pad(h)}:${m[2]}:${m[3] ?? '00'}`;
}

type Finder = (text: string, ctx: DateContext) => FoundDate[];

const findIso: Finder = (text) => {
  const out: FoundDate[] = [];
  // "2024-03-14", "2024/3/14", "2024.03.14", and Hungarian "2024. 03. 14." (a point and a space after each part)
  for (const m of text.matchAll(/(?<![\d])(\d{4})(?:[-/.]|\.\s)(\d{1,2})(?:[-/.]|\.\s)(\d{1,2})(?![\d])/g)) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (isValidDate(y, mo, d)) out.push({ iso: iso(y, mo, d), raw: m[0], index: m.index, certainty: 1, time: timeAfter(text, m.index + m[0].length) });
  }
  return out;
};

const findNumeric: Finder = (text, ctx) => {
  const out: FoundDate[] = [];
  // "14.03.2024", "3/14/24"; and "14. 3. 2024" (Czech, Slovak: a point and a space after day and month, a full year)
  // and, with a full year, a slash or dash set off by a space as OCR reads it ("03 /02/ 2017", "12 / 05 / 2024")
  const found = [
    ...[...text.matchAll(/(?<![\d.,/-])(\d{1,2})([-/.]|\.\s)(\d{1,2})\2(\d{4}|\d{2})(?![\d]|[.,]\d)/g)]
      .filter((m) => m[2].length === 1 || m[4].length === 4),
    ...[...text.matchAll(/(?<![\d.,/-])(\d{1,2})\s?([-/])\s?(\d{1,2})\s?\2\s?(\d{4})(?![\d]|[.,]\d)/g)].filter((m) => /\s/.test(m[0])),
  ];
  for (const m of found) {
    const a = Number(m[1]), b = Number(m[3]), y = fullYear(m[4]);
    const dmy = isValidDate(y, b, a), mdy = isValidDate(y, a, b);
    if (!dmy && !mdy) continue;
    let dayFirst: boolean, certainty = 1;
    if (dmy && !mdy) dayFirst = true;
    else if (mdy && !dmy) dayFirst = false;
    else if (a === b) dayFirst = true;
    else {
      // genuinely ambiguous: the caller's context, else "." as separator reads European
      dayFirst = ctx.dayFirst ?? true; // most of the world writes day first
      certainty = ctx.dayFirst === undefined ? 0.6 : 0.85;
    }
    const [d, mo] = dayFirst ? [a, b] : [b, a];
    out.push({ iso: iso(y, mo, d), raw: m[0], index: m.index, certainty: m[4].length === 2 ? certainty * 0.95 : certainty, time: timeAfter(text, m.index + m[0].length) });
  }
  return out;
};

const findWritten: Finder = (text) => {
  const out: FoundDate[] = [];
  const norm = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  // 2 Feb 1990, 2nd February, 1990, 05-Mar-21, 5. März 2021
  // "14 de marzo de 2024", "14 de março de 2024": Spanish and Portuguese join with "de"
  const dmy = new RegExp(`(?<![\\w])(\\d{1,2})(?:st|nd|rd|th|er|º)?\\.?[\\s\\-/]*(?:(?:of|de)\\s+)?${MONTH_RE}[\\s\\-/,]*(?:del?\\s+)?(\\d{4}|\\d{2})(?![\\w])`, 'gi');
  for (const m of norm.matchAll(dmy)) {
    const d = Number(m[1]), mo = MONTHS[m[2].toLowerCase()], y = fullYear(m[3]);
    if (isValidDate(y, mo, d)) out.push({ iso: iso(y, mo, d), raw: m[0], index: m.index, certainty: 1, time: timeAfter(norm, m.index + m[0].length) });
  }
  // Hungarian, year first: "2024. március 14."
  const ymd = new RegExp(`(?<![\\w])(\\d{4})\\.?\\s+${MONTH_RE}\\s+(\\d{1,2})\\.?(?![\\w])`, 'gi');
  for (const m of norm.matchAll(ymd)) {
    const y = Number(m[1]), mo = MONTHS[m[2].toLowerCase()], d = Number(m[3]);
    if (isValidDate(y, mo, d)) out.push({ iso: iso(y, mo, d), raw: m[0], index: m.index, certainty: 1 });
  }
  // ISO order with the month as a word: "2017-Feb-03", "2017 Feb 03"
  const ywd = new RegExp(`(?<![\\w])(\\d{4})[\\s\\-/]${MONTH_RE}[\\s\\-/](\\d{1,2})(?![\\w])`, 'gi');
  for (const m of norm.matchAll(ywd)) {
    const y = Number(m[1]), mo = MONTHS[m[2].toLowerCase()], d = Number(m[3]);
    if (isValidDate(y, mo, d)) out.push({ iso: iso(y, mo, d), raw: m[0], index: m.index, certainty: 1 });
  }
  // March 5, 2021; Feb 2nd 1990; "Feb-03-2017", "Feb/03/2017"
  const mdy = new RegExp(`(?<![\\w])${MONTH_RE}(?:\\s+|[-/])(\\d{1,2})(?:st|nd|rd|th)?(?:\\s*,\\s*|\\s+|[-/])(\\d{4})(?![\\w])`, 'gi');
  for (const m of norm.matchAll(mdy)) {
    const mo = MONTHS[m[1].toLowerCase()], d = Number(m[2]), y = Number(m[3]);
    if (isValidDate(y, mo, d)) out.push({ iso: iso(y, mo, d), raw: m[0], index: m.index, certainty: 1, time: timeAfter(norm, m.index + m[0].length) });
  }
  return out;
};

/** "2024年3月14日", "2024년 3월 14일": Chinese, Japanese and Korean dates, year first. */
const findCjk: Finder = (text) => {
  const out: FoundDate[] = [];
  for (const m of text.matchAll(/(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]?/g)) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (isValidDate(y, mo, d)) out.push({ iso: iso(y, mo, d), raw: m[0], index: m.index, certainty: 1 });
  }
  return out;
};

/** Every date in the text, in order of appearance (overlapping matches resolved to the longest). */
export function findDates(text: string, ctx: DateContext = {}): FoundDate[] {
  const all = [...findIso(text, ctx), ...findCjk(text, ctx), ...findWritten(text, ctx), ...findNumeric(text, ctx)];
  all.sort((x, y) => x.index - y.index || y.raw.length - x.raw.length);
  const out: FoundDate[] = [];
  for (const d of all) {
    const last = out[out.length - 1];
    if (last && d.index < last.index + last.raw.length) continue;
    out.push(d);
  }
  return out;
}

/**
 * Infers day/month order from a document's unambiguous numeric dates (13/02/2021 → day first),
 * falling back to a hint (e.g. the document's currency); undefined when nothing tells.
 */
export function inferDayFirst(texts: readonly string[], hint?: boolean): boolean | undefined {
  let dayFirst = 0, monthFirst = 0;
  for (const t of texts) {
    for (const m of t.matchAll(/(?<![\d.,/-])(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})(?![\d])/g)) {
      const a = Number(m[1]), b = Number(m[3]), y = fullYear(m[4]);
      // only a real date votes: "10.59.33" (a time printed with dots) is no month-first date (there is no 59th day)
      if (a > 12 && b <= 12 && isValidDate(y, b, a)) dayFirst++;
      else if (b > 12 && a <= 12 && isValidDate(y, a, b)) monthFirst++;
    }
  }
  if (dayFirst !== monthFirst) return dayFirst > monthFirst;
  return hint;
}
