import { createCipheriv, createHash } from 'node:crypto';
import { emptyPasswordDecryptor, pdfStringBytes, rc4 } from './stream-decrypt.js';

const PAD = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');
const md5 = (...parts: Uint8Array[]) => { const h = createHash('md5'); for (const p of parts) h.update(p); return h.digest(); };

describe('stream decryption for the checks before pdf.js', () => {
  test('PDF strings: literal escapes, octal, nesting and hex', () => {
    expect(pdfStringBytes('(a\\(b\\)c \\101\\n(x))')!.toString('latin1')).toBe('a(b)c A\n(x)');
    expect(pdfStringBytes('<41 42 4>')!.toString('latin1')).toBe('AB@');
  });

  test('RC4 matches its published test vector', () => {
    expect(Buffer.from(rc4(Buffer.from('Key'), Buffer.from('Plaintext'))).toString('hex')).toBe('bbf316e8d940af0ad3');
  });

  test('revision 4 with AESV2 (AES-128) streams: the key is derived from the empty password and each object\'s salt', () => {
    const id = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');
    const o = Buffer.alloc(32, 7);
    const p = -44;
    const pb = Buffer.alloc(4); pb.writeInt32LE(p);
    let key = md5(PAD, o, pb, id);
    for (let i = 0; i < 50; i++) key = md5(key);
    const objKey = md5(key, Buffer.from([12, 0, 0, 0, 0]), Buffer.from('sAlT')).subarray(0, 16);
    const iv = Buffer.alloc(16, 3);
    const plain = Buffer.from('q 1 0 0 1 0 0 cm Q '.repeat(10));
    const c = createCipheriv('aes-128-cbc', objKey, iv);
    const enc = Buffer.concat([iv, c.update(plain), c.final()]);
    const file = Buffer.from(`%PDF-1.6\n5 0 obj\n<< /Filter /Standard /V 4 /R 4 /Length 128 /CF << /StdCF << /CFM /AESV2 /Length 16 >> >> /StmF /StdCF /StrF /StdCF /O <${o.toString('hex')}> /U <${Buffer.alloc(32).toString('hex')}> /P ${p} >>\nendobj\ntrailer\n<< /Encrypt 5 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>] >>\n`, 'latin1');
    const decrypt = emptyPasswordDecryptor(file)!;
    expect(decrypt).not.toBeNull();
    expect(Buffer.from(decrypt(12, 0, enc)).toString('latin1').startsWith(plain.toString('latin1'))).toBe(true);
  });

  test('a security handler it does not read answers null (the file is then not measured)', () => {
    const file = Buffer.from('%PDF-1.7\n5 0 obj\n<< /Filter /Standard /V 5 /R 6 /O <00> /U <00> /P -4 >>\nendobj\ntrailer\n<< /Encrypt 5 0 R /ID [<00><00>] >>\n', 'latin1');
    expect(emptyPasswordDecryptor(file)).toBeNull();
  });
});
