/** Lets the event loop serve other work (I/O, timers) before the caller goes on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * When the current slice began, shared by every TimeSlice (null: none yet in this turn of the event
 * loop). A node taking on the tables of one that went away folds hundreds of logs at once: with a
 * budget of its own each, they would together hold the event loop for hundreds of budgets before
 * it reads a socket again (WebSocket upgrades, hellos and database answers waiting meanwhile).
 */
let sliceStart: number | null = null;

function currentSliceStart(): number {
  if (sliceStart === null) {
    sliceStart = performance.now();
    // The slice ends with this turn of the event loop: queued before any loop that yields in it,
    // this runs first when they resume, so the first of them starts the next slice.
    setImmediate(() => {
      sliceStart = null;
    });
  }
  return sliceStart;
}

/**
 * For a long loop: `await slice.check()` after each step yields to the event loop once the sliced
 * work of this turn of the event loop, all loops together, has run for `budgetMs`; so sliced loops
 * hold the event loop for about that long per turn, plus one step of each other loop waiting.
 */
export class TimeSlice {
  constructor(private readonly budgetMs = 10) {}

  async check(): Promise<void> {
    if (performance.now() - currentSliceStart() < this.budgetMs) return;
    await yieldToEventLoop();
  }
}
