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
