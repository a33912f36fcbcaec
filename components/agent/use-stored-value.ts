"use client";

import { useCallback, useSyncExternalStore } from "react";

const sameTabChange = "patchwork:stored-value-change";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  window.addEventListener(sameTabChange, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(sameTabChange, onChange);
  };
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be off (private modes, policies): behave as if nothing was remembered.
    return null;
  }
}

/**
 * A string remembered in localStorage, shared by every component (and tab) that reads the same
 * key; null when unset, and always null during server rendering.
 */
export function useStoredValue(key: string): [string | null, (value: string | null) => void] {
  const value = useSyncExternalStore(
    subscribe,
    () => read(key),
    () => null,
  );
  const setValue = useCallback(
    (next: string | null) => {
      try {
        if (next === null) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, next);
      } catch {
        // Not remembered across reloads, which is all that is lost.
      }
      window.dispatchEvent(new Event(sameTabChange));
    },
    [key],
  );
  return [value, setValue];
}
