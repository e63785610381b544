// Loaded with --import into a process being measured: reports its peak resident set size on exit.
import { writeSync } from 'node:fs';

process.on('exit', () => writeSync(2, `\nPEAK_RSS_KB=${process.resourceUsage().maxRSS}\n`));
