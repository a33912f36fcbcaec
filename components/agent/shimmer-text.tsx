import type { ReactNode } from "react";
import { cn } from "@/components/ui/class-names";
import styles from "./shimmer-text.module.css";

/** Text with a light sweeping across it: the sign that something is still under way. */
export function ShimmerText({
  children,
  active = true,
  className,
}: {
  children: ReactNode;
  active?: boolean;
  className?: string;
}) {
  return <span className={cn(active && styles.shimmer, className)}>{children}</span>;
}
