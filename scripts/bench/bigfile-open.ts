// Child of bench:bigfile: opens the big cell the way the window does and reports what it took.
import { join } from 'node:path';
import { createCore } from '../../main/core';

const [root, configDir] = process.argv.slice(2) as [string, string];
const started = performance.now();
const core = await createCore({ configDir, transport: 'serve', commandLineRoots: [root], rescan: false, nvidiaSmi: false });
const [cell] = await core.listCells();
if (!cell) throw new Error(`no cell in ${root}`);
await core.openCell(cell.id);
const opened = await core.openStream(cell.id, '0');
const firstEvents = performance.now() - started;
await core.close();
console.log(JSON.stringify({ firstEventsMs: firstEvents, events: opened.events.length, lastSeq: opened.events.at(-1)?.seq, peakRssMb: process.resourceUsage().maxRSS / 1024, cell: join(cell.path) }));
