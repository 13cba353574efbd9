// Sends one delivery with undici: the host resolved and checked by the address guard,
// the connection made to that very address, one overall time limit, the response
// body kept up to a bound. Never throws: every ending is a SendResult.
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import type { AddressGuard } from './hooks.address-guard.ts';
import type { OutgoingRequest } from './hooks.request.ts';

export type SendResult =
  | { kind: 'response'; statusCode: number; headers: Record<string, string>; body: string; durationMs: number }
  /** No usable answer: timed out, or no connection (retryable). */
  | { kind: 'timeout' | 'connection'; message: string; durationMs: number }
  /** The address guard refused the host (final). */
  | { kind: 'refused'; message: string; durationMs: number }
  /** Stopped by shutdown: not an attempt. */
  | { kind: 'aborted' };

export interface SenderOptions {
  timeoutMs: number;
  /** Response bodies are kept up to this many bytes. */
  maxResponseBytes: number;
}

const MAX_AGENTS = 64;
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export class WebhookSender {
  /** One agent per checked address (and certificate policy), so connections are reused. */
  private readonly agents = new Map<string, Agent>();

  constructor(private readonly guard: AddressGuard, private readonly options: SenderOptions) {}

  async send(url: string, req: OutgoingRequest, insecureSsl: boolean, stop: AbortSignal): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = AbortSignal.any([timeout, stop]);
    try {
      const target = new URL(url);
      const resolved = await abortable(this.guard.resolve(target), signal);
      if (!resolved.ok) {
        return resolved.refused
          ? { kind: 'refused', message: resolved.message, durationMs: elapsed() }
          : { kind: 'connection', message: resolved.message, durationMs: elapsed() };
      }
      const res = await request(target, {
        method: 'POST', headers: req.headers, body: req.body, signal,
        dispatcher: this.agentFor(resolved.address, resolved.family, insecureSsl),
      });
      const body = await readBounded(res.body, this.options.maxResponseBytes);
      return { kind: 'response', statusCode: res.statusCode, headers: flatHeaders(res.headers), body, durationMs: elapsed() };
    } catch (err) {
      if (stop.aborted) return { kind: 'aborted' };
      const code = (err as { code?: string }).code;
      if (timeout.aborted || (code && TIMEOUT_CODES.has(code))) return { kind: 'timeout', message: 'timed out', durationMs: elapsed() };
      return { kind: 'connection', message: `failed to connect to host${code ? ` (${code})` : ''}`, durationMs: elapsed() };
    }
  }

  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((a) => a.destroy()));
  }

  private agentFor(address: string, family: 4 | 6, insecureSsl: boolean): Dispatcher {
    const key = `${address}|${insecureSsl ? 1 : 0}`;
    let agent = this.agents.get(key);
    if (agent) {
      // Most recently used last, so the first entry is the one to drop.
      this.agents.delete(key);
      this.agents.set(key, agent);
      return agent;
    }
    agent = new Agent({
      connectTimeout: this.options.timeoutMs,
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
      connect: {
        rejectUnauthorized: !insecureSsl,
        // Whatever the host name, connect to the address the guard checked.
        lookup: ((_host, opts, callback) => {
          if (opts.all) (callback as (err: null, all: LookupAddress[]) => void)(null, [{ address, family }]);
          else callback(null, address, family);
        }) as LookupFunction,
      },
    });
    this.agents.set(key, agent);
    if (this.agents.size > MAX_AGENTS) {
      const [oldestKey, oldest] = this.agents.entries().next().value!;
      this.agents.delete(oldestKey);
      void oldest.close();
    }
    return agent;
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => { signal.removeEventListener('abort', onAbort); resolve(v); },
      (e) => { signal.removeEventListener('abort', onAbort); reject(e); },
    );
  });
}

async function readBounded(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk.subarray(0, max - size));
    size += Math.min(chunk.length, max - size);
    if (size >= max) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
