// Default avatars: a symmetric 5x5 identicon derived from the account id, so every
// avatar_url resolves on a server with no outside network.
import { createHash } from 'node:crypto';

export function identiconSvg(id: number): string {
  const h = createHash('md5').update(`wharf:${id}`).digest();
  const hue = Math.round((h[15]! / 255) * 360);
  const color = `hsl(${hue},55%,50%)`;
  const cells: string[] = [];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 3; col++) {
      if (((h[row * 3 + col]! >> 1) & 1) === 0) continue;
      for (const x of new Set([col, 4 - col])) {
        cells.push(`<rect x="${x * 70 + 35}" y="${row * 70 + 35}" width="70" height="70"/>`);
      }
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="420" viewBox="0 0 420 420">`
    + `<rect width="420" height="420" fill="#f0f0f0"/><g fill="${color}">${cells.join('')}</g></svg>`;
}
