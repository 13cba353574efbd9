// Ref changes in this process's repositories, counted. Answers kept above git (the
// REST answer cache, src/http/answer-cache.ts) are valid only while no ref moved since
// they were built; the database cannot tell, since a push moves refs before it is
// recorded. Every way refs change here goes through one of: Wharf's own ref writes
// (repository.ts, copy.ts) and pushes (git-http.push.ts, which HTTP, SSH and imports
// share). While any of them is under way, nothing may be kept or answered from memory:
// a ref may have moved already without the write having ended.
let generation = 0;
let inFlight = 0;

/** Marks a ref write begun; call the returned function once it has ended (twice is harmless). */
export function beginRefWrite(): () => void {
  inFlight++;
  generation++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    inFlight--;
    generation++;
  };
}

export async function writingRefs<T>(write: () => Promise<T>): Promise<T> {
  const end = beginRefWrite();
  try {
    return await write();
  } finally {
    end();
  }
}

/** A number that changes with every ref write; null while one is under way. */
export function refsGeneration(): number | null {
  return inFlight > 0 ? null : generation;
}
