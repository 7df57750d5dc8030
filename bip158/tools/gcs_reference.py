#!/usr/bin/env python3
"""An independent Golomb-coded-set implementation (BIP158 text, Python integers) that generates the `gcs` suite
vectors in bip158/src/test/resources/gcs-generated.json. It shares no code with the Java library: SipHash-2-4,
hash-to-range, Golomb-Rice coding and CompactSize are written here from the BIP158 text. It checks itself against
BIP158 test vector row 0 (testnet genesis, filter 019dfca8) before writing anything.

Usage: python3 bip158/tools/gcs_reference.py > bip158/src/test/resources/gcs-generated.json
"""
import json
import random

MASK = (1 << 64) - 1


def rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & MASK


def siphash24(k0, k1, data):
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d, k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573]

    def rnd():
        v[0] = (v[0] + v[1]) & MASK; v[1] = rotl(v[1], 13) ^ v[0]; v[0] = rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & MASK; v[3] = rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & MASK; v[3] = rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & MASK; v[1] = rotl(v[1], 17) ^ v[2]; v[2] = rotl(v[2], 32)

    padded = data + bytes((8 - (len(data) + 1) % 8) % 8) + bytes([len(data) & 0xff])
    for i in range(0, len(padded), 8):
        m = int.from_bytes(padded[i:i + 8], 'little')
        v[3] ^= m
        rnd(); rnd()
        v[0] ^= m
    v[2] ^= 0xff
    for _ in range(4):
        rnd()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def compact_size(n):
    if n < 0xfd:
        return bytes([n])
    if n <= 0xffff:
        return b'\xfd' + n.to_bytes(2, 'little')
    if n <= 0xffffffff:
        return b'\xfe' + n.to_bytes(4, 'little')
    return b'\xff' + n.to_bytes(8, 'little')


def gcs_build(key, p, m, elements):
    k0 = int.from_bytes(key[:8], 'little')
    k1 = int.from_bytes(key[8:], 'little')
    distinct = sorted(set(elements))
    n = len(distinct)
    f = n * m
    values = sorted((siphash24(k0, k1, e) * f) >> 64 for e in distinct)
    bits = []
    last = 0
    for value in values:
        delta = value - last
        last = value
        bits += [1] * (delta >> p) + [0]
        bits += [(delta >> (p - 1 - i)) & 1 for i in range(p)]
    bits += [0] * (-len(bits) % 8)
    stream = bytes(int(''.join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))
    return compact_size(n) + stream, set(values), f, k0, k1


def member(key, p, m, elements, item):
    _, values, f, k0, k1 = gcs_build(key, p, m, elements)
    return (siphash24(k0, k1, item) * f) >> 64 in values


def self_check():
    block_hash = bytes.fromhex('000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943')[::-1]
    script = bytes.fromhex('4104678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504'
                           'e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac')
    encoded, _, _, _, _ = gcs_build(block_hash[:16], 19, 784931, [script])
    assert encoded.hex() == '019dfca8', encoded.hex()
    key = bytes(range(16))
    assert siphash24(int.from_bytes(key[:8], 'little'), int.from_bytes(key[8:], 'little'), b'') == 0x726fdb47dd0e0e31


def vector(rng, name, p, m, count, note, repeat=0, max_len=40, min_len=0):
    key = bytes(rng.getrandbits(8) for _ in range(16))
    elements = [bytes(rng.getrandbits(8) for _ in range(rng.randint(min_len, max_len))) for _ in range(count)]
    elements += [rng.choice(elements) for _ in range(repeat)] if elements else []
    rng.shuffle(elements)
    encoded, values, f, k0, k1 = gcs_build(key, p, m, elements)
    present = sorted({e for e in rng.sample(elements, min(len(elements), 8))})
    absent = []
    while len(absent) < 8:
        candidate = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 40)))
        if (siphash24(k0, k1, candidate) * f) >> 64 not in values and candidate not in elements:
            absent.append(candidate)
    return {'name': name, 'note': note, 'key': key.hex(), 'p': p, 'm': m,
            'elements': [e.hex() for e in elements], 'filter': encoded.hex(),
            'present': [e.hex() for e in present], 'absent': [e.hex() for e in absent]}


def large_golden():
    """The 70,000-element set that GcsFilterTest builds (element i = i as 4 bytes big-endian, key 00..0f, P = 19,
    M = 784931): N > 0xffff, so the CompactSize count takes 5 bytes. Prints the prefix, length and SHA-256."""
    import hashlib
    elements = [i.to_bytes(4, 'big') for i in range(70000)]
    encoded, _, _, _, _ = gcs_build(bytes(range(16)), 19, 784931, elements)
    print(encoded[:8].hex(), len(encoded), hashlib.sha256(encoded).hexdigest())


def main():
    self_check()
    import sys
    if sys.argv[1:] == ['--large-golden']:
        large_golden()
        return
    rng = random.Random(158)
    vectors = [
        vector(rng, 'empty-set', 19, 784931, 0, 'N = 0 serializes as the single byte 00'),
        vector(rng, 'basic-params-n300', 19, 784931, 300,
               'N = 300 >= 0xfd: the CompactSize count takes 3 bytes (fd 2c 01); 40 repeated elements count once',
               40, 40, 4),
        vector(rng, 'empty-and-short-elements', 19, 784931, 40,
               'elements of 0 to 2 bytes: the empty element is a member like any other; byte-equal ones count once',
               0, 2),
        vector(rng, 'long-unary-runs', 2, 1000, 60,
               'P = 2, M = 1000: mean delta about 1000, so quotients about 250: unary runs well past 64 one-bits'),
        vector(rng, 'large-range', 32, 0xffffffff, 3000,
               'P = 32, M = 2^32 - 1: F = N * M is about 2^43.6, values far above 2^32'),
        vector(rng, 'p0-m1-collisions', 0, 1, 40,
               'P = 0, M = 1: F = N, so distinct elements collide (zero deltas) and there are no remainder bits'),
        vector(rng, 'p1-m2', 1, 2, 25, 'P = 1, M = 2: tiny range, many collisions'),
        vector(rng, 'single-element', 19, 784931, 1, 'N = 1', 3),
    ]
    print(json.dumps({
        'suite': 'gcs',
        'source': 'generated by bip158/tools/gcs_reference.py (chainfilter), an independent Python implementation of '
                  'BIP158 Golomb-coded sets written from the BIP text (bitcoin/bips bip-0158.mediawiki @ '
                  '7fe0b034ec967b52a5a28276419117326df93263), seeded random.Random(158); it reproduces BIP158 vector '
                  'row 0 (bitcoin/bitcoin src/test/data/blockfilters.json @ c7efb652f3543b001b4dd22186a354605b14f47e)',
        'vectors': vectors}, indent=1))


if __name__ == '__main__':
    main()
