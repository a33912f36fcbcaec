import type { Metadata } from "next";
import { Workspace } from "@/components/workspace/workspace";

export const metadata: Metadata = { title: "Workspace" };

export default async function WorkspacePage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  return <Workspace appId={appId} />;
}
