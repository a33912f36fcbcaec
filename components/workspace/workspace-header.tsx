"use client";

import { ArrowLeft, Code2, Columns2, History, MessageSquare, Monitor } from "lucide-react";
import Link from "next/link";
import type { App } from "@/components/api-types";
import { BrandMark } from "@/components/brand-mark";
import { HeaderActions } from "@/components/header-actions";
import { Button } from "@/components/ui/button";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { PublishControl } from "./publish-control";

export type WorkspaceLayout = "code" | "split" | "preview";

/** On narrow screens one pane at a time: the agent, the preview, or the files and code. */
export type CompactTab = "agent" | "preview" | "code";

/** The workspace's top bar: back to apps, the app's name, the layout, History and Publish. */
export function WorkspaceHeader({
  app,
  layout,
  onLayoutChange,
  onOpenHistory,
  compactTab,
  onCompactTabChange,
}: {
  app: App;
  layout: WorkspaceLayout;
  onLayoutChange: (layout: WorkspaceLayout) => void;
  onOpenHistory: () => void;
  /** Set on narrow screens, where tabs replace the side-by-side layout. */
  compactTab: CompactTab | null;
  onCompactTabChange: (tab: CompactTab) => void;
}) {
  return (
    <header className="flex h-12 shrink-0 items-center gap-3 border-b border-zinc-200 bg-white px-3">
      <BrandMark compact />
      <Link
        href="/"
        className="flex h-7 items-center gap-1 rounded-md px-1.5 text-xs text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900"
        data-testid="back-to-apps"
      >
        <ArrowLeft className="size-3.5" aria-hidden="true" />
        Apps
      </Link>
      <span className="text-zinc-300" aria-hidden="true">
        /
      </span>
      <h1 className="min-w-0 truncate text-sm font-semibold text-zinc-900" data-testid="app-name">
        {app.name}
      </h1>

      {compactTab ? (
        <div className="mx-auto">
          <SegmentedControl<CompactTab>
            label="Show"
            value={compactTab}
            onChange={onCompactTabChange}
            options={[
              {
                value: "agent",
                label: (
                  <>
                    <MessageSquare />
                    Agent
                  </>
                ),
                testId: "tab-agent",
              },
              {
                value: "preview",
                label: (
                  <>
                    <Monitor />
                    Preview
                  </>
                ),
                testId: "tab-preview",
              },
              {
                value: "code",
                label: (
                  <>
                    <Code2 />
                    Code
                  </>
                ),
                testId: "tab-code",
              },
            ]}
          />
        </div>
      ) : (
        <div className="mx-auto hidden md:block">
          <SegmentedControl<WorkspaceLayout>
            label="Layout"
            value={layout}
            onChange={onLayoutChange}
            options={[
              {
                value: "code",
                label: <Code2 />,
                accessibleLabel: "Code only",
                testId: "layout-code",
              },
              {
                value: "split",
                label: <Columns2 />,
                accessibleLabel: "Code and preview",
                testId: "layout-split",
              },
              {
                value: "preview",
                label: <Monitor />,
                accessibleLabel: "Preview only",
                testId: "layout-preview",
              },
            ]}
          />
        </div>
      )}

      <div className="ml-auto flex items-center gap-2 md:ml-0">
        <HeaderActions compact />
        <Button size="md" className="h-8" onClick={onOpenHistory} data-testid="history-button">
          <History />
          History
        </Button>
        <PublishControl app={app} />
      </div>
    </header>
  );
}
