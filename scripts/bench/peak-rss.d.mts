/** This process's peak resident set size in kB (VmHWM on Linux; getrusage elsewhere). */
export function peakKb(): number;
