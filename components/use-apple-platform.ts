"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** True on macOS and iOS, where shortcuts read ⌘ rather than Ctrl. False during server render. */
export function useApplePlatform(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => /Mac|iPhone|iPad/.test(navigator.userAgent),
    () => false,
  );
}
