import { ShimmerText } from "./shimmer-text";

/** The shimmering "Thinking…" shown while the agent works and nothing new has arrived yet. */
export function ThinkingIndicator({ label = "Thinking…" }: { label?: string }) {
  return (
    <p className="py-1 text-[13px]" data-testid="agent-thinking" role="status">
      <ShimmerText>{label}</ShimmerText>
    </p>
  );
}
