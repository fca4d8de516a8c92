import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { emptyPasswordDecryptor, pdfStringBytes, rc4 } from './stream-decrypt.js';
import { aes256EncryptionEntries } from '../../../../tests/fixtures/pdf/encrypt.js';

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
    const file = (dict: string) => Buffer.from(`%PDF-1.7\n5 0 obj\n<< ${dict} >>\nendobj\ntrailer\n<< /Encrypt 5 0 R /ID [<00><00>] >>\n`, 'latin1');
    expect(emptyPasswordDecryptor(file('/Filter /Adobe.PubSec /V 5 /R 6 /SubFilter /adbe.pkcs7.s5 /P -4'))).toBeNull();
    expect(emptyPasswordDecryptor(file('/Filter /Standard /V 5 /R 7 /U <00> /UE <00> /P -4'))).toBeNull();
  });
});

/** `bytes` as a PDF literal string: delimiters and backslash escaped, line ends as octal, other bytes as they are. */
const literal = (bytes: Uint8Array) => `(${[...bytes].map((b) => (b === 0x28 || b === 0x29 || b === 0x5c ? `\\${String.fromCharCode(b)}` : b === 10 || b === 13 ? `\\${b.toString(8).padStart(3, '0')}` : String.fromCharCode(b))).join('')})`;

/** A file holding only an encryption dictionary `dict` (with /U and /UE as given) and its trailer. */
const encryptedFile = (dict: string) => Buffer.from(`%PDF-1.7\n5 0 obj\n<< /Filter /Standard /Length 256 ${dict} >>\nendobj\ntrailer\n<< /Encrypt 5 0 R /ID [<00><00>] >>\n`, 'latin1');
const AESV3 = '/CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV3 /Length 32 >> >> /StmF /StdCF /StrF /StdCF';

describe('AES-256 (revisions 5 and 6) for the empty user password', () => {
  /*
   * Known answers written by qpdf 11.3 (`qpdf --encrypt "" owner 256 [--force-R5]`) for a one-page file
   * whose content stream, object 4, is `q BT (Known answer) Tj ET Q`, Flate-compressed then encrypted:
   * a third implementation, so that a misreading shared by the reader and our fixture writer shows.
   */
  const known = {
    6: {
      u: '203c2f73814116a4e921b0de2bde34d6791bfe846e892db0cf9868f1563751e9cf40a658694eb9bd518811f177c3d546',
      ue: '2d87ded463ab589ac30904f9dba522efb98535b9a636d587795f464c44d3aea8',
      stream: '51fbec246661b2569f9a0cd95fa169f9815056a69897a3bf4e5d8a8389897fb9efa2b90acdbf92fff408f8cc1511058ec94790d16be756ffc83487d0d05b3417',
    },
    5: {
      u: '3af29a72f9904aefd4f6fa71d4419ddfe5aa08073864a7d697aebee3a4314bc37e7985f45bab617dfff37d3d34a4ae0e',
      ue: '8d31e875aa339cd0d37f15c156f2f1a0ae12f1b47cef9a65c39a5e680e022233',
      stream: '1092444c6d35901d2f3f8ef38b8848230a996bcc28c6a79f720e3d606744bf72b4eb82d6dec0e302dc915374a6ecf0a5ae66aaa45e61e19ede4fae450d6d83a1',
    },
  } as const;

  test.each([6, 5] as const)('revision %i: the file key from /U and /UE (hex or literal strings) decrypts qpdf\'s stream', (r) => {
    const { u, ue, stream } = known[r];
    const hex = emptyPasswordDecryptor(encryptedFile(`/V 5 /R ${r} ${AESV3} /U <${u}> /UE <${ue}> /P -4`))!;
    expect(hex).not.toBeNull();
    expect(inflateSync(hex(4, 0, Buffer.from(stream, 'hex'))).toString('latin1')).toBe('q BT (Known answer) Tj ET Q');
    // the same key with /U and /UE written as literal strings, and /EncryptMetadata false (which R5/6 keep out of the key)
    const lit = emptyPasswordDecryptor(encryptedFile(`/V 5 /R ${r} ${AESV3} /U ${literal(Buffer.from(u, 'hex'))} /UE ${literal(Buffer.from(ue, 'hex'))} /P -4 /EncryptMetadata false`))!;
    expect(inflateSync(lit(9, 3, Buffer.from(stream, 'hex'))).toString('latin1')).toBe('q BT (Known answer) Tj ET Q'); // one key for every object
  });

  test('a stream of any length: the PKCS#7 padding is removed, a damaged one kept', () => {
    const key = randomBytes(32);
    const { u, ue } = aes256EncryptionEntries(6, key, -4);
    const decrypt = emptyPasswordDecryptor(encryptedFile(`/V 5 /R 6 ${AESV3} /U <${u.toString('hex')}> /UE <${ue.toString('hex')}> /P -4`))!;
    for (const length of [0, 1, 15, 16, 17, 100]) {
      const plain = randomBytes(length), iv = randomBytes(16);
      const c = createCipheriv('aes-256-cbc', key, iv);
      expect(Buffer.from(decrypt(1, 0, Buffer.concat([iv, c.update(plain), c.final()])))).toEqual(plain);
    }
    const iv = randomBytes(16), c = createCipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
    const unpadded = Buffer.alloc(32, 0x41);
    expect(Buffer.from(decrypt(1, 0, Buffer.concat([iv, c.update(unpadded), c.final()])))).toEqual(unpadded);
  });

  test('an Identity stream filter leaves streams as they are', () => {
    const { u, ue } = aes256EncryptionEntries(6, randomBytes(32), -4);
    const decrypt = emptyPasswordDecryptor(encryptedFile(`/V 5 /R 6 /CF << /StdCF << /CFM /AESV3 >> >> /StmF /Identity /StrF /StdCF /U <${u.toString('hex')}> /UE <${ue.toString('hex')}> /P -4`))!;
    expect(Buffer.from(decrypt(4, 0, Buffer.from('q Q')))).toEqual(Buffer.from('q Q'));
  });

  test.each([6, 5] as const)('revision %i with a user password that is not empty answers null', (r) => {
    const { u, ue } = aes256EncryptionEntries(r, randomBytes(32), -4, 'secret');
    expect(emptyPasswordDecryptor(encryptedFile(`/V 5 /R ${r} ${AESV3} /U <${u.toString('hex')}> /UE <${ue.toString('hex')}> /P -4`))).toBeNull();
    const open = aes256EncryptionEntries(r, randomBytes(32), -4, '');
    expect(emptyPasswordDecryptor(encryptedFile(`/V 5 /R ${r} ${AESV3} /U <${open.u.toString('hex')}> /UE <${open.ue.toString('hex')}> /P -4`))).not.toBeNull();
  });
});
