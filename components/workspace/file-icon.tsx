import { File, FileCode2, FileImage, FileJson, FileText, Palette } from "lucide-react";
import { cn } from "@/components/ui/class-names";

const iconByExtension = {
  tsx: { icon: FileCode2, className: "text-sky-500" },
  ts: { icon: FileCode2, className: "text-blue-500" },
  jsx: { icon: FileCode2, className: "text-sky-500" },
  js: { icon: FileCode2, className: "text-amber-500" },
  mjs: { icon: FileCode2, className: "text-amber-500" },
  css: { icon: Palette, className: "text-violet-500" },
  json: { icon: FileJson, className: "text-amber-600" },
  html: { icon: FileCode2, className: "text-orange-500" },
  md: { icon: FileText, className: "text-zinc-500" },
  png: { icon: FileImage, className: "text-emerald-500" },
  jpg: { icon: FileImage, className: "text-emerald-500" },
  jpeg: { icon: FileImage, className: "text-emerald-500" },
  gif: { icon: FileImage, className: "text-emerald-500" },
  webp: { icon: FileImage, className: "text-emerald-500" },
  svg: { icon: FileImage, className: "text-emerald-500" },
} as const;

/** A small icon for a file, coloured by its type. */
export function FileIcon({ path, className }: { path: string; className?: string }) {
  const extension = path.split(".").pop()?.toLowerCase() ?? "";
  const match = iconByExtension[extension as keyof typeof iconByExtension];
  const Icon = match?.icon ?? File;
  return (
    <Icon
      className={cn("size-4 shrink-0", match?.className ?? "text-zinc-400", className)}
      aria-hidden="true"
    />
  );
}
