// Absolute paths into any node_modules folder: `/srv/patchwork/node_modules/tailwindcss/index.css`.
const nodeModulesPathPattern = /(?:[A-Za-z]:)?(?:[\\/][^\s'"`:,()[\]{}]+)*?[\\/]node_modules[\\/]/g;

/**
 * Removes where Patchwork is installed from text a person or a model will read (build and
 * Tailwind errors quote absolute paths): the builder's folder becomes relative, and any other
 * absolute path into a node_modules folder keeps only its part from `node_modules/` on.
 */
export function stripServerPaths(text: string, builderRoot: string): string {
  const root = builderRoot.replace(/[\\/]+$/, "");
  let stripped = root ? text.split(`${root}/`).join("").split(`${root}\\`).join("") : text;
  stripped = stripped.replace(nodeModulesPathPattern, "node_modules/");
  return root ? stripped.split(root).join(".") : stripped;
}
