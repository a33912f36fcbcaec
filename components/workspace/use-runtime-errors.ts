"use client";

import { useCallback, useState } from "react";
import { request } from "@/components/api-client";
import type { PreviewErrorMessage } from "./preview-messages";

export interface AppLocation {
  file: string;
  line: number;
  column: number;
}

/** One error a preview load reported, placed in the app's files once the server has mapped it. */
export interface RuntimeError {
  kind: PreviewErrorMessage["kind"];
  message: string;
  /** Undefined while it is being mapped; null when no frame is in the app's own files. */
  location: AppLocation | null | undefined;
}

interface LoadErrors {
  src: string;
  frameId: number;
  errors: RuntimeError[];
}

/**
 * The runtime errors of the preview's latest load of each document. A reload or a new revision
 * starts a new load and so a clean slate; stack frames are mapped to files by the server, which
 * keeps the revision's source map.
 */
export function useRuntimeErrors(appId: string) {
  const [loads, setLoads] = useState<LoadErrors[]>([]);

  const report = useCallback(
    (error: PreviewErrorMessage, load: { src: string; frameId: number }) => {
      const entry: RuntimeError = { kind: error.kind, message: error.message, location: undefined };
      setLoads((current) => {
        const others = current.filter((item) => item.src !== load.src);
        const previous = current.find((item) => item.src === load.src);
        // A newer load of the same document replaces the older one's errors.
        if (previous && previous.frameId > load.frameId) return current;
        const errors = previous && previous.frameId === load.frameId ? previous.errors : [];
        return [...others.slice(-4), { ...load, errors: [...errors, entry] }];
      });
      const revision = new URL(load.src, window.location.origin).searchParams.get("revision");
      const place = (location: AppLocation | null) =>
        setLoads((current) =>
          current.map((item) =>
            item.frameId === load.frameId
              ? {
                  ...item,
                  errors: item.errors.map((candidate) =>
                    candidate === entry ? { ...candidate, location } : candidate,
                  ),
                }
              : item,
          ),
        );
      if (!revision || error.frames.length === 0) return place(null);
      const query = new URLSearchParams({ revision });
      for (const frame of error.frames) query.append("frame", `${frame.line}:${frame.column}`);
      request<{ location: AppLocation | null }>(
        "GET",
        `/api/apps/${encodeURIComponent(appId)}/preview/locate?${query}`,
      ).then(
        (answer) => place(answer.location),
        () => place(null),
      );
    },
    [appId],
  );

  /** A load finished: errors of earlier loads of the same document no longer apply. */
  const loaded = useCallback((load: { src: string; frameId: number }) => {
    setLoads((current) =>
      current.filter((item) => !(item.src === load.src && item.frameId < load.frameId)),
    );
  }, []);

  const errorsFor = (src: string): RuntimeError[] =>
    loads.find((item) => item.src === src)?.errors ?? [];

  return { report, loaded, errorsFor };
}
