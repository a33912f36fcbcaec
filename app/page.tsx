import { Dashboard } from "@/components/dashboard/dashboard";

export const dynamic = "force-dynamic";

export default function HomePage() {
  // Read per request: whether sign-in is required is the server's setting, not the bundle's.
  return <Dashboard authEnabled={Boolean(process.env.PATCHWORK_AUTH_TOKEN)} />;
}
