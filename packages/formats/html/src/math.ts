import { attr, children, isElement, type El, type Node } from './dom.js';

/** A MathML formula as markdown math: LaTeX, and whether it is displayed on its own line. */
export interface MathText { latex: string; display: boolean }

const TEX_ENCODINGS = new Set(['application/x-tex', 'application/x-latex', 'text/x-tex', 'text/latex']);

/**
 * The LaTeX of a <math> element: the TeX annotation when the page ships one (MediaWiki, MathJax and
 * KaTeX write the source beside the MathML), else LaTeX rebuilt from the presentation MathML. Empty
 * when the formula has no content.
 */
export function mathText(math: El): MathText {
  const display = attr(math, 'display')?.toLowerCase() === 'block' || attr(math, 'mode')?.toLowerCase() === 'display';
  const annotation = findTexAnnotation(math);
  const latex = annotation !== undefined ? cleanTex(annotation) : tidy(toLatex(math));
  return { latex, display };
}

function findTexAnnotation(n: Node): string | undefined {
  for (const c of children(n)) {
    if (!isElement(c)) continue;
    if (c.tagName === 'annotation' && TEX_ENCODINGS.has((attr(c, 'encoding') ?? '').toLowerCase())) return plain(c);
    const inner = findTexAnnotation(c);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * Style-only wrappers carry no content: MediaWiki writes every formula as {\displaystyle …}, which
 * would otherwise put "displaystyle" among the document's words.
 */
function cleanTex(tex: string): string {
  let s = tex.trim();
  const wrapped = /^\{\\(?:displaystyle|textstyle|scriptstyle)\s*([\s\S]*)\}$/.exec(s);
  if (wrapped && balanced(wrapped[1])) s = wrapped[1];
  return tidy(s.replace(/\\(?:displaystyle|textstyle|scriptstyle)\b\s*/g, ''));
}

const balanced = (s: string) => {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') { i++; continue; }
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth < 0) return false;
  }
  return depth === 0;
};

const tidy = (s: string) => s.replace(/\s+/g, ' ').trim();

const plain = (n: Node): string => {
  let out = '';
  for (const c of children(n)) {
    if (c.nodeName === '#text') out += (c as { value: string }).value;
    else if (isElement(c)) out += plain(c);
  }
  return out;
};

/** Characters that have a LaTeX command of their own (the common operators and Greek letters). */
const TEX_SYMBOLS: Record<string, string> = {
  '×': '\\times', '÷': '\\div', '±': '\\pm', '∓': '\\mp', '·': '\\cdot', '⋅': '\\cdot', '≤': '\\leq', '≥': '\\geq',
  '≠': '\\neq', '≈': '\\approx', '≡': '\\equiv', '∞': '\\infty', '∑': '\\sum', '∏': '\\prod', '∫': '\\int',
  '∂': '\\partial', '∇': '\\nabla', '∈': '\\in', '∉': '\\notin', '⊂': '\\subset', '⊆': '\\subseteq', '∪': '\\cup',
  '∩': '\\cap', '→': '\\to', '←': '\\leftarrow', '⇒': '\\Rightarrow', '⇔': '\\Leftrightarrow', '∀': '\\forall',
  '∃': '\\exists', '¬': '\\neg', '∧': '\\wedge', '∨': '\\vee', '…': '\\ldots', '⋯': '\\cdots', '−': '-', '\u2061': '',
  '\u2062': '', '\u2063': '', 'α': '\\alpha', 'β': '\\beta', 'γ': '\\gamma', 'δ': '\\delta', 'ε': '\\epsilon',
  'ζ': '\\zeta', 'η': '\\eta', 'θ': '\\theta', 'κ': '\\kappa', 'λ': '\\lambda', 'μ': '\\mu', 'ν': '\\nu', 'ξ': '\\xi',
  'π': '\\pi', 'ρ': '\\rho', 'σ': '\\sigma', 'τ': '\\tau', 'φ': '\\phi', 'χ': '\\chi', 'ψ': '\\psi', 'ω': '\\omega',
  'Γ': '\\Gamma', 'Δ': '\\Delta', 'Θ': '\\Theta', 'Λ': '\\Lambda', 'Π': '\\Pi', 'Σ': '\\Sigma', 'Φ': '\\Phi',
  'Ψ': '\\Psi', 'Ω': '\\Omega',
};

function token(s: string): string {
  let out = '';
  for (const ch of s.trim()) {
    const cmd = TEX_SYMBOLS[ch];
    out += cmd === undefined ? ch : cmd && /^\\[a-zA-Z]+$/.test(cmd) ? `${cmd} ` : cmd;
  }
  return out.trim();
}

const group = (s: string) => (s.length === 1 ? s : `{${s}}`);

/** Presentation MathML → LaTeX, for the elements that carry structure; others contribute their children in order. */
function toLatex(n: Node): string {
  if (n.nodeName === '#text') return token((n as { value: string }).value);
  if (!isElement(n)) return '';
  const kids = children(n).filter(isElement);
  const arg = (i: number) => (kids[i] ? toLatex(kids[i]) : '');
  switch (n.tagName) {
    case 'annotation': case 'annotation-xml': return '';
    case 'mi': case 'mn': case 'mo': case 'mtext': case 'ms': {
      const t = token(plain(n));
      return n.tagName === 'mtext' && t ? `\\text{${t}}` : t;
    }
    case 'mfrac': return `\\frac{${arg(0)}}{${arg(1)}}`;
    case 'msqrt': return `\\sqrt{${kids.map(toLatex).join(' ')}}`;
    case 'mroot': return `\\sqrt[${arg(1)}]{${arg(0)}}`;
    case 'msup': return `${group(arg(0))}^${group(arg(1))}`;
    case 'msub': return `${group(arg(0))}_${group(arg(1))}`;
    case 'msubsup': return `${group(arg(0))}_${group(arg(1))}^${group(arg(2))}`;
    case 'munder': return `${group(arg(0))}_${group(arg(1))}`;
    case 'mover': return `${group(arg(0))}^${group(arg(1))}`;
    case 'munderover': return `${group(arg(0))}_${group(arg(1))}^${group(arg(2))}`;
    case 'mfenced': {
      const open = attr(n, 'open') ?? '(', close = attr(n, 'close') ?? ')';
      return `\\left${open} ${kids.map(toLatex).join(', ')} \\right${close}`;
    }
    case 'mtable': return `\\begin{matrix} ${kids.map(toLatex).join(' \\\\ ')} \\end{matrix}`;
    case 'mtr': case 'mlabeledtr': return kids.map(toLatex).join(' & ');
    default: return children(n).map(toLatex).filter(Boolean).join(' ');
  }
}

/** Markdown for a formula: $…$ inline, $$…$$ on its own lines when displayed. */
export const mathMarkdown = (m: MathText) => (m.display ? `$$${m.latex}$$` : `$${m.latex}$`);

/** The outermost <math> elements under a node (for formulas inside hidden wrappers). */
export function mathIn(n: Node): El[] {
  const out: El[] = [];
  for (const c of children(n)) {
    if (!isElement(c)) continue;
    if (c.tagName === 'math') out.push(c);
    else if (c.tagName !== 'script' && c.tagName !== 'template') out.push(...mathIn(c));
  }
  return out;
}
