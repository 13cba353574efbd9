// Wharf's own design principles, one of which GET /zen answers at random. Upstream
// answers with its own aphorisms; these are ours, each short enough for one line of
// the mascot's speech bubble.
export const PRINCIPLES: readonly string[] = [
  'Real git underneath, or nothing at all.',
  'Your clients should not notice the move.',
  'Errors say what went wrong, in the body.',
  'Small files are easier to trust.',
  'Thin handlers; services carry the cargo.',
  'Blank is null, never missing.',
  'Every link comes from one builder.',
  'An acknowledged write survives a crash.',
  'No crash loses what the outbox holds.',
  'A secret is shown once, then forgotten.',
  'Both databases, every time.',
  'A test that cannot fail proves nothing.',
  'Time is passed in, never waited for.',
  'Comments say why; the code says what.',
  'Your code, your harbour.',
];
