import { parseXml, parseXmlOrdered, resolveTarget } from './xml.js';

describe('untrusted XML', () => {
  it('refuses a DOCTYPE (billion laughs / XXE)', () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><a>&lol2;</a>';
    expect(() => parseXml(bomb)).toThrow(expect.objectContaining({ code: 'FILE_003' }));
    expect(() => parseXmlOrdered(bomb)).toThrow(/DOCTYPE/);
  });
  it('parses attributes and arrays', () => {
    const doc = parseXml('<r><c a="1"/><c a="2"/></r>', ['c']);
    expect((doc.r as { c: { '@_a': string }[] }).c.map((c) => c['@_a'])).toEqual(['1', '2']);
  });
  it('resolves relationship targets', () => {
    expect(resolveTarget('ppt/slides/slide1.xml', '../media/image1.png')).toBe('ppt/media/image1.png');
    expect(resolveTarget('word/document.xml', '/word/media/a.png')).toBe('word/media/a.png');
  });
});
