// A line-oriented driver for bcoin 1.0.2's BIP37 code, the independent peer of BcoinPeerDifferentialTest: the Bloom
// and rolling filters of bfilter 0.2.0 (what bcoin requires), bcoin's TX.isWatched and MerkleBlock.
// Usage: node bcoin-peer.cjs <node_modules dir>; run with NODE_BACKEND=js, as the provisioning builds no native code.
// Each input line is a JSON request, each output line the JSON answer, in order. Byte strings are hex; hashes are in
// internal byte order.
//   {"op":"fromRate","n":N,"rate":P,"flags":F}            -> {"filter":filterload}  (BloomFilter.fromRate; nTweak 0)
//   {"op":"fromOptions","bits":B,"k":K,"tweak":T,"flags":F} -> {"filter":filterload}  (new BloomFilter(...))
//   {"op":"load","filter":filterload,"add":[hex],"test":[hex]}
//        -> {"filter":filterload after the adds,"test":[bool],"withinConstraints":bool}  (BloomFilter.fromRaw)
//   {"op":"watch","filter":filterload,"txs":[hex]}  -> {"steps":[{"match":bool,"filter":filterload}]}  (in order)
//   {"op":"fromBlock","filter":filterload,"block":hex}  -> {"merkleblock":hex,"filter":filterload after}
//   {"op":"fromHashes","block":hex,"txids":[hash]}     -> {"merkleblock":hex}
//   {"op":"extract","merkleblock":hex}  -> {"root":hash,"matches":[hash],"indexes":[int],"valid":bool}
//        (MerkleBlock.fromRaw, extractTree; valid is verifyBody, the root against the header's)
//   {"op":"rolling","n":N,"rate":P,"tweak":T,"add":[hex],"test":[hex]}
//        -> {"k":int,"limit":int,"words":int,"generation":int,"test":[bool],"cells":hex}  (RollingFilter, after the
//           adds; cells are its 64-bit words, each little-endian)
// A request the library refuses (an exception) answers {"error":message} (build-tools/json-lines-peer.cjs).
'use strict';

const path = require('path');
const serve = require(path.join(__dirname, '..', '..', '..', '..', 'build-tools', 'json-lines-peer.cjs'));

const modules = process.argv[2];
const {BloomFilter, RollingFilter} = require(path.join(modules, 'bfilter'));
const TX = require(path.join(modules, 'bcoin/lib/primitives/tx'));
const Block = require(path.join(modules, 'bcoin/lib/primitives/block'));
const MerkleBlock = require(path.join(modules, 'bcoin/lib/primitives/merkleblock'));

function bytes(hex) {
  return Buffer.from(hex, 'hex');
}

function hex(buffer) {
  return buffer.toString('hex');
}

function answer(request) {
  switch (request.op) {
    case 'fromRate': {
      const filter = BloomFilter.fromRate(request.n, request.rate, request.flags);
      filter.tweak = 0;
      return {filter: hex(filter.toRaw())};
    }
    case 'fromOptions':
      return {filter: hex(new BloomFilter(request.bits, request.k, request.tweak, request.flags).toRaw())};
    case 'load': {
      const filter = BloomFilter.fromRaw(bytes(request.filter));
      for (const item of request.add)
        filter.add(bytes(item));
      const test = request.test.map((item) => filter.test(bytes(item)));
      return {filter: hex(filter.toRaw()), test, withinConstraints: filter.isWithinConstraints()};
    }
    case 'watch': {
      const filter = BloomFilter.fromRaw(bytes(request.filter));
      const steps = request.txs.map((tx) => {
        const match = TX.fromRaw(bytes(tx)).isWatched(filter);
        return {match, filter: hex(filter.toRaw())};
      });
      return {steps};
    }
    case 'fromBlock': {
      const filter = BloomFilter.fromRaw(bytes(request.filter));
      const merkle = MerkleBlock.fromBlock(Block.fromRaw(bytes(request.block)), filter);
      return {merkleblock: hex(merkle.toRaw()), filter: hex(filter.toRaw())};
    }
    case 'fromHashes': {
      const merkle = MerkleBlock.fromHashes(Block.fromRaw(bytes(request.block)), request.txids.map(bytes));
      return {merkleblock: hex(merkle.toRaw())};
    }
    case 'extract': {
      const merkle = MerkleBlock.fromRaw(bytes(request.merkleblock));
      const tree = merkle.extractTree();
      return {
        root: hex(tree.root),
        matches: tree.matches.map(hex),
        indexes: tree.indexes,
        valid: merkle.verifyBody()
      };
    }
    case 'rolling': {
      const filter = RollingFilter.fromRate(request.n, request.rate);
      filter.tweak = request.tweak;
      for (const item of request.add)
        filter.add(bytes(item));
      const test = request.test.map((item) => filter.test(bytes(item)));
      return {
        k: filter.n,
        limit: filter.limit,
        words: filter.items,
        generation: filter.generation,
        test,
        cells: hex(filter.filter)
      };
    }
    default:
      throw new Error('unknown op ' + request.op);
  }
}

serve(answer);
