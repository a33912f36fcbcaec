import { Sparkles } from "lucide-react";

const examples = [
  "Make the hero section dark and add a signup button",
  "Add a pricing section with three plans",
  "Explain how this app is structured",
];

/** The first thing in a new conversation: what the agent can do, and a few ways to start. */
export function EmptyConversation({ onPick }: { onPick: (prompt: string) => void }) {
  return (
    <div className="px-1 pt-6 pb-2" data-testid="agent-empty">
      <Sparkles className="size-5 text-zinc-300" aria-hidden="true" />
      <h2 className="mt-3 text-sm font-semibold text-zinc-900">What should we build?</h2>
      <p className="mt-1 text-sm leading-relaxed text-zinc-500">
        The agent reads and edits this app’s files. Every run is saved as a checkpoint, so you can
        always go back.
      </p>
      <ul className="mt-4 space-y-1">
        {examples.map((example) => (
          <li key={example}>
            <button
              type="button"
              onClick={() => onPick(example)}
              className="w-full cursor-pointer rounded-md px-2 py-1.5 text-left text-[13px] text-zinc-600 transition-colors hover:bg-zinc-100 hover:text-zinc-900"
            >
              {example}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
