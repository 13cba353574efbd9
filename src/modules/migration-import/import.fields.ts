// Reading one archive record's fields, each failure an archive error naming the record
// and the field: what import.records checks every record with.
import { isoSeconds } from '../../domain/clock.ts';
import { archiveError, type ArchiveContents, type Kind } from './import.archive.ts';

type Json = Record<string, unknown>;

/** Reads fields of one record, naming the record in its errors. */
export class Fields {
  constructor(private readonly o: Json, readonly where: string) {}

  private fail(key: string, what: string): never {
    throw archiveError(`${this.where}: "${key}" ${what}`);
  }

  /** The field as it is, for a record whose field takes more than one shape. */
  raw(key: string): unknown {
    return this.o[key];
  }

  str(key: string): string {
    const v = this.o[key];
    return typeof v === 'string' && v !== '' ? v : this.fail(key, 'must be a non-empty string');
  }

  strOrNull(key: string): string | null {
    const v = this.o[key];
    if (v === undefined || v === null) return null;
    return typeof v === 'string' ? v : this.fail(key, 'must be a string or null');
  }

  int(key: string): number {
    const v = this.o[key];
    return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : this.fail(key, 'must be a positive integer');
  }

  intOrNull(key: string): number | null {
    const v = this.o[key];
    return v === undefined || v === null ? null : this.int(key);
  }

  /** A count: a whole number ≥ 0 (absent or null: 0). */
  count(key: string): number {
    const v = this.o[key];
    if (v === undefined || v === null) return 0;
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : this.fail(key, 'must be a whole number, 0 or more');
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.o[key];
    if (v === undefined || v === null) return fallback;
    return typeof v === 'boolean' ? v : this.fail(key, 'must be true or false');
  }

  /** Absent or null: undefined (the repository's default applies). */
  flag(key: string): boolean | undefined {
    const v = this.o[key];
    if (v === undefined || v === null) return undefined;
    return typeof v === 'boolean' ? v : this.fail(key, 'must be true or false');
  }

  strings(key: string): string[] {
    const v = this.o[key];
    if (v === undefined || v === null) return [];
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v as string[] : this.fail(key, 'must be a list of strings');
  }

  required(key: string): Json {
    return this.obj(key) ?? this.fail(key, 'is required');
  }

  obj(key: string): Json | null {
    const v = this.o[key];
    if (v === undefined || v === null) return null;
    return typeof v === 'object' && !Array.isArray(v) ? v as Json : this.fail(key, 'must be an object or null');
  }

  list(key: string): Json[] {
    const v = this.o[key];
    if (v === undefined || v === null) return [];
    return Array.isArray(v) && v.every((x) => x && typeof x === 'object') ? v as Json[] : this.fail(key, 'must be a list of objects');
  }

  /** A list whose items are objects or strings (absent or null: empty). */
  items(key: string): (Json | string)[] {
    const v = this.o[key];
    if (v === undefined || v === null) return [];
    return Array.isArray(v) && v.every((x) => typeof x === 'string' || (x && typeof x === 'object' && !Array.isArray(x)))
      ? v as (Json | string)[] : this.fail(key, 'must be a list of objects or strings');
  }

  /** A timestamp, stored as every other one is (UTC, whole seconds, Z). */
  time(key: string): string {
    const ms = Date.parse(this.str(key));
    return Number.isNaN(ms) ? this.fail(key, 'must be a timestamp') : isoSeconds(new Date(ms));
  }

  timeOrNull(key: string): string | null {
    return this.strOrNull(key) === null ? null : this.time(key);
  }

  /** The login of a user object (null when the field is null: a deleted account). */
  login(key: string): string | null {
    const u = this.obj(key);
    return u ? new Fields(u, `${this.where}.${key}`).str('login') : null;
  }

  /** "owner/name" (lower-cased) of the repository an API URL is under. */
  repoOf(key: string): string {
    const m = /\/repos\/([^/]+)\/([^/]+?)(?:\/|$)/.exec(this.str(key));
    return m ? `${m[1]}/${m[2]}`.toLowerCase() : this.fail(key, 'must be a repository API URL');
  }

  /** The number at the end of an API URL. */
  tailNumber(key: string): number {
    const m = /\/(\d+)$/.exec(this.str(key));
    return m ? Number(m[1]) : this.fail(key, 'must end in a number');
  }
}

export function each<T>(contents: ArchiveContents, kind: Kind, read: (f: Fields) => T): T[] {
  return contents.records[kind].map((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw archiveError(`${kind}[${i}] is not an object`);
    return read(new Fields(item as Json, `${kind}[${i}]`));
  });
}
