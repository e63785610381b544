// Loaded with --import into a process being measured: reports its peak resident set size on exit.
import { writeSync } from 'node:fs';
import { peakKb } from './peak-rss.mjs';

process.on('exit', () => writeSync(2, `\nPEAK_RSS_KB=${peakKb()}\n`));
