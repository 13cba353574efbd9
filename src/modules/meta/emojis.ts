// The emoji names Wharf knows (npm gemoji, the list upstream's names come from): each
// name and alias of every emoji, and the emoji itself.
import { gemoji } from 'gemoji';

const byName: ReadonlyMap<string, string> = new Map(gemoji.flatMap((g) => g.names.map((name) => [name, g.emoji] as const)));

/** Every emoji name, sorted as upstream's map is. */
export function emojiNames(): string[] {
  return [...byName.keys()].sort();
}

export function emojiOf(name: string): string | null {
  return byName.get(name) ?? null;
}
