// A tiny DNS server over UDP on 127.0.0.1 for tests of what Wharf does with a name's
// answers (WHARF_WEBHOOK_DNS_SERVERS points Wharf's outbound resolver at it). It reads a
// query's first question and answers from `answer(name, type)`: A and AAAA records with
// a TTL of 0, NOERROR with no records for an empty list, NXDOMAIN for null. Every
// question is recorded, so a test can count how often a name was resolved.
import dgram from 'node:dgram';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type RecordType = 'A' | 'AAAA' | 'other';
export interface Question { name: string; type: RecordType }
export type Answerer = (name: string, type: RecordType) => string[] | null;

const TYPES: Record<number, RecordType> = { 1: 'A', 28: 'AAAA' };

export class DnsResponder {
  readonly questions: Question[] = [];
  private socket: dgram.Socket | null = null;
  port = 0;

  constructor(private readonly answer: Answerer) {}

  /** "127.0.0.1:port", as WHARF_WEBHOOK_DNS_SERVERS takes it. */
  get server(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (msg, rinfo) => {
      const reply = this.reply(msg);
      if (reply) socket.send(reply, rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    this.port = (socket.address() as AddressInfo).port;
    this.socket = socket;
  }

  async stop(): Promise<void> {
    const s = this.socket;
    this.socket = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** Questions about `name` of `type` so far. */
  asked(name: string, type: RecordType): number {
    const n = name.toLowerCase();
    return this.questions.filter((q) => q.name === n && q.type === type).length;
  }

  private reply(msg: Buffer): Buffer | null {
    if (msg.length < 12 || msg.readUInt16BE(4) < 1) return null;
    // The question: labels, then type and class.
    const labels: string[] = [];
    let at = 12;
    while (at < msg.length && msg[at] !== 0) {
      const len = msg[at]!;
      if (len > 63 || at + 1 + len > msg.length) return null;
      labels.push(msg.subarray(at + 1, at + 1 + len).toString('latin1'));
      at += 1 + len;
    }
    at += 1;
    if (at + 4 > msg.length) return null;
    const type = TYPES[msg.readUInt16BE(at)] ?? 'other';
    const question = msg.subarray(12, at + 4);
    const name = labels.join('.').toLowerCase();
    this.questions.push({ name, type });

    const addresses = this.answer(name, type);
    const records = (addresses ?? []).filter((a) => (type === 'A' ? net.isIPv4(a) : type === 'AAAA' ? net.isIPv6(a) : false));
    const header = Buffer.alloc(12);
    header.writeUInt16BE(msg.readUInt16BE(0), 0);
    // QR, the query's RD, RA; rcode 3 (NXDOMAIN) for an unknown name.
    header.writeUInt16BE(0x8000 | (msg.readUInt16BE(2) & 0x0100) | 0x0080 | (addresses === null ? 3 : 0), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(records.length, 6);
    const answers = records.map((a) => {
      const rdata = type === 'A' ? Buffer.from(a.split('.').map(Number)) : ipv6Bytes(a);
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      rr.writeUInt16BE(type === 'A' ? 1 : 28, 2);
      rr.writeUInt16BE(1, 4); // class IN
      rr.writeUInt32BE(0, 6); // TTL 0: nothing may keep it
      rr.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([rr, rdata]);
    });
    return Buffer.concat([header, question, ...answers]);
  }
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const parts = (s: string | undefined) => (s ? s.split(':') : []);
  const groups = tail === undefined ? parts(head) : [...parts(head), ...Array(8 - parts(head).length - parts(tail).length).fill('0'), ...parts(tail)];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}
