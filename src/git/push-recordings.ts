// Pushes acknowledged but not yet recorded, in this process. A push is answered once git
// has exited (it is journaled before git runs, so one whose process dies before its
// recording is recorded at the next start), and recorded after: its events, pushed_at,
// size, the default branch of a repository's first push. Until then, whoever could tell
// waits here for it: the pusher's next requests (the API shows the push to the one who
// made it as soon as git returns), git sessions on the repository (a clone after a first
// push gets the default branch it set), and the server's close.
interface Pending {
  /** The server that runs the recording (its bus: one per server, several in one test process). */
  server: object;
  repoId: number;
  userId: number | null;
  done: Promise<void>;
}

const pending = new Set<Pending>();

/** Tracks a recording under way until `done` settles (it must never reject). */
export function trackRecording(server: object, repoId: number, userId: number | null, done: Promise<void>): void {
  const entry: Pending = { server, repoId, userId, done };
  pending.add(entry);
  void done.finally(() => pending.delete(entry));
}

async function settled(which: (p: Pending) => boolean): Promise<void> {
  // A recording started while waiting is waited for too.
  for (;;) {
    const waiting = [...pending].filter(which).map((p) => p.done);
    if (waiting.length === 0) return;
    await Promise.all(waiting);
  }
}

/** Whether any push is awaiting its recording (the check on every request: no promise when none). */
export function anyPushUnrecorded(): boolean {
  return pending.size > 0;
}

/** Resolves once the pushes `userId` made are recorded (at once when none is pending). */
export function pushesRecordedFor(userId: number): Promise<void> {
  return settled((p) => p.userId === userId);
}

/** Resolves once the pushes to the repository are recorded. */
export function pushesRecordedIn(repoId: number): Promise<void> {
  return settled((p) => p.repoId === repoId);
}

/** Resolves once the pushes recorded by `server` are (its close waits for them). */
export function pushesRecordedBy(server: object): Promise<void> {
  return settled((p) => p.server === server);
}

/** Resolves once every push acknowledged in this process is recorded (tests reading the database). */
export function allPushesRecorded(): Promise<void> {
  return settled(() => true);
}
