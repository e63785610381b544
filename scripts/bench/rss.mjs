// Loaded with --import into a process being measured: reports its peak resident set size on exit. On Linux
// from /proc (VmHWM, this process's own): getrusage's maxRSS is inherited across fork, so a child of a bench
// that holds a large log in memory would report the bench's peak, not its own.
import { readFileSync, writeSync } from 'node:fs';

function peakKb() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // No /proc here: the rusage figure, with its caveat.
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => writeSync(2, `\nPEAK_RSS_KB=${peakKb()}\n`));
