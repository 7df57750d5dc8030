/**
 * A bit-sliced index of header blooms, go-ethereum's "bloombits" design (2017 to v1.15.5: {@code core/bloombits},
 * {@code core/bloom_indexer.go}): per section of 4,096 blocks and per bloom bit a 4,096-bit vector, queried by
 * {@link org.chainfilter.ethbloom.index.BloomBitsMatcher} (AND of a value's three vectors, OR within a position, AND
 * across positions, later clauses skipped for sections already empty). Written incrementally and atomically by
 * {@link org.chainfilter.ethbloom.index.SectionIndexWriter}, read and validated by
 * {@link org.chainfilter.ethbloom.index.SectionIndex}; the file format is described in {@code SectionFormat}.
 */
package org.chainfilter.ethbloom.index;
