import { Readable } from 'node:stream';
import { asUtf8, charsetOf } from './import-charset';

const text = async (stream: Readable) => {
  const parts: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
};
const byteByByte = (bytes: Buffer) => Readable.from([...bytes].map((b) => Buffer.from([b])));

describe('an import body’s charset', () => {
  it('reads the charset a Content-Type names, UTF-8 when it names none, and nothing for one no decoder knows', () => {
    expect(charsetOf('text/csv')?.encoding).toBe('utf-8');
    expect(charsetOf('text/csv; charset=windows-1252')?.encoding).toBe('windows-1252');
    expect(charsetOf('text/csv;charset="ISO-8859-1"')?.encoding).toBe('windows-1252');
    expect(charsetOf('application/x-ndjson; charset=UTF-16LE')?.encoding).toBe('utf-16le');
    expect(charsetOf('text/csv; charset=klingon')).toBeNull();
  });

  it('hands a UTF-8 body on as it is, and decodes others to UTF-8 whatever their chunks split', async () => {
    const body = Readable.from([Buffer.from('a')]);
    expect(asUtf8(body, charsetOf('text/csv')!)).toBe(body);
    const cp1252 = Buffer.from([0x4a, 0x6f, 0x73, 0xe9, 0x2c, 0x80, 0x0a]); // José,€\n
    expect(await text(asUtf8(byteByByte(cp1252), charsetOf('text/csv; charset=windows-1252')!))).toBe('José,€\n');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Zoë 😀\n', 'utf16le')]);
    expect(await text(asUtf8(byteByByte(utf16), charsetOf('text/csv; charset=utf-16')!))).toBe('Zoë 😀\n');
  });

  it('fails the decoded body when the body fails (an upload cut short)', async () => {
    const failing = new Readable({ read() {} });
    const decoded = asUtf8(failing, charsetOf('text/csv; charset=windows-1252')!);
    failing.push(Buffer.from('a'));
    failing.destroy(new Error('aborted'));
    await expect(text(decoded)).rejects.toThrow('aborted');
  });
});
