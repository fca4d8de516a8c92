// Text-comparison metrics for the extraction evaluation (scripts/eval-extract.mjs): markup
// stripping, character similarity from the exact Levenshtein distance, word-level F1 and a
// reading-order score from the longest common subsequence of words. Pure functions; tested in
// tests/support/text-metrics.test.ts.
import { parse } from 'parse5';

/** NFKC (ligatures, full-width forms), typographic quotes/dashes to ASCII, whitespace collapsed. */
export function normalizeText(s) {
  return s
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\u00ad/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const BLOCK_TAGS = new Set(['p', 'div', 'br', 'li', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'section', 'article', 'figure', 'figcaption', 'blockquote', 'pre', 'ul', 'ol', 'dd', 'dt', 'hr', 'caption']);

/** Visible text of an HTML string or fragment; block elements and cells are separated by spaces. */
export function htmlToText(html) {
  const out = [];
  const walk = (n) => {
    if (n.nodeName === '#text') { out.push(n.value ?? ''); return; }
    if (n.nodeName === 'script' || n.nodeName === 'style' || n.nodeName === 'head' || n.nodeName === 'template') return;
    const block = BLOCK_TAGS.has(n.nodeName);
    if (block) out.push(' ');
    for (const c of n.childNodes ?? []) walk(c);
    if (block) out.push(' ');
  };
  walk(parse(html));
  return normalizeText(out.join(''));
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decodeEntities = (s) => s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e) => {
  if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
  return ENTITIES[e.toLowerCase()] ?? m;
});
const LINK = /\[((?:[^[\]]|\[[^\]]*\])*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g;
const IMAGE = /!\[(?:[^[\]]|\[[^\]]*\])*\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g;

/**
 * HTML inside markdown as a reader sees it: comments (docling's "<!-- image -->") and tags removed, also
 * where they span lines (tables with spans come out as HTML), autolinks (<https://…>) kept as their text.
 */
function stripHtml(md) {
  return md
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<((?:https?|ftp|mailto):[^<>\s]+)>/gi, '$1')
    .replace(/<\/?[a-zA-Z][^<>]*>/g, ' ');
}

/**
 * Plain text of a markdown string as a person reads it: headings, list markers, checkboxes, emphasis, table
 * pipes and separator rows, HTML markup (tables with spans, comments), link targets ([text](url) and
 * [text][ref] keep their text; reference definitions are dropped), images (![alt](src): the reader sees
 * a picture, not its alt text) and placeholders ("<!-- image -->", "[Image]", "[Chart: title]" keeps
 * the title) and code-fence markers removed. Lines inside code fences are kept as they are.
 */
export function markdownToText(md) {
  const lines = [];
  // fenced code is literal; everything between fences loses its HTML first (tags may span lines)
  const segments = md.split(/^(\s*(?:```|~~~).*)$/m);
  let fence = false;
  for (const segment of segments) {
    if (/^\s*(```|~~~)/.test(segment)) { fence = !fence; continue; }
    if (fence) { lines.push(...segment.replace(/^\n|\n$/g, '').split('\n')); continue; }
    for (let line of stripHtml(segment).split('\n')) {
      if (/^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/.test(line) && line.includes('-') && (line.includes('|') || /^\s*-{3,}\s*$/.test(line))) continue;
      if (/^\s{0,3}\[[^\]]+\]:\s*\S+/.test(line)) continue; // reference-link definition
      line = line
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/^\s*>\s?/, '')
        .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
        .replace(/(^|\s)\[[ xX]\]\s/g, '$1')
        .replace(/[\u2610\u2611\u2612]/g, ' ')
        .replace(/\[(?:Image|Chart)(?::\s*([^\]]*))?\]/g, ' $1 ')
        .replace(IMAGE, ' ')
        .replace(LINK, '$1')
        .replace(/\[((?:[^[\]]|\[[^\]]*\])+)\]\[[^\]]*\]/g, '$1')
        .replace(/\*\*|__/g, '')
        .replace(/(^|\s)[*_]([^*_\s][^*_]*?)[*_](?=\s|$|[.,;:!?])/g, '$1$2')
        .replace(/`/g, '')
        .replace(/\\([\\`*_{}[\]()#+\-.!|<>$])/g, '$1')
        .replace(/\s*\|\s*/g, ' ');
      lines.push(decodeEntities(line));
    }
  }
  return normalizeText(lines.join('\n'));
}

/**
 * Text of a LaTeX source: the body between \begin{document} and \end{document}, comments, math
 * environments' delimiters and commands removed, the arguments of text commands kept. Rough: enough
 * for a word-level comparison of running text, not for math.
 */
export function latexToText(tex) {
  let body = tex.replace(/(^|[^\\])%.*$/gm, '$1');
  const b = body.indexOf('\\begin{document}'), e = body.indexOf('\\end{document}');
  if (b >= 0) body = body.slice(b + '\\begin{document}'.length, e > b ? e : undefined);
  body = body
    .replace(/\\(begin|end)\{[^}]*\}(\[[^\]]*\])?(\{[^}]*\})?/g, ' ')
    .replace(/\\(label|ref|cite|eqref|includegraphics|vspace|hspace|bibliographystyle|bibliography|usepackage|documentclass|maketitle|newpage|clearpage|columnbreak|noindent|centering|small|large|Large|LARGE|footnotesize|normalsize|tableofcontents)\*?(\[[^\]]*\])?(\{[^}]*\})?/g, ' ')
    .replace(/\\[a-zA-Z]+\*?(\[[^\]]*\])?/g, ' ')
    .replace(/\\\\/g, ' ')
    .replace(/[{}~]/g, ' ')
    .replace(/---?/g, '-');
  return normalizeText(body);
}

/** Words of a text for the word-level measures: lowercased letter/digit runs. */
export function words(text) {
  return normalizeText(text).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * Exact Levenshtein distance (unit costs) with Myers' bit-vector algorithm on BigInt bit vectors:
 * O(n·m/64) word operations, so two 50,000-character texts take a second or two, not minutes.
 */
export function levenshtein(a, b) {
  if (a === b) return 0;
  const A = [...a], B = [...b];
  const [p, t] = A.length <= B.length ? [A, B] : [B, A];
  const n = p.length;
  if (n === 0) return t.length;
  const M = (1n << BigInt(n)) - 1n, last = 1n << BigInt(n - 1);
  const peq = new Map();
  for (let i = 0; i < n; i++) peq.set(p[i], (peq.get(p[i]) ?? 0n) | (1n << BigInt(i)));
  let pv = M, mv = 0n, score = n;
  for (const ch of t) {
    const eq = peq.get(ch) ?? 0n;
    const xv = eq | mv;
    const xh = ((((eq & pv) + pv) & M) ^ pv) | eq;
    let ph = mv | (~(xh | pv) & M);
    let mh = pv & xh;
    if (ph & last) score++;
    if (mh & last) score--;
    ph = ((ph << 1n) | 1n) & M;
    mh = (mh << 1n) & M;
    pv = mh | (~(xv | ph) & M);
    mv = ph & xv;
  }
  return score;
}

/** 1 − normalized edit distance over the normalized texts (1 = identical). */
export function charSimilarity(candidate, reference) {
  const a = normalizeText(candidate), b = normalizeText(reference);
  const len = Math.max([...a].length, [...b].length);
  return len === 0 ? 1 : 1 - levenshtein(a, b) / len;
}

/** Bag-of-words precision, recall and F1 (1 = the same words with the same counts). */
export function wordScores(candidate, reference) {
  return bagScores(words(candidate), words(reference));
}

/** Precision, recall and F1 of token list `a` against `b` as multisets. */
export function bagScores(a, b) {
  if (a.length === 0 && b.length === 0) return { precision: 1, recall: 1, f1: 1 };
  const counts = new Map();
  for (const w of b) counts.set(w, (counts.get(w) ?? 0) + 1);
  let hit = 0;
  for (const w of a) {
    const c = counts.get(w) ?? 0;
    if (c > 0) { hit++; counts.set(w, c - 1); }
  }
  const precision = hit / Math.max(1, a.length), recall = hit / Math.max(1, b.length);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/** Length of the longest common subsequence of two token arrays (bit-parallel, BigInt vectors). */
export function lcsLength(a, b) {
  const [p, t] = a.length <= b.length ? [a, b] : [b, a];
  const n = p.length;
  if (n === 0) return 0;
  const M = (1n << BigInt(n)) - 1n;
  const peq = new Map();
  for (let i = 0; i < n; i++) peq.set(p[i], (peq.get(p[i]) ?? 0n) | (1n << BigInt(i)));
  let v = M;
  for (const tok of t) {
    const u = v & (peq.get(tok) ?? 0n);
    v = ((v + u) | (v - u)) & M;
  }
  let ones = 0;
  for (const c of v.toString(2)) if (c === '1') ones++;
  return n - ones;
}

/**
 * Reading-order quality: both word sequences are first reduced to the words they share (each word
 * kept at most as often as it occurs in the other text), so missing or extra words do not count;
 * the score is the LCS of the reduced sequences over their length (1 = same order). null when
 * fewer than 5 words are shared.
 */
export function orderScore(candidate, reference) {
  const a = words(candidate), b = words(reference);
  const reduce = (xs, other) => {
    const budget = new Map();
    for (const w of other) budget.set(w, (budget.get(w) ?? 0) + 1);
    const out = [];
    for (const w of xs) {
      const c = budget.get(w) ?? 0;
      if (c > 0) { out.push(w); budget.set(w, c - 1); }
    }
    return out;
  };
  const ra = reduce(a, b), rb = reduce(b, a);
  if (ra.length < 5) return null;
  return lcsLength(ra, rb) / ra.length;
}
