// Injectable time, so expiry and windows are testable without waiting.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Seconds since the epoch. */
export function epochSeconds(clock: Clock): number {
  return Math.floor(clock.now().getTime() / 1000);
}

/** The spec's timestamp form: YYYY-MM-DDTHH:MM:SSZ. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function nowIso(clock: Clock): string {
  return isoSeconds(clock.now());
}

/** The ISO 8601 forms clients send for `since`/`before`: a date, or a date and time with an optional zone. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** True when `raw` is an ISO 8601 timestamp that names a real time. */
export function isIsoTimestamp(raw: string): boolean {
  return ISO_8601.test(raw) && !Number.isNaN(Date.parse(raw));
}

/** An ISO 8601 timestamp (validated by isIsoTimestamp first) in the stored form; undefined for none. */
export function storedTimestamp(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  return isoSeconds(new Date(Date.parse(raw)));
}
