"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { type Ref, useState } from "react";
import { apiClient, errorMessage } from "@/components/api-client";
import { queryKeys } from "@/components/queries";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";

/** Names a new app, creates it from the starter and opens its workspace. */
export function CreateAppForm({ inputRef }: { inputRef?: Ref<HTMLInputElement> }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const createApp = useMutation({
    mutationFn: apiClient.createApp,
    onSuccess: ({ app }) => {
      queryClient.setQueryData(queryKeys.app(app.id), app);
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps() });
      router.push(`/apps/${app.id}`);
    },
  });
  const pending = createApp.isPending || createApp.isSuccess;

  return (
    <form
      className="rounded-xl border border-zinc-200 bg-white p-2 shadow-xs"
      onSubmit={(event) => {
        event.preventDefault();
        const trimmed = name.trim();
        if (trimmed) createApp.mutate({ name: trimmed });
      }}
    >
      <div className="flex items-center gap-2">
        <label htmlFor="create-app-name" className="sr-only">
          App name
        </label>
        <Input
          ref={inputRef}
          id="create-app-name"
          name="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Name your new app, e.g. Coffee club"
          maxLength={80}
          autoComplete="off"
          disabled={pending}
          aria-invalid={createApp.isError || undefined}
          aria-describedby={createApp.isError ? "create-app-error" : undefined}
          className="border-transparent shadow-none hover:border-transparent"
          data-testid="create-app-name"
        />
        <Button
          type="submit"
          variant="primary"
          disabled={pending || name.trim() === ""}
          data-testid="create-app-submit"
        >
          {pending ? <Spinner className="text-current" /> : <Plus />}
          Create app
        </Button>
      </div>
      {createApp.isError ? (
        <p id="create-app-error" role="alert" className="px-3 pt-2 pb-1 text-sm text-rose-600">
          {errorMessage(createApp.error)}
        </p>
      ) : null}
    </form>
  );
}
