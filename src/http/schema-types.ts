// TypeBox helpers shared by every module's schemas.
import { Type, type TSchema, type Static } from '@sinclair/typebox';

/** A nullable field in the form fast-json-stringify serializes fastest: type: [T, 'null']. */
export function Nullable<T extends TSchema>(schema: T) {
  const s = schema as unknown as { type?: string };
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [s.type, 'null'] });
}


/** A string restricted to values, as a plain JSON-schema enum (one clear Ajv error). */
export function StringEnum<const T extends readonly string[]>(values: T, options: { default?: T[number] } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}
