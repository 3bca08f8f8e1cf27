// Removes unused imports from the given files (TypeScript's organizeImports, removeUnused only).
const ts = require('typescript');
const fs = require('fs');
const path = require('path');
const files = process.argv.slice(2).map((f) => path.resolve(f));
const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true };
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: () => '1',
  getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, 'utf8')) : undefined),
  getCurrentDirectory: () => process.cwd(),
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory,
};
const ls = ts.createLanguageService(host);
for (const f of files) {
  const changes = ls.organizeImports({ type: 'file', fileName: f, mode: ts.OrganizeImportsMode.RemoveUnused }, {}, undefined);
  let text = fs.readFileSync(f, 'utf8');
  for (const change of changes) {
    const edits = [...change.textChanges].sort((a, b) => b.span.start - a.span.start);
    for (const e of edits) text = text.slice(0, e.span.start) + e.newText + text.slice(e.span.start + e.span.length);
  }
  fs.writeFileSync(f, text);
}
