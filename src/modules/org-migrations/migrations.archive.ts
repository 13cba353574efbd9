// Writes a migration archive: a gzipped tar written as a stream (tar-stream → zlib →
// file), so that neither records nor git data need to fit in memory at once. Layout as
// upstream's: schema.json, <kind>_000001.json …, releases/<guid>/<name> (release assets' bytes)
// and repositories/<owner>/<name>.git/.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';

/** Records per JSON file, as upstream splits them (users_000001.json, users_000002.json …). */
export const RECORDS_PER_FILE = 100;

export class ArchiveWriter {
  private readonly pack = tar.pack();
  private readonly done: Promise<void>;
  private readonly counters = new Map<string, number>();
  private readonly mtime: Date;

  constructor(readonly file: string, mtime: Date) {
    this.mtime = mtime;
    this.done = pipeline(this.pack, zlib.createGzip(), fs.createWriteStream(file));
  }

  async json(name: string, value: unknown): Promise<void> {
    const body = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
    await new Promise<void>((resolve, reject) => this.pack.entry({ name, mtime: this.mtime, mode: 0o644 }, body, (err) => (err ? reject(err) : resolve())));
  }

  /** Appends records of one kind, RECORDS_PER_FILE to a numbered file. */
  async records(kind: string, items: readonly unknown[]): Promise<void> {
    for (let i = 0; i < items.length; i += RECORDS_PER_FILE) {
      const n = (this.counters.get(kind) ?? 0) + 1;
      this.counters.set(kind, n);
      await this.json(`${kind}_${String(n).padStart(6, '0')}.json`, items.slice(i, i + RECORDS_PER_FILE));
    }
  }

  /** Adds one file (a release asset's bytes) under `name`, streamed. */
  async copy(name: string, source: string): Promise<void> {
    const stat = await fsp.stat(source);
    const entry = this.pack.entry({ name, size: stat.size, mode: 0o644, mtime: this.mtime });
    await pipeline(fs.createReadStream(source), entry);
  }

  /** Adds a directory tree (a bare repository) under `prefix`, file by file, streamed. */
  async directory(dir: string, prefix: string): Promise<void> {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    await new Promise<void>((resolve, reject) => this.pack.entry({ name: `${prefix}/`, type: 'directory', mode: 0o755, mtime: this.mtime }, (err) => (err ? reject(err) : resolve())));
    for (const e of entries) {
      const full = path.join(dir, e.name);
      const name = `${prefix}/${e.name}`;
      if (e.isDirectory()) await this.directory(full, name);
      else if (e.isFile()) {
        const stat = await fsp.stat(full);
        const entry = this.pack.entry({ name, size: stat.size, mode: stat.mode & 0o777, mtime: this.mtime });
        await pipeline(fs.createReadStream(full), entry);
      }
    }
  }

  /** Ends the tar stream and waits until the file is written; the size in bytes. */
  async finish(): Promise<number> {
    this.pack.finalize();
    await this.done;
    return (await fsp.stat(this.file)).size;
  }

  /** Gives up: the stream is destroyed and the partial file removed. */
  async abort(): Promise<void> {
    this.pack.destroy();
    await this.done.catch(() => undefined);
    await fsp.rm(this.file, { force: true });
  }
}
