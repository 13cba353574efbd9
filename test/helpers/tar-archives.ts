// Migration archives as tests take them apart and put them together again (.tar.gz).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';

export type Entry = { header: Parameters<tar.Pack['entry']>[0]; body: Buffer };

/** The entries of a .tar.gz, in order. */
export async function entriesOf(bytes: Buffer): Promise<Entry[]> {
  const out: Entry[] = [];
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => { chunks.push(c as Buffer); });
    stream.on('end', () => { out.push({ header, body: Buffer.concat(chunks) }); next(); });
  });
  await pipeline(Readable.from(bytes), zlib.createGunzip(), extract);
  return out;
}

/** A .tar.gz of these entries. */
export async function packOf(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = pipeline(pack, zlib.createGzip(), async function* (source) {
    for await (const c of source) chunks.push(c as Buffer);
  });
  for (const e of entries) {
    if (e.header.type === 'directory') pack.entry({ ...e.header, size: 0 });
    else pack.entry({ ...e.header, size: e.body.length }, e.body);
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}
