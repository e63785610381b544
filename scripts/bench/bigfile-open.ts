// Child of bench:bigfile: opens the big cell the way the window does and reports what it took.
import { peakKb } from './peak-rss.mjs';
import { join } from 'node:path';
import { createCore } from '../../main/core';

const [root, configDir] = process.argv.slice(2) as [string, string];
const started = performance.now();
const core = await createCore({ configDir, transport: 'serve', commandLineRoots: [root], rescan: false, nvidiaSmi: false });
// The cell is listed as soon as its row is read: the rest of the first scan goes on behind.
let [cell] = await core.listCells();
while (!cell) {
  await new Promise((r) => setTimeout(r, 5));
  [cell] = await core.listCells();
}
await core.openCell(cell.id);
const opened = await core.openStream(cell.id, '0');
const firstEvents = performance.now() - started;
await core.close();
console.log(JSON.stringify({ firstEventsMs: firstEvents, events: opened.events.length, lastSeq: opened.events.at(-1)?.seq, peakRssMb: peakKb() / 1024, cell: join(cell.path) }));
