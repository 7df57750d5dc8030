// The loop of a test peer driven over its standard input and output, shared by the modules' Node.js peers
// (bip158's golomb-peer.cjs, bip37's bcoin-peer.cjs): each input line is a JSON request, each output line the JSON
// answer of answer(request), in order. A request that answer throws on answers {"error":message}.
'use strict';

const readline = require('readline');

module.exports = function serve(answer) {
  const lines = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
  lines.on('line', (line) => {
    let reply;
    try {
      reply = answer(JSON.parse(line));
    } catch (e) {
      reply = {error: String(e && e.message ? e.message : e)};
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  });
};
