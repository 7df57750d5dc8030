package org.chainfilter.btcwire.property;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.BlockHeader;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.CompactSize;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Sha256d;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxInput;
import org.chainfilter.btcwire.TxOutput;
import org.chainfilter.btcwire.WireFormatException;
import org.junit.jupiter.api.Test;

/**
 * Seeded property tests of the wire layer's serializations: random transactions (legacy and BIP144, scripts and
 * witness items on both sides of the CompactSize boundaries 0xfd and 0x10000, values of the whole int64 range) and
 * blocks of them survive serialize → parse → serialize byte for byte; txid is dSHA256 of the legacy form and wtxid of
 * the witness form; a block whose header commits to its transactions' root verifies, and changing any transaction
 * breaks that. CompactSize round-trips at every boundary and refuses each non-canonical form.
 */
class WireRoundTripPropertyTest {
    private final SplittableRandom random = new SplittableRandom(20261121);

    @Test
    void randomTransactionsRoundTripByteForByte() {
        for (int i = 0; i < 1000; i++) {
            Transaction tx = randomTransaction(random.nextInt(4) == 0);
            byte[] withWitness = tx.serialize(true);
            Transaction parsed = Transaction.parse(withWitness);
            assertEquals(tx, parsed);
            assertArrayEquals(withWitness, parsed.serialize(true));
            assertEquals(Sha256d.hash(tx.serialize(false)), parsed.txid());
            assertEquals(Sha256d.hash(withWitness), parsed.wtxid());
            if (tx.hasWitness()) {
                assertNotEquals(parsed.txid(), parsed.wtxid());
                Transaction stripped = Transaction.parse(tx.serialize(false));
                assertEquals(tx.txid(), stripped.txid());
            }
        }
    }

    @Test
    void randomBlocksRoundTripAndCommitToTheirTransactions() {
        for (int i = 0; i < 80; i++) {
            List<Transaction> transactions = new ArrayList<>();
            int count = 1 + random.nextInt(random.nextInt(8) == 0 ? 300 : 12);
            for (int t = 0; t < count; t++) {
                transactions.add(randomTransaction(random.nextBoolean()));
            }
            Hash256 root = new Block(header(Hash256.ZERO), transactions).computeMerkleRoot();
            Block block = new Block(header(root), transactions);
            byte[] bytes = block.serialize(true);
            Block parsed = Block.parse(bytes);
            assertEquals(block, parsed);
            assertArrayEquals(bytes, parsed.serialize(true));
            assertTrue(parsed.merkleRootMatches());

            List<Transaction> changed = new ArrayList<>(transactions);
            int victim = random.nextInt(changed.size());
            changed.set(victim, randomTransaction(false));
            assertTrue(!new Block(header(root), changed).merkleRootMatches()
                    || changed.get(victim).txid().equals(transactions.get(victim).txid()));
        }
    }

    @Test
    void compactSizeRoundTripsAtEveryBoundaryAndRefusesNonCanonicalForms() {
        long[] values = {0, 1, 0xfc, 0xfd, 0xfe, 0xff, 0xffff, 0x10000, 0xffffffffL, 0x100000000L, Long.MAX_VALUE, -1L};
        List<Long> all = new ArrayList<>();
        for (long value : values) {
            all.add(value);
        }
        for (int i = 0; i < 1000; i++) {
            all.add(random.nextLong() >>> random.nextInt(64));
        }
        for (long value : all) {
            ByteWriter writer = new ByteWriter(9);
            CompactSize.write(writer, value);
            byte[] bytes = writer.toByteArray();
            assertEquals(CompactSize.encodedLength(value), bytes.length);
            ByteReader reader = new ByteReader(bytes);
            assertEquals(value, CompactSize.read(reader, "value", -1L));
            assertEquals(0, reader.remaining());
            if (bytes.length > 1) {
                // The same value one size wider is non-canonical.
                byte[] wider = new byte[bytes.length == 3 ? 5 : 9];
                wider[0] = (byte) (bytes.length == 3 ? 0xfe : 0xff);
                for (int b = 0; b < 8 && b < wider.length - 1; b++) {
                    wider[1 + b] = (byte) (value >>> (8 * b));
                }
                if (bytes.length < 9) {
                    WireFormatException refused = assertThrows(WireFormatException.class,
                            () -> CompactSize.read(new ByteReader(wider), "value", -1L));
                    assertTrue(refused.getMessage().contains("non-canonical CompactSize"), refused.getMessage());
                }
            }
        }
    }

    private Transaction randomTransaction(boolean segwit) {
        int inputCount = 1 + random.nextInt(4);
        List<TxInput> inputs = new ArrayList<>();
        boolean anyWitness = false;
        for (int i = 0; i < inputCount; i++) {
            List<byte[]> witness = new ArrayList<>();
            if (segwit && (random.nextBoolean() || i == inputCount - 1 && !anyWitness)) {
                int items = 1 + random.nextInt(4);
                for (int w = 0; w < items; w++) {
                    witness.add(bytes(randomLength()));
                }
                anyWitness = true;
            }
            inputs.add(new TxInput(new OutPoint(Hash256.fromInternalBytes(bytes(32)), random.nextLong(1L << 32)),
                    bytes(randomLength()), random.nextLong(1L << 32), witness));
        }
        List<TxOutput> outputs = new ArrayList<>();
        int outputCount = random.nextInt(4);
        for (int i = 0; i < outputCount; i++) {
            outputs.add(new TxOutput(random.nextLong(), bytes(randomLength())));
        }
        return new Transaction(random.nextInt(), inputs, outputs, random.nextLong(1L << 32));
    }

    /** Mostly short, sometimes across the 1-byte/3-byte CompactSize boundary, rarely across the 3/5-byte one. */
    private int randomLength() {
        int pick = random.nextInt(100);
        if (pick < 80) {
            return random.nextInt(80);
        }
        if (pick < 98) {
            return 0xf0 + random.nextInt(0x20);
        }
        return 0xfff0 + random.nextInt(0x20);
    }

    private byte[] bytes(int length) {
        byte[] out = new byte[length];
        random.nextBytes(out);
        return out;
    }

    private BlockHeader header(Hash256 merkleRoot) {
        return new BlockHeader(random.nextInt(), Hash256.fromInternalBytes(bytes(32)), merkleRoot,
                random.nextLong(1L << 32), random.nextLong(1L << 32), random.nextLong(1L << 32));
    }
}
