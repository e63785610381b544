import { problem, type Problem } from '../../shared/model';
import { runDemo } from '../../runners/demo';

/** The built-in demo writing its runs live into `root`, until stopped; a failure becomes a problem of the app. */
export class LiveDemo {
  private readonly abort = new AbortController();
  private failure: Problem | undefined;
  private readonly running: Promise<unknown>;

  constructor(root: string) {
    this.running = runDemo(root, { speed: 1, instant: false, signal: this.abort.signal }).catch((error: unknown) => {
      this.failure = problem(root, `the demo stopped: ${(error as Error).message}`);
    });
  }

  problem(): Problem | undefined {
    return this.failure;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }
}
