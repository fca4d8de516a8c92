import type { Tok } from './number-format-tokens.js';

export interface DateOptions {
  /** Workbook uses the 1904 date system (workbookPr date1904). */
  date1904?: boolean;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_MS = 86_400_000;

interface Parts { y: number; mo: number; d: number; wd: number; h: number; mi: number; s: number; ms: number; days: number }

/**
 * Serial → calendar parts. The 1900 system keeps Excel's (Lotus) phantom 29 Feb 1900 at serial 60,
 * so serials before it are one day off the real calendar, as in Excel itself.
 */
function serialToParts(serial: number, opts: DateOptions, subSecondDigits: number): Parts {
  const unit = subSecondDigits > 0 ? 10 ** (3 - Math.min(3, subSecondDigits)) : 1000;
  let total = Math.round((serial * DAY_MS) / unit) * unit;
  let days = Math.floor(total / DAY_MS);
  let msOfDay = total - days * DAY_MS;
  if (msOfDay >= DAY_MS) { days += 1; msOfDay -= DAY_MS; total = days * DAY_MS + msOfDay; }
  let y: number, mo: number, d: number, wd: number;
  if (!opts.date1904 && days === 60) { y = 1900; mo = 2; d = 29; wd = 3; }
  else {
    const epoch = opts.date1904 ? Date.UTC(1904, 0, 1) : days < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
    const dt = new Date(epoch + days * DAY_MS);
    y = dt.getUTCFullYear(); mo = dt.getUTCMonth() + 1; d = dt.getUTCDate(); wd = dt.getUTCDay();
  }
  const h = Math.floor(msOfDay / 3_600_000);
  const mi = Math.floor((msOfDay % 3_600_000) / 60_000);
  const s = Math.floor((msOfDay % 60_000) / 1000);
  return { y, mo, d, wd, h, mi, s, ms: msOfDay % 1000, days };
}

/** ISO date/time text (t="d" cells) → serial in the workbook's date system. */
export function isoToSerial(iso: string, opts: DateOptions): number | undefined {
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) || !iso.includes('T') ? iso : `${iso}Z`);
  if (Number.isNaN(ms)) return undefined;
  const epoch = opts.date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const serial = (ms - epoch) / DAY_MS;
  return !opts.date1904 && serial < 61 ? serial - 1 : serial;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** Resolves m/mm as minutes when next to hours or seconds (the format language's one ambiguity). */
function minuteFlags(tokens: Tok[]): boolean[] {
  const flags = tokens.map(() => false);
  const timeish = (t: Tok | undefined) => !!t && (t.t === 'elapsed' || (t.t === 'date' && (t.v[0] === 'h' || t.v[0] === 's')));
  tokens.forEach((t, i) => {
    if (t.t !== 'date' || t.v[0] !== 'm' || t.v.length > 2) return;
    let p = i - 1;
    while (p >= 0 && tokens[p].t === 'lit') p--;
    let n = i + 1;
    while (n < tokens.length && (tokens[n].t === 'lit' || tokens[n].t === 'dot')) n++;
    const prev = tokens[p], next = tokens[n];
    flags[i] = (timeish(prev) && (prev as { v: string }).v[0] !== 's') || (timeish(next) && (next as { v: string }).v[0] === 's');
  });
  return flags;
}

export function formatDateSection(serial: number, tokens: Tok[], opts: DateOptions): string {
  let sub = 0;
  tokens.forEach((t, i) => {
    if (t.t === 'dot' && i > 0) {
      let k = i + 1;
      while (tokens[k]?.t === 'digit' && (tokens[k] as { v: string }).v === '0') k++;
      sub = Math.max(sub, k - i - 1);
    }
  });
  const p = serialToParts(serial, opts, sub);
  const ampm = tokens.some((t) => t.t === 'ampm');
  const minutes = minuteFlags(tokens);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    switch (t.t) {
      case 'lit': out.push(t.v); break;
      case 'ampm': {
        const pm = p.h >= 12;
        const word = t.v.length === 3 ? (pm ? t.v[2] : t.v[0]) : (pm ? t.v.slice(3) : t.v.slice(0, 2));
        out.push(word);
        break;
      }
      case 'elapsed': {
        const totalSec = p.days * 86400 + p.h * 3600 + p.mi * 60 + p.s;
        const n = t.v[0] === 'h' ? Math.floor(totalSec / 3600) : t.v[0] === 'm' ? Math.floor(totalSec / 60) : totalSec;
        out.push(pad(n, t.v.length));
        break;
      }
      case 'dot': {
        const digits: string[] = [];
        let k = i + 1;
        while (tokens[k]?.t === 'digit') { digits.push('0'); k++; }
        if (digits.length > 0) { out.push(`.${pad(p.ms, 3).slice(0, digits.length)}`); i = k - 1; }
        else out.push('.');
        break;
      }
      case 'date': out.push(datePart(t.v, p, ampm, minutes[i])); break;
      case 'slash': out.push('/'); break;
      case 'comma': out.push(','); break;
      case 'pct': out.push('%'); break;
      default: break;
    }
  }
  return out.join('');
}

function datePart(v: string, p: Parts, ampm: boolean, isMinute: boolean): string {
  const n = v.length;
  switch (v[0]) {
    case 'y': return n <= 2 ? pad(p.y % 100, 2) : String(p.y);
    case 'd':
      if (n === 1) return String(p.d);
      if (n === 2) return pad(p.d, 2);
      return n === 3 ? DAYS[p.wd].slice(0, 3) : DAYS[p.wd];
    case 'h': {
      const h = ampm ? (p.h % 12 === 0 ? 12 : p.h % 12) : p.h;
      return n >= 2 ? pad(h, 2) : String(h);
    }
    case 's': return n >= 2 ? pad(p.s, 2) : String(p.s);
    case 'm':
      if (isMinute) return n >= 2 ? pad(p.mi, 2) : String(p.mi);
      if (n === 1) return String(p.mo);
      if (n === 2) return pad(p.mo, 2);
      if (n === 3) return MONTHS[p.mo - 1].slice(0, 3);
      return n === 5 ? MONTHS[p.mo - 1][0] : MONTHS[p.mo - 1];
    default: return '';
  }
}
