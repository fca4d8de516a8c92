import { layoutTerms } from './layout-terms.js';
import { nameCoverage, nameTokens, retrievalTokens } from './bm25.js';
import { lines, page } from '../../../tests/fixtures/documents/builder.js';

describe('layout words and name coverage', () => {
  it('a page that is mostly a table says "table"; running sentences say "prose"; blanks say "form"', () => {
    const table = page(1, [{ rows: [['North', '1,200', '900'], ['South', '880', '1,020'], ['East', '640', '700']], at: [0.1, 0.1, 0.9, 0.5] }]);
    expect(layoutTerms(table)).toContain('table');
    const prose = page(2, lines(['Here is to the crazy ones, the misfits and the rebels who see things differently.', 'They are not fond of rules and they have no respect for the status quo at all.'], 0.1, 0.1, 0.9));
    expect(layoutTerms(prose)).toEqual(expect.arrayContaining(['prose', 'text']));
    expect(layoutTerms(prose)).not.toContain('table');
    const form = page(3, lines(['Name: __________', 'Address: __________', 'Signature: __________'], 0.1, 0.1));
    expect(layoutTerms(form)).toContain('form');
    expect(layoutTerms(form, 2).filter((t) => t === 'form')).toHaveLength(2);
  });

  it('running sentences in scripts without capitals (Arabic, Hebrew, Chinese) say "prose" too', () => {
    for (const sentences of [
      ['هذا نص عربي طويل يتحدث عن تاريخ المدينة القديمة وأسواقها الكثيرة وناسها الطيبين.', 'وفي المساء يجتمع الناس في الساحات الكبيرة ليتحدثوا عن أحوالهم اليومية.'],
      ['זהו טקסט ארוך בעברית שמספר על ההיסטוריה של העיר העתיקה ועל השווקים שלה.', 'בערב נאספים האנשים בכיכרות הגדולות כדי לדבר על חייהם היומיומיים.'],
      ['这是一段很长的中文文字，讲述了这座古老城市的历史以及它热闹的市场和善良的人们。', '到了晚上，人们聚集在城市中心的大广场上，谈论他们的日常生活、工作和家里的事情。'],
    ]) expect(layoutTerms(page(1, lines(sentences, 0.1, 0.1, 0.9)))).toEqual(expect.arrayContaining(['prose', 'text']));
    // a table of labels in such a script stays a table
    const table = page(2, [{ rows: [['الشمال', '1,200', '900'], ['الجنوب', '880', '1,020'], ['الشرق', '640', '700']], at: [0.1, 0.1, 0.9, 0.5] }]);
    expect(layoutTerms(table)).not.toContain('prose');
  });

  it('maps common business words of other languages to English', () => {
    expect(retrievalTokens('Facture 12 Montant HT TVA')).toEqual(['invoice', 'amount', 'ht', 'vat']);
    expect(retrievalTokens('a brief note')).toEqual(['brief', 'note']);
  });

  it('nameCoverage is the share of the name words present', () => {
    const q = new Set(nameTokens('Form W-4 Employee withholding tax certificate'));
    expect(nameCoverage('tax_form', q)).toBe(1);
    expect(nameCoverage('table_report', q)).toBe(0);
    expect(nameCoverage('invoice form', q)).toBe(0.5);
  });

  it('a page names a type by its noun, singular or plural, not by a verb that stems alike', () => {
    // retrieval stems "formed" and "form" alike; the name does not count it
    expect(retrievalTokens('a holding company formed in 2007')).toContain('form');
    expect(nameCoverage('form', new Set(nameTokens('a holding company formed in 2007 reported total assets')))).toBe(0);
    expect(nameCoverage('table_report', new Set(nameTokens('a holding company formed in 2007 reported total assets')))).toBe(0);
    expect(nameCoverage('forms', new Set(nameTokens('Application Form')))).toBe(1);
    expect(nameCoverage('invoice', new Set(nameTokens('Invoices and credit notes')))).toBe(1);
    expect(nameCoverage('invoice', new Set(nameTokens('Facture n° 562044387')))).toBe(1);
  });
});
