/**
 * Runs `act` once things have been quiet for `quietMs`, and at least every `maxMs` while they never are:
 * how a growing log's reader is read again over SSH without a read per line.
 */
export class QuietTimer {
  private timer: NodeJS.Timeout | undefined;
  private since: number | null = null;

  constructor(
    private readonly act: () => void,
    private readonly quietMs = 2000,
    private readonly maxMs = 30_000,
  ) {}

  poke(): void {
    const now = Date.now();
    this.since ??= now;
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.quietMs, this.since + this.maxMs - now));
    this.timer = setTimeout(() => this.fire(), wait);
  }

  private fire(): void {
    this.since = null;
    this.timer = undefined;
    this.act();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.since = null;
  }
}
