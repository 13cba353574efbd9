// TypeBox helpers shared by every module's schemas.
import { Type, type TSchema, type Static } from '@sinclair/typebox';
import type { PagedList, PagedRecord } from './pagination.ts';

/** A nullable field in the form fast-json-stringify serializes fastest: type: [T, 'null']. */
export function Nullable<T extends TSchema>(schema: T) {
  const s = schema as unknown as { type?: string };
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [s.type, 'null'] });
}


/**
 * An ISO 8601 time in a query string (`since`, `before`): a bad one is the one 422 of
 * schema validation. Services turn it into the stored form with storedTimestamp().
 */
export const IsoTimestamp = Type.String({ format: 'iso-timestamp' });

/** A string restricted to values, as a plain JSON-schema enum (one clear Ajv error). */
export function StringEnum<const T extends readonly string[]>(values: T, options: { default?: T[number] } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * The response schema of a paged route: serialized as an array of `item`, typed so the
 * handler may return the PagedList of paged()/pagedBySince()/pagedByCursor() (the
 * conventions write the Link header and serialize its items) or a plain array.
 */
export function PagedArray<T extends TSchema>(item: T) {
  return Type.Unsafe<Static<T>[] | PagedList<Static<T>>>(Type.Array(item));
}

/**
 * The response schema of a record holding a paged list: serialized as `record`, typed so
 * the handler may return the PagedRecord of pagedRecord() or the record itself.
 */
export function PagedObject<T extends TSchema>(record: T) {
  return Type.Unsafe<Static<T> | PagedRecord<Static<T>>>(record);
}

/** A bodiless answer (204, 205): `null` in the schema; the handler sends nothing or null. */
export const NoContent = Type.Unsafe<void | null>(Type.Null());
