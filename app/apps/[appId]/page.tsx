import type { Metadata } from "next";
import { Workspace } from "@/components/workspace/workspace";
import { getDatabase } from "@/db/client";
import { uuidSchema } from "@/lib/api/schemas";
import { PatchworkError } from "@/lib/errors";
import { getApp } from "@/lib/workspace";

type Params = Promise<{ appId: string }>;

/** The tab shows the app's name; the workspace itself loads everything in the browser. */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { appId } = await params;
  if (!uuidSchema.safeParse(appId).success) return { title: "App not found" };
  try {
    const app = await getApp(await getDatabase(), { appId });
    return { title: app.name };
  } catch (error) {
    if (PatchworkError.isInstance(error) && error.code === "NOT_FOUND")
      return { title: "App not found" };
    throw error;
  }
}

export default async function WorkspacePage({ params }: { params: Params }) {
  const { appId } = await params;
  return <Workspace appId={appId} />;
}
