// Preloaded into each test file's process by scripts/test.mjs when recording
// durations: appends "file<TAB>seconds" to the file WHARF_TEST_DURATIONS_LOG names
// when the process exits (wall time from the start of the process).
import fs from 'node:fs';
import path from 'node:path';

const log = process.env.WHARF_TEST_DURATIONS_LOG;
const file = process.argv[1];
if (log && /\.test\.(ts|mjs)$/.test(file ?? '')) {
  process.on('exit', () => {
    const seconds = Math.round(performance.now() / 100) / 10;
    fs.appendFileSync(log, `${path.relative(process.cwd(), file)}\t${seconds}\n`);
  });
}
