// The sandbox's webhook delivery beside its engine and state file: fed the engine's events after every change and
// tick, kept beside the state (`FILE.webhooks`) so a restart, after a kill -9 too, sends what was not acknowledged.
import type { SandboxClock } from '../clock.js';
import type { WebhookEvent } from '../../../model/webhooks.js';
import { StateFileError, type StateStore } from '../store.js';
import { type EndpointSetting, WebhookDelivery } from './delivery.js';

/** Real ms between two writes of the deliveries at least; and at least this many times as long as the last write
 *  took, so that writing a large backlog (tens of MB at 50,000 an endpoint) takes a tenth of the time at most. */
const SAVE_PAUSE_MS = 100;
const SAVE_PAUSE_PER_WRITE = 9;

export class KeptWebhooks {
  readonly delivery: WebhookDelivery;
  private writing: Promise<void> | undefined;
  private pause: NodeJS.Timeout | undefined;
  private again = false;
  /** Set when the sandbox did not start after all: its own refusal is the one line said. */
  private abandoned = false;

  /** What the state file kept, then the endpoints asked for in place of those the last start asked for; the events
   *  a replayed journal made again are offered to the endpoints kept (those already settled are not sent again). */
  constructor(
    /** The engine's events since last asked, and how many it made (the engine may be replaced: `restore()`). */
    private readonly takeEvents: () => WebhookEvent[],
    eventsMade: () => number,
    clock: SandboxClock,
    private readonly store: StateStore | undefined,
    settings: readonly EndpointSetting[],
    /** Real time (ms), by which the deliveries give way to a busy API. */
    elapsedMs?: () => number,
  ) {
    const made = () => {
      this.drain();
      return eventsMade();
    };
    this.delivery = new WebhookDelivery(clock, store !== undefined, elapsedMs, made);
    const kept = store?.loadWebhooks();
    if (store && kept !== undefined) {
      try {
        this.delivery.restore(kept);
      } catch (error) {
        throw new StateFileError(store.path, 'content', `${store.path}.webhooks: ${(error as Error).message}`, { cause: error });
      }
    }
    this.delivery.replaceStartEndpoints(settings);
    this.drain();
    if (store) this.delivery.onChange = () => this.saveSoon();
  }

  /** Offers the events the engine made since last asked, and sends what is due (retries on the sandbox's clock). */
  drain(): void {
    this.delivery.offer(this.takeEvents());
    this.delivery.schedule();
  }

  /** The engine's state was folded into a new snapshot (asked for just before): what its journal made is settled
   *  there, so it is forgotten here, written after the snapshot. */
  readonly onFold = (): void => {
    this.drain();
    this.write(true);
  };

  /**
   * The sandbox did not start (its state file could not be written): sends nothing, writes nothing more, and says
   * nothing of a write already asked for, which fails as the state's own write did.
   */
  abandon(): void {
    this.abandoned = true;
    this.delivery.stop();
    clearTimeout(this.pause);
  }

  /** Sends nothing more, and writes what is still waiting, the deliveries cut short included. How many were. */
  async close(): Promise<number> {
    const cutShort = this.delivery.stop();
    clearTimeout(this.pause);
    await this.writing;
    if (this.store) await this.store.saveWebhooks(this.delivery.snapshot()).catch(this.reportSaveFailure);
    return cutShort;
  }

  // One write at a time, and a pause after each: a large backlog is not rewritten on every answer. What a kill -9
  // loses meanwhile is only sent again under its same id (the journal makes its events again).
  private saveSoon(): void {
    if (this.writing || this.pause) this.again = true;
    else this.write(false);
  }

  private readonly reportSaveFailure = (error: unknown): void => {
    if (!this.abandoned) console.error(`mq sandbox: cannot write the webhook deliveries beside the state file: ${(error as Error).message}`);
  };

  private write(fold: boolean): void {
    if (!this.store) return;
    const started = performance.now();
    const written = this.store.saveWebhooks(this.delivery.snapshot(fold)).catch(this.reportSaveFailure);
    this.writing = written.finally(() => {
      this.writing = undefined;
      // Abandoned meanwhile: no pause, whose timer would keep alive a process whose sandbox never started.
      if (this.abandoned) return;
      const pause = Math.max(SAVE_PAUSE_MS, SAVE_PAUSE_PER_WRITE * (performance.now() - started));
      this.pause = setTimeout(() => {
        this.pause = undefined;
        if (this.again) {
          this.again = false;
          this.write(false);
        }
      }, pause);
    });
  }
}
