// Compiles the test contracts with the pinned solc-js (pure WebAssembly, no network) and writes one
// JSON file per contract: {"abi": [...], "bytecode": "0x...", "methods": {"fire(uint8,...)": "selector"}}.
// Usage: node compile-contracts.cjs <solc module dir> <solidity dir> <output dir>
'use strict';
const fs = require('fs');
const path = require('path');

const [solcDir, sourceDir, outDir] = process.argv.slice(2);
const solc = require(solcDir);
const sources = {};
for (const name of fs.readdirSync(sourceDir).filter((n) => n.endsWith('.sol')).sort()) {
  sources[name] = { content: fs.readFileSync(path.join(sourceDir, name), 'utf8') };
}
const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.methodIdentifiers'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors || []).filter((e) => e.severity === 'error');
if (errors.length > 0) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
fs.mkdirSync(outDir, { recursive: true });
for (const file of Object.keys(output.contracts)) {
  for (const [name, contract] of Object.entries(output.contracts[file])) {
    const artifact = {
      compiler: 'solc-js ' + solc.version(),
      abi: contract.abi,
      bytecode: '0x' + contract.evm.bytecode.object,
      methods: contract.evm.methodIdentifiers,
    };
    fs.writeFileSync(path.join(outDir, name + '.json'), JSON.stringify(artifact, null, 1));
  }
}
