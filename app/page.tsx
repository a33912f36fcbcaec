import { Dashboard } from "@/components/dashboard/dashboard";

export default function HomePage() {
  return <Dashboard />;
}
