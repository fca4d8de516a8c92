import { fontInfoFrom, styleFromName } from './fonts.js';

describe('font style from names', () => {
  test.each([
    ['Arial-BoldMT', true, false], ['Verdana,Bold', true, false], ['Times-BoldItalic', true, true],
    ['AdobeCorpID-MyriadBd', true, false], ['AdobeCorpID-MyriadBdIt', true, true], ['AdobeCorpID-MyriadRgIt', false, true],
    ['HelveticaNeueLTStd-BlkCn', true, false], ['HelveticaNeueLTStd-It', false, true], ['ITCFranklinGothicStd-Demi', true, false],
    ['OpenSans-SemiBold', true, false], ['NimbusRomNo9L-Medi', true, false], ['NimbusRomNo9L-MediItal', true, true],
    ['CMBX10', true, false], ['CMTI10', false, true], ['SFTI1200', false, true], ['ABCDEF+Helvetica-Oblique', false, true],
    ['HelveticaNeue-Medium', false, false], ['HelveticaNeue-UltraLight', false, false], ['CMR10', false, false], ['TimesNewRomanPSMT', false, false], ['Calibri', false, false],
    ['ITCFranklinGothicStd-Book', false, false], ['MinionPro-Regular', false, false], ['Edwardian-Script-ITC', false, false],
  ])('%s → bold %s, italic %s', (name, bold, italic) => {
    expect(styleFromName(name)).toEqual({ bold, italic });
  });

  test('pdf.js flags win; the subset tag is dropped from the name', () => {
    expect(fontInfoFrom({ name: 'QWERTY+Foo', bold: true })).toEqual({ name: 'Foo', bold: true, italic: false });
    expect(fontInfoFrom({ name: 'Foo', black: true, italic: true })).toEqual({ name: 'Foo', bold: true, italic: true });
    expect(fontInfoFrom(null)).toBeUndefined();
  });
});
