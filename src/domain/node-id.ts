// Global node ids, in upstream's legacy form: base64("0" + len(type) + ":" + type + id),
// e.g. "MDQ6VXNlcjE=" for User 1. REST node_id and GraphQL Node.id are the same string.
export function encodeNodeId(type: string, id: number | string): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}

export function decodeNodeId(nodeId: string): { type: string; id: string } | null {
  const text = Buffer.from(nodeId, 'base64').toString('utf8');
  const m = /^0(\d+):/.exec(text);
  if (!m) return null;
  const len = Number(m[1]);
  const rest = text.slice(m[0].length);
  const type = rest.slice(0, len);
  const id = rest.slice(len);
  if (type.length !== len || id === '') return null;
  return { type, id };
}
