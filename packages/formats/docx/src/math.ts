import { child, innerText, kids, nameOf, path, val, type X } from './ox.js';

/**
 * Office Math (OMML, m:oMath) → LaTeX, as the html reader writes MathML formulas: the structure Word draws
 * (fractions, scripts, radicals, n-ary operators, delimiters, functions, accents, matrices, equation arrays)
 * becomes the LaTeX that draws it, so "a over b" is \frac{a}{b} and not the run "ab", and x² is x^{2}, not "x2".
 */

/** Characters that have a LaTeX command of their own (operators, arrows, Greek letters). */
const TEX_SYMBOLS: Record<string, string> = {
  '×': '\\times', '÷': '\\div', '±': '\\pm', '∓': '\\mp', '·': '\\cdot', '⋅': '\\cdot', '≤': '\\leq', '≥': '\\geq',
  '≠': '\\neq', '≈': '\\approx', '≡': '\\equiv', '∞': '\\infty', '∑': '\\sum', '∏': '\\prod', '∐': '\\coprod', '∫': '\\int',
  '∬': '\\iint', '∭': '\\iiint', '∮': '\\oint', '⋃': '\\bigcup', '⋂': '\\bigcap', '∂': '\\partial', '∇': '\\nabla',
  '∈': '\\in', '∉': '\\notin', '⊂': '\\subset', '⊆': '\\subseteq', '∪': '\\cup', '∩': '\\cap', '→': '\\to',
  '←': '\\leftarrow', '⇒': '\\Rightarrow', '⇔': '\\Leftrightarrow', '∀': '\\forall', '∃': '\\exists', '¬': '\\neg',
  '∧': '\\wedge', '∨': '\\vee', '…': '\\ldots', '⋯': '\\cdots', '−': '-', '∝': '\\propto', '′': '\\prime',
  'α': '\\alpha', 'β': '\\beta', 'γ': '\\gamma', 'δ': '\\delta', 'ε': '\\epsilon', 'ζ': '\\zeta', 'η': '\\eta',
  'θ': '\\theta', 'ι': '\\iota', 'κ': '\\kappa', 'λ': '\\lambda', 'μ': '\\mu', 'ν': '\\nu', 'ξ': '\\xi', 'π': '\\pi',
  'ρ': '\\rho', 'σ': '\\sigma', 'τ': '\\tau', 'υ': '\\upsilon', 'φ': '\\phi', 'χ': '\\chi', 'ψ': '\\psi', 'ω': '\\omega',
  'Γ': '\\Gamma', 'Δ': '\\Delta', 'Θ': '\\Theta', 'Λ': '\\Lambda', 'Ξ': '\\Xi', 'Π': '\\Pi', 'Σ': '\\Sigma',
  'Φ': '\\Phi', 'Ψ': '\\Psi', 'Ω': '\\Omega', '\u2061': '', '\u2062': '', '\u2063': '', '\u200b': '',
};

/** Characters LaTeX reads as markup: written escaped so the formula shows them. */
const TEX_ESCAPES: Record<string, string> = { '#': '\\#', $: '\\$', '%': '\\%', '&': '\\&', _: '\\_', '{': '\\{', '}': '\\}', '\\': '\\backslash ', '~': '\\sim ', '^': '\\hat{}' };

/** Accents (m:acc chr) by combining character; a circumflex when none is named. */
const ACCENTS: Record<string, string> = {
  '\u0302': 'hat', '\u0303': 'tilde', '\u0307': 'dot', '\u0308': 'ddot', '\u20d7': 'vec', '\u0305': 'overline',
  '\u00af': 'overline', '\u0304': 'bar', '\u0301': 'acute', '\u0300': 'grave', '\u030c': 'check', '\u0306': 'breve',
};

/** Function names LaTeX has an operator for (m:func fName). */
const FUNCS = new Set(['sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'sinh', 'cosh', 'tanh', 'coth', 'arcsin', 'arccos', 'arctan',
  'log', 'ln', 'lg', 'exp', 'lim', 'max', 'min', 'sup', 'inf', 'det', 'dim', 'ker', 'deg', 'gcd', 'arg', 'Pr', 'liminf', 'limsup']);

function token(s: string, plainText: boolean): string {
  let out = '';
  for (const ch of s) {
    const esc = TEX_ESCAPES[ch];
    if (esc !== undefined) { out += esc; continue; }
    const cmd = plainText ? undefined : TEX_SYMBOLS[ch];
    out += cmd === undefined ? ch : /^\\[a-zA-Z]+$/.test(cmd) ? `${cmd} ` : cmd;
  }
  return out;
}

const prop = (n: X | undefined, pr: string, name: string) => val(path(n, pr, name));
const hidden = (n: X, pr: string, name: string) => ['1', 'on', 'true'].includes((prop(n, pr, name) ?? '').toLowerCase());
const tidy = (s: string) => s.replace(/\s+/g, ' ').replace(/\s+([}^_])/g, '$1').trim();

/** LaTeX of one m:oMath (or any OMML node), on one line. */
export function ommlToLatex(n: X): string {
  return tidy(latex(n, 0));
}

function latex(n: X, depth: number): string {
  if (depth > 200) return '';
  const sub = (name: string) => { const c = child(n, name); return c ? all(c, depth + 1) : ''; };
  switch (nameOf(n)) {
    case 'r': {
      // a run typed as normal text (m:nor) is words, not variables
      const t = kids(n).filter((k) => nameOf(k) === 't').map(innerText).join('');
      return path(n, 'rPr', 'nor') ? `\\text{${token(t, true)}}` : token(t, false);
    }
    case 'f': return prop(n, 'fPr', 'type') === 'lin' ? `${sub('num')}/${sub('den')}` : `\\frac{${sub('num')}}{${sub('den')}}`;
    case 'sSup': return `${sub('e')}^{${sub('sup')}}`;
    case 'sSub': return `${sub('e')}_{${sub('sub')}}`;
    case 'sSubSup': return `${sub('e')}_{${sub('sub')}}^{${sub('sup')}}`;
    case 'sPre': return `{}_{${sub('sub')}}^{${sub('sup')}}${sub('e')}`;
    case 'rad': {
      const deg = hidden(n, 'radPr', 'degHide') ? '' : sub('deg');
      return deg ? `\\sqrt[${deg}]{${sub('e')}}` : `\\sqrt{${sub('e')}}`;
    }
    case 'nary': {
      const chr = prop(n, 'naryPr', 'chr') ?? '∫';
      const op = TEX_SYMBOLS[chr] ?? chr;
      const lo = hidden(n, 'naryPr', 'subHide') ? '' : sub('sub'), hi = hidden(n, 'naryPr', 'supHide') ? '' : sub('sup');
      return `${op}${lo ? `_{${lo}}` : ''}${hi ? `^{${hi}}` : ''} ${sub('e')}`;
    }
    case 'd': {
      const pr = child(n, 'dPr');
      const open = val(child(pr ?? {}, 'begChr')) ?? '(', close = val(child(pr ?? {}, 'endChr')) ?? ')';
      const sep = val(child(pr ?? {}, 'sepChr')) ?? '|';
      const parts = kids(n).filter((k) => nameOf(k) === 'e').map((e) => all(e, depth + 1));
      const fence = (c: string, side: 'left' | 'right') => `\\${side}${c === '' ? '.' : c === '{' || c === '}' ? `\\${c}` : c === '|' ? '|' : TEX_SYMBOLS[c] ?? c}`;
      return `${fence(open, 'left')}${parts.join(sep === '|' ? ' | ' : ` ${sep} `)}${fence(close, 'right')}`;
    }
    case 'func': {
      const name = sub('fName').trim();
      return `${FUNCS.has(name) ? `\\${name}` : name} ${sub('e')}`;
    }
    case 'limLow': {
      const e = sub('e').trim();
      return `${FUNCS.has(e) ? `\\${e}` : e}_{${sub('lim')}}`;
    }
    case 'limUpp': return `${sub('e')}^{${sub('lim')}}`;
    case 'acc': {
      const a = ACCENTS[prop(n, 'accPr', 'chr') ?? '\u0302'] ?? 'hat';
      return `\\${a}{${sub('e')}}`;
    }
    case 'bar': return `\\${prop(n, 'barPr', 'pos') === 'top' ? 'overline' : 'underline'}{${sub('e')}}`;
    case 'groupChr': return `\\${prop(n, 'groupChrPr', 'pos') === 'top' ? 'overbrace' : 'underbrace'}{${sub('e')}}`;
    case 'eqArr': return `\\begin{array}{l} ${kids(n).filter((k) => nameOf(k) === 'e').map((e) => all(e, depth + 1)).join(' \\\\ ')} \\end{array}`;
    case 'm': {
      const rows = kids(n).filter((k) => nameOf(k) === 'mr').map((r) => kids(r).filter((k) => nameOf(k) === 'e').map((e) => all(e, depth + 1)).join(' & '));
      return `\\begin{matrix} ${rows.join(' \\\\ ')} \\end{matrix}`;
    }
    default:
      // properties carry no content; boxes, phantoms and the argument containers (e, num, den …) are their children
      return /Pr$/.test(nameOf(n)) ? '' : all(n, depth + 1);
  }
}

const all = (n: X, depth: number) => kids(n).map((k) => latex(k, depth)).join('');

