/** How long a reactor's checkpoint may trail the events it has handled. */
export const CHECKPOINT_EVERY_MS = 100;

/** A position saved at most every CHECKPOINT_EVERY_MS, and whenever asked to. */
export class TrailingCheckpoint {
  private saved: number;
  private timer?: NodeJS.Timeout;

  constructor(
    public position: number,
    private readonly write: (position: number) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {
    this.saved = position;
  }

  reached(position: number): void {
    this.position = position;
    this.timer ??= setTimeout(() => void this.save().catch(this.onError), CHECKPOINT_EVERY_MS);
  }

  async save(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const position = this.position;
    if (position <= this.saved) return;
    await this.write(position);
    this.saved = Math.max(this.saved, position);
  }
}
