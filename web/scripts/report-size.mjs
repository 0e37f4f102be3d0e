// Prints the gzipped size of the JavaScript and CSS the sign-in route loads
// before any lazy route (the entry chunk and its static imports), and fails
// the build when the JavaScript passes the budget (issue 6: 200 KB gzipped).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const BUDGET_KB = 200;
const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('no entry chunk in the Vite manifest');

const js = new Set();
const css = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || js.has(chunk.file)) return;
  js.add(chunk.file);
  for (const c of chunk.css ?? []) css.add(c);
  for (const imp of chunk.imports ?? []) visit(imp); // static imports only; dynamicImports are lazy
};
visit(entryKey);

const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let jsTotal = 0;
let cssTotal = 0;
console.log('\nInitial load of the sign-in route (gzipped):');
for (const f of js) {
  const n = gz(f);
  jsTotal += n;
  console.log(`  ${f.padEnd(40)} ${kb(n)}`);
}
for (const f of css) {
  const n = gz(f);
  cssTotal += n;
  console.log(`  ${f.padEnd(40)} ${kb(n)}`);
}
const lazy = Object.values(manifest).filter((c) => c.isDynamicEntry).length;
console.log(`  JavaScript total: ${kb(jsTotal)} (budget ${BUDGET_KB} KB); CSS: ${kb(cssTotal)}; ${lazy} lazy route chunks\n`);
if (jsTotal > BUDGET_KB * 1024) {
  console.error(`Initial JavaScript ${kb(jsTotal)} is over the ${BUDGET_KB} KB budget.`);
  process.exit(1);
}
