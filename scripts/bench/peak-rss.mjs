// This process's peak resident set size in kB. On Linux from /proc (VmHWM, this process's own): getrusage's
// maxRSS is inherited across fork, so a child of a bench that holds a large file in memory would report the
// bench's peak, not its own.
import { readFileSync } from 'node:fs';

export function peakKb() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // No /proc here: the rusage figure, with its caveat.
  }
  return process.resourceUsage().maxRSS;
}
