// Rewrites calls of SkilltrayCore / SkillLibrary facade methods to the domain service that now holds them.
const ts = require('typescript');
const fs = require('fs');
const path = require('path');
const GATEWAY = { outline: 'gateway.outline', outlineEach: 'gateway.outlineEach', show: 'gateway.show', open: 'gateway.open', sources: 'gateway.sources', search: 'gateway.search', searchIndex: 'gateway.searchIndex', searchAll: 'gateway.searchAll', build: 'gateway.build', buildAll: 'gateway.buildAll', stats: 'gateway.stats', syncLogs: 'gateway.sync' };
const groups = {
  library: ['getSkill', 'catalogCurrent'],
  skills: ['listSkills', 'listBriefs', 'check', 'roots', 'resolvePrompt', 'setSkillEnabled'],
  runs: ['dryRun', 'run', 'reclaimOrphanedRuns', 'history', 'getRun'],
  policy: ['rules', 'addRule', 'removeRule', 'remembered', 'revokeRemembered', 'sandboxStatus', 'setSkillSandboxed'],
  preferences: ['settings', 'setMode', 'setPaused', 'setPaletteShortcut', 'setRetention', 'setLimitCeiling', 'historyUsage', 'maintainHistory', 'startMaintenance', 'notices', 'dismissNotice'],
  agent: ['discover', 'attach'],
};
const CORE = { ...GATEWAY, pendingApprovals: 'broker.list', answerApproval: 'broker.resolve', cancelRun: 'runs.service.cancel',
  inspectProject: 'projects.inspect', trustedProjects: 'projects.list', trustProject: 'projects.trust', untrustProject: 'projects.untrust', applyProjectRoots: 'projects.apply' };
for (const [svc, names] of Object.entries(groups)) for (const n of names) CORE[n] = `${svc}.${n}`;
const LAZY = { listPacks: ['packs', 'list'], scanPack: ['packs', 'preview'], installPack: ['packs', 'install'], checkPackUpdate: ['packs', 'previewUpdate'], updatePack: ['packs', 'update'], repairPack: ['packs', 'repair'], uninstallPack: ['packs', 'uninstall'], trustKey: ['packs', 'trustKey'],
  assistants: ['connections', 'list'], connectAssistant: ['connections', 'connect'], disconnectAssistant: ['connections', 'disconnect'], testAssistant: ['connections', 'test'] };
let total = 0;
for (const config of process.argv.slice(2)) {
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const checker = program.getTypeChecker();
  for (const sf of program.getSourceFiles()) {
    const file = path.resolve(sf.fileName);
    if (file.includes('node_modules') || !file.startsWith(process.cwd())) continue;
    if (file.endsWith('src-main/core/api.ts') || file.endsWith('src-main/core/library.ts')) continue;
    const edits = [];
    const visit = (node) => {
      if (ts.isPropertyAccessExpression(node) && !ts.isPrivateIdentifier(node.name)) {
        const name = node.name.text;
        const recvType = checker.typeToString(checker.getTypeAtLocation(node.expression));
        const isCore = /\bSkilltrayCore\b/.test(recvType);
        const isLib = /\bSkillLibrary\b/.test(recvType);
        const map = isCore ? CORE : isLib ? GATEWAY : null;
        if (isCore && Object.hasOwn(LAZY, name)) {
          const [loader, method] = LAZY[name];
          edits.push({ start: node.getStart(sf), end: node.getEnd(), text: `(await ${node.expression.getText(sf)}.${loader}()).${method}` });
        } else if (map && Object.hasOwn(map, name)) edits.push({ start: node.name.getStart(sf), end: node.name.getEnd(), text: map[name] });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    if (edits.length === 0) continue;
    let text = fs.readFileSync(file, 'utf8');
    for (const e of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
    fs.writeFileSync(file, text);
    total += edits.length;
    console.log(edits.length, path.relative(process.cwd(), file));
  }
}
console.log('total', total);
