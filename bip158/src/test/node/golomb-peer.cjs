// A line-oriented driver for bcoin's Golomb-coded sets (npm golomb 1.2.0), the independent peer of
// GolombPeerDifferentialTest. Usage: node golomb-peer.cjs <node_modules dir>; the bcrypto it loads must run its
// pure-JavaScript backend (NODE_BACKEND=js), as the provisioning installs no native build.
// Each input line is a JSON request, each output line the JSON answer, in order:
//   {"op":"build","p":P,"key":hex16,"items":[hex,...]}     -> {"filter":hex}  (CompactSize(N) || bit stream)
//   {"op":"match","p":P,"key":hex16,"filter":hex,"items":[hex,...]}  -> {"match":[bool,...]}  (one match() each)
//   {"op":"matchAny","p":P,"key":hex16,"filter":hex,"items":[hex,...]}  -> {"any":bool}
// A request the library refuses (an exception) answers {"error":message} (build-tools/json-lines-peer.cjs).
'use strict';

const path = require('path');
const serve = require(path.join(__dirname, '..', '..', '..', '..', 'build-tools', 'json-lines-peer.cjs'));

const Golomb = require(path.join(process.argv[2], 'golomb'));

function buffers(list) {
  return list.map((hex) => Buffer.from(hex, 'hex'));
}

function answer(request) {
  const key = Buffer.from(request.key, 'hex');
  switch (request.op) {
    case 'build':
      return {filter: Golomb.fromItems(request.p, key, buffers(request.items)).toNBytes().toString('hex')};
    case 'match': {
      const filter = Golomb.fromNBytes(request.p, Buffer.from(request.filter, 'hex'));
      return {match: buffers(request.items).map((item) => filter.match(key, item))};
    }
    case 'matchAny': {
      const filter = Golomb.fromNBytes(request.p, Buffer.from(request.filter, 'hex'));
      return {any: filter.matchAny(key, buffers(request.items))};
    }
    default:
      throw new Error('unknown op ' + request.op);
  }
}

serve(answer);
