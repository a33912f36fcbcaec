// Type-checks an app in memory on a worker thread, so a multi-second first check never blocks the
// server's event loop (and every live SSE stream with it). Plain JavaScript on purpose: it runs as
// a worker straight from disk, outside the Next.js bundle. Messages: {id, files: [[path, text]]}
// in, {id, diagnostics} or {id, error} out.
import path from "node:path";
import { parentPort } from "node:worker_threads";
import ts from "typescript";

// Virtual files live under the project folder so bare imports resolve to the builder's own
// node_modules (react, lucide-react…) exactly as the preview bundler resolves them.
const virtualRoot = path.join(process.cwd(), ".patchwork-virtual-workspace");

/** @type {import("typescript").CompilerOptions} */
const compilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  isolatedModules: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  allowImportingTsExtensions: true,
  types: [],
};

// Assets the bundler accepts but TypeScript knows nothing about.
const ambientDeclarations = `declare module "*.css";
declare module "*.svg" { const url: string; export default url; }
declare module "*.png" { const url: string; export default url; }
declare module "*.jpg" { const url: string; export default url; }
declare module "*.jpeg" { const url: string; export default url; }
declare module "*.gif" { const url: string; export default url; }
declare module "*.webp" { const url: string; export default url; }
`;

// Library declaration files never change while the server runs: parse each once.
/** @type {Map<string, import("typescript").SourceFile>} */
const librarySourceFiles = new Map();
/** @type {import("typescript").Program | undefined} */
let previousProgram;

/** @param {[string, string][]} entries */
function typeCheck(entries) {
  const virtual = new Map();
  for (const [filePath, text] of entries) {
    if (/\.(tsx?|jsx?|json)$/.test(filePath)) virtual.set(path.join(virtualRoot, filePath), text);
  }
  const ambientPath = path.join(virtualRoot, "__patchwork_assets__.d.ts");
  virtual.set(ambientPath, ambientDeclarations);
  const roots = [...virtual.keys()].filter((filePath) => /\.tsx?$/.test(filePath));
  if (roots.length <= 1) return [];

  const isVirtual = (/** @type {string} */ filePath) =>
    filePath.startsWith(`${virtualRoot}${path.sep}`);
  const host = ts.createCompilerHost(compilerOptions, true);
  const readFromDisk = host.readFile.bind(host);
  const fileExistsOnDisk = host.fileExists.bind(host);
  host.fileExists = (filePath) =>
    isVirtual(filePath) ? virtual.has(filePath) : fileExistsOnDisk(filePath);
  host.readFile = (filePath) =>
    isVirtual(filePath) ? virtual.get(filePath) : readFromDisk(filePath);
  host.directoryExists = (directory) =>
    directory === virtualRoot || isVirtual(`${directory}${path.sep}`)
      ? [...virtual.keys()].some((filePath) => filePath.startsWith(`${directory}${path.sep}`))
      : ts.sys.directoryExists(directory);
  host.getCurrentDirectory = () => virtualRoot;
  host.writeFile = () => {};
  host.getSourceFile = (fileName, languageVersion) => {
    if (isVirtual(fileName)) {
      const text = virtual.get(fileName);
      return text === undefined
        ? undefined
        : ts.createSourceFile(fileName, text, languageVersion, true);
    }
    let sourceFile = librarySourceFiles.get(fileName);
    if (!sourceFile) {
      const text = readFromDisk(fileName);
      if (text === undefined) return undefined;
      sourceFile = ts.createSourceFile(fileName, text, languageVersion, true);
      librarySourceFiles.set(fileName, sourceFile);
    }
    return sourceFile;
  };

  const program = ts.createProgram({
    rootNames: roots,
    options: compilerOptions,
    host,
    oldProgram: previousProgram,
  });
  previousProgram = program;
  const diagnostics = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()];
  const declared = declaredPackages(virtual.get(path.join(virtualRoot, "package.json")));
  return diagnostics
    .filter(
      (diagnostic) =>
        diagnostic.file &&
        isVirtual(diagnostic.file.fileName) &&
        diagnostic.file.fileName !== ambientPath &&
        !isDeclaredPackageImport(diagnostic, declared),
    )
    .slice(0, 50)
    .map((diagnostic) => {
      const file = /** @type {import("typescript").SourceFile} */ (diagnostic.file);
      const position = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      return {
        file: path.relative(virtualRoot, file.fileName).split(path.sep).join("/"),
        line: position.line + 1,
        column: position.character + 1,
        message: `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
        severity: "error",
      };
    });
}

/**
 * The packages the app declares in package.json. They are installed for the preview's bundle,
 * not here: an import of one is not reported as missing or untyped (the bundler checks that it
 * resolves), at the price of no types from it.
 * @param {string | undefined} text
 */
function declaredPackages(text) {
  if (!text) return new Set();
  try {
    const dependencies = JSON.parse(text).dependencies;
    return new Set(
      dependencies && typeof dependencies === "object" ? Object.keys(dependencies) : [],
    );
  } catch {
    return new Set();
  }
}

/**
 * TS2307 "Cannot find module 'x'" and TS7016 "Could not find a declaration file for module 'x'"
 * for a package the app declares.
 * @param {import("typescript").Diagnostic} diagnostic
 * @param {Set<string>} declared
 */
function isDeclaredPackageImport(diagnostic, declared) {
  if (diagnostic.code !== 2307 && diagnostic.code !== 7016) return false;
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  const specifier = /module '([^']+)'/.exec(text)?.[1];
  if (!specifier) return false;
  const parts = specifier.split("/");
  return declared.has(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
}

parentPort?.on("message", (/** @type {{id: number, files: [string, string][]}} */ message) => {
  try {
    parentPort?.postMessage({ id: message.id, diagnostics: typeCheck(message.files) });
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
