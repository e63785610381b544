// A cell that is rewritten rather than appended (an Inspect log copied over whole every few samples) is
// followed by its finished units: read again on each change, each unit told once, however often the file
// is rewritten, replaced, or read again after a dropped connection.
import type { FinishedUnit, FormatCapabilities } from '../../runners/types';
import type { HostContext } from '../place/context';

export class FinishedUnits {
  private readonly told = new Set<string>();
  private looking: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly context: HostContext,
    private readonly path: string,
    private readonly capability: NonNullable<FormatCapabilities['finishedUnits']>,
    private readonly onUnit: (unit: FinishedUnit) => void,
  ) {}

  /** Reads the cell again and tells each unit not told before; `quietly`: counts them as told (from the end). */
  look(quietly = false): Promise<void> {
    if (this.looking) {
      this.again = true;
      return this.looking;
    }
    this.looking = (async () => {
      do {
        this.again = false;
        for (const unit of await this.capability.read(this.path, this.context.read())) {
          if (this.told.has(unit.unit)) continue;
          this.told.add(unit.unit);
          if (!quietly) this.onUnit(unit);
        }
      } while (this.again);
    })().finally(() => (this.looking = null));
    return this.looking;
  }
}
