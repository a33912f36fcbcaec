"use client";

import { useEffect, useRef, useState } from "react";
import { cn } from "@/components/ui/class-names";
import { Spinner } from "@/components/ui/spinner";
import { type PreviewErrorMessage, parsePreviewErrorMessage } from "./preview-messages";

/**
 * The app's own code runs here. No `allow-same-origin`: the document gets an opaque origin, so
 * it can neither read the builder's cookies nor call its API as the signed-in person.
 */
export const previewSandbox = "allow-scripts allow-forms allow-popups allow-modals";

interface Frame {
  id: number;
  src: string;
  loaded: boolean;
}

/**
 * Shows `src` in a sandboxed iframe. A new src (or reload) loads in a second, hidden iframe and
 * replaces the visible one only once it has loaded, so the preview never flashes blank.
 */
export function PreviewFrame({
  src,
  reloadCount,
  title,
  onRuntimeError,
  onFrameLoad,
}: {
  src: string;
  /** Bump to load the same src again. */
  reloadCount: number;
  title: string;
  /** An error the app reported from one of this component's frames, with that frame's load. */
  onRuntimeError?: (error: PreviewErrorMessage, load: { src: string; frameId: number }) => void;
  /** A frame finished loading its document. */
  onFrameLoad?: (load: { src: string; frameId: number }) => void;
}) {
  const [frames, setFrames] = useState<Frame[]>([{ id: 0, src, loaded: false }]);
  const [requested, setRequested] = useState({ src, reloadCount });

  // A changed src or reload adds a frame during render, React's way to follow a prop change.
  if (requested.src !== src || requested.reloadCount !== reloadCount) {
    setRequested({ src, reloadCount });
    setFrames((current) => [
      // Keep only the frame on screen; a still-loading older request is superseded.
      ...current.filter((frame) => frame.loaded).slice(-1),
      { id: (current.at(-1)?.id ?? 0) + 1, src, loaded: false },
    ]);
  }

  // Messages count only when they come from one of our own frames' windows: anything else on
  // the page (another tab's opener, an extension, a frame the app opened) is ignored.
  const frameElements = useRef(new Map<number, HTMLIFrameElement>());
  const framesReference = useRef(frames);
  framesReference.current = frames;
  const onRuntimeErrorReference = useRef(onRuntimeError);
  onRuntimeErrorReference.current = onRuntimeError;
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source === null) return;
      for (const [frameId, element] of frameElements.current) {
        if (element.contentWindow !== event.source) continue;
        const frame = framesReference.current.find((candidate) => candidate.id === frameId);
        const error = parsePreviewErrorMessage(event.data);
        if (frame && error) onRuntimeErrorReference.current?.(error, { src: frame.src, frameId });
        return;
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);

  // Until the first document loads, no frame shows and the placeholder behind them does.
  const visibleId = [...frames].reverse().find((frame) => frame.loaded)?.id;
  const loading = frames.some((frame) => !frame.loaded);

  const onLoad = (id: number) => {
    setFrames((current) =>
      current
        .filter((frame) => frame.id >= id)
        .map((frame) => (frame.id === id ? { ...frame, loaded: true } : frame)),
    );
  };

  return (
    <div className="absolute inset-0" aria-busy={loading}>
      {visibleId === undefined ? (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 text-xs text-zinc-400">
          <Spinner className="size-5" />
          Starting the preview…
        </div>
      ) : null}
      {loading ? (
        <div
          className="absolute inset-x-0 top-0 z-10 h-0.5 overflow-hidden bg-indigo-100"
          data-testid="preview-loading"
        >
          <div className="h-full w-1/3 animate-[preview-progress_1.1s_ease-in-out_infinite] bg-indigo-500" />
        </div>
      ) : null}
      {frames.map((frame) => {
        const visible = frame.id === visibleId;
        return (
          <iframe
            key={frame.id}
            ref={(element) => {
              if (element) frameElements.current.set(frame.id, element);
              else frameElements.current.delete(frame.id);
            }}
            src={frame.src}
            title={title}
            sandbox={previewSandbox}
            // The builder's URL (with the app id) stays out of the app's reach.
            referrerPolicy="no-referrer"
            onLoad={() => {
              onLoad(frame.id);
              onFrameLoad?.({ src: frame.src, frameId: frame.id });
            }}
            aria-hidden={visible ? undefined : true}
            tabIndex={visible ? undefined : -1}
            className={cn(
              "absolute inset-0 size-full border-0 bg-white",
              visible ? "visible" : "pointer-events-none invisible",
            )}
            data-testid={visible ? "preview-frame" : "preview-frame-pending"}
            data-src={frame.src}
          />
        );
      })}
    </div>
  );
}
