import { describe, expect, it } from "vitest";
import { InactivityWatchdog } from "./inactivity-watchdog";

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe("InactivityWatchdog", () => {
  it("fires once after silence, not while touched, and not while paused", async () => {
    let fired = 0;
    const watchdog = new InactivityWatchdog(80, () => {
      fired += 1;
    });
    for (let step = 0; step < 4; step += 1) {
      await sleep(40);
      watchdog.touch();
    }
    expect(fired).toBe(0);
    watchdog.pause();
    await sleep(160);
    expect(fired).toBe(0);
    watchdog.resume();
    await sleep(200);
    expect(fired).toBe(1);
    watchdog.touch();
    await sleep(120);
    expect(fired).toBe(1);
    watchdog.dispose();
  });
});
