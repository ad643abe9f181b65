import { describe, expect, it } from 'vitest';
import { TimeSlice } from '../src/yield';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('TimeSlice', () => {
  // As when a node folds the logs of many tables at once: the event loop must come round between
  // slices of all of them together, not once every loop has had a slice of its own.
  it('shares one budget per turn of the event loop among all the loops running in slices', async () => {
    const loops = 30;
    const stepMs = 1;
    let steps = 0;
    let stepsSinceTick = 0;
    let most = 0;
    let done = false;
    // A timer that re-arms itself: each run is a turn of the event loop that reached its timers.
    const tick = () => {
      most = Math.max(most, stepsSinceTick);
      stepsSinceTick = 0;
      if (!done) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    await Promise.all(
      Array.from({ length: loops }, async () => {
        const slice = new TimeSlice(10);
        for (let i = 0; i < 20; i++) {
          busy(stepMs);
          steps++;
          stepsSinceTick++;
          await slice.check();
        }
      }),
    );
    done = true;
    expect(steps).toBe(loops * 20);
    // A budget of 10 ms is about 10 steps, and one step more for each other loop: about 40 in all.
    // With a budget for each loop it was about 10 steps of every loop, some 300.
    expect(most).toBeLessThan(150);
  });

  it('never yields with an unbounded budget', async () => {
    const slice = new TimeSlice(Infinity);
    let ticked = false;
    setImmediate(() => (ticked = true));
    for (let i = 0; i < 20; i++) {
      busy(1);
      await slice.check();
    }
    expect(ticked).toBe(false);
  });
});
