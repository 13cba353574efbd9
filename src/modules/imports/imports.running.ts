// The imports this process is running, so that a move of the user (cancel, restart,
// new credentials, a new mapping) stops the tools of the old one at once rather than
// at the worker's next check. Other processes notice by their check of the generation.
const running = new Map<number, AbortController>();

export function track(repositoryId: number, controller: AbortController): () => void {
  running.set(repositoryId, controller);
  return () => {
    if (running.get(repositoryId) === controller) running.delete(repositoryId);
  };
}

export function interrupt(repositoryId: number): void {
  running.get(repositoryId)?.abort(new Error('superseded'));
}

export function runningIds(): number[] {
  return [...running.keys()];
}
