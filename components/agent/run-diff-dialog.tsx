"use client";

import { useQuery } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { errorMessage } from "@/components/api-client";
import { DiffView } from "@/components/diff/diff-view";
import { diffQuery } from "@/components/queries";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";

export interface RunDiffTarget {
  revisionId: string;
  parentRevisionId: string | null;
  /** Scrolled into view once the diff renders. */
  focusPath?: string;
  title: string;
}

/** What one run changed: the shared per-file diff view, between its revision and the parent. */
export function RunDiffDialog({
  appId,
  target,
  onClose,
}: {
  appId: string;
  target: RunDiffTarget | null;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog
      open={target !== null}
      onClose={onClose}
      labelledBy={titleId}
      className="h-[min(48rem,90dvh)] max-h-none w-[min(60rem,calc(100vw-2rem))]"
      data-testid="agent-diff-dialog"
    >
      {target ? (
        <RunDiffContent appId={appId} target={target} titleId={titleId} onClose={onClose} />
      ) : null}
    </Dialog>
  );
}

function RunDiffContent({
  appId,
  target,
  titleId,
  onClose,
}: {
  appId: string;
  target: RunDiffTarget;
  titleId: string;
  onClose: () => void;
}) {
  const diff = useQuery(diffQuery(appId, target.revisionId, target.parentRevisionId));
  const bodyReference = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!diff.data || !target.focusPath) return;
    const file = [...(bodyReference.current?.querySelectorAll("[data-path]") ?? [])].find(
      (element) => element.getAttribute("data-path") === target.focusPath,
    );
    file?.scrollIntoView({ block: "start" });
  }, [diff.data, target.focusPath]);

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex h-12 shrink-0 items-center gap-3 border-b border-zinc-200 pr-2 pl-5">
        <h2 id={titleId} className="min-w-0 flex-1 truncate text-sm font-semibold">
          {target.title}
        </h2>
        <Button variant="ghost" size="icon" aria-label="Close" onClick={onClose}>
          <X />
        </Button>
      </div>
      <div ref={bodyReference} className="min-h-0 flex-1 overflow-y-auto p-4">
        {diff.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner label="Loading the diff" className="size-5" />
          </div>
        ) : diff.isError ? (
          <p role="alert" className="text-sm text-rose-600">
            {errorMessage(diff.error)}
          </p>
        ) : (
          <DiffView diff={diff.data} />
        )}
      </div>
    </div>
  );
}
