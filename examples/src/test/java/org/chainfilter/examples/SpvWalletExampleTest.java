package org.chainfilter.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.bitcoinj.crypto.ECKey;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.InvalidMerkleBlockException;
import org.chainfilter.bip37.MatchedTransaction;
import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.BlockHeader;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.MerkleRoot;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxInput;
import org.chainfilter.btcwire.TxOutput;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;

class SpvWalletExampleTest {

    /**
     * The wallet proves and accepts transactions 1, 2 and 3 of block 5a4ded (Core's merkle_block_2: tx 1 and 3 pay
     * the key, tx 2 spends tx 1's output, found through the outpoint UPDATE_ALL inserted). The coinbase is matched
     * only when the random nTweak makes it a false positive, so it is checked as "at most".
     */
    @Test
    void walletProvesThePaymentsToItsKey() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SpvWalletExample.Result result = SpvWalletExample.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals("000000005a4ded781e667e06ceefafb71410b511fe0d5adc3e5a27ecbec34ae6", result.blockHash().toString());
        List<Integer> positions = result.proven().stream().map(m -> m.index()).toList();
        assertTrue(positions.containsAll(List.of(1, 2, 3)), positions.toString());
        assertTrue(positions.size() <= 4);
        assertEquals(positions, List.copyOf(result.transactions().keySet()));
        assertEquals("28204cad1d7fc1d199e8ef4fa22f182de6258a3eaafe1bbe56ebdcacd3069a5f",
                result.transactions().get(1).getTxId().toString());
        assertTrue(result.paidToWalletSatoshis() > 0);
        assertEquals(paidToKeyInWholeBlock(), result.paidToWalletSatoshis(),
                "the proven transactions carry every payment to the key that the whole block holds");
        String printed = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("wallet     accepts tx 2 6b0f8a73a56c04b519f1883e8aafda643ba61a30bd1439969df21bea5f4e27e2"),
                printed);
        // The filterload sent holds the key and its Hash160 (so P2PKH payments to the key would match too; this
        // block pays it P2PK only, so leaving the Hash160 out passed every test, from a mutation review).
        ECKey key = ECKey.fromPublicOnly(Hex.decode(SpvWalletExample.WALLET_PUBKEY));
        Bip37BloomFilter sent = Bip37BloomFilter.parseFilterLoadHex(printed.lines()
                .filter(l -> l.startsWith("wallet  -> filterload ")).findFirst().orElseThrow().split(" +")[3]);
        assertTrue(sent.contains(key.getPubKey()) && sent.contains(key.getPubKeyHash()), sent.toString());
    }

    /**
     * A peer answers with a merkleblock over a block of its own making: the real header's fields around the merkle root
     * of a transaction paying the wallet's key 21 million bitcoins. The proof is sound against that header, and the
     * wallet credited the payment, as it checked the proof against whatever header came with it (found by a review).
     */
    @Test
    void aProofOverAnotherBlockIsRefused() {
        byte[] key = Hex.decode(SpvWalletExample.WALLET_PUBKEY);
        Transaction forged = new Transaction(1, List.of(new TxInput(new OutPoint(Hash256.fromDisplayHex(
                "11".repeat(32)), 0), new byte[] {0x51}, 0xffffffffL, List.of())), List.of(new TxOutput(
                2_100_000_000_000_000L, Hex.decode("41" + SpvWalletExample.WALLET_PUBKEY + "ac"))), 0);
        Block fake = blockOf(forged);
        byte[] merkleBlock = merkleBlockOf(fake, key);
        assertEquals(List.of(new MatchedTransaction(0, forged.txid())), MerkleBlock.parse(merkleBlock).verify(),
                "the proof is sound against its own header");

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> receive(
                Hash256.fromDisplayHex(SpvWalletExample.BLOCK_HASH), merkleBlock, List.of(forged)));
        assertEquals("the peer answered with block " + fake.hash() + ", not the block asked for, "
                + SpvWalletExample.BLOCK_HASH, e.getMessage());
    }

    /** Every pay-to-pubkey output to the wallet's key in the whole block, summed by bitcoinj alone. */
    private static long paidToKeyInWholeBlock() {
        String raw = blockHex();
        byte[] key = org.chainfilter.common.Hex.decode(SpvWalletExample.WALLET_PUBKEY);
        long paid = 0;
        var block = org.bitcoinj.core.Block.read(java.nio.ByteBuffer.wrap(org.chainfilter.common.Hex.decode(raw)));
        for (var tx : block.getTransactions()) {
            for (var output : tx.getOutputs()) {
                var script = output.getScriptPubKey();
                if (org.bitcoinj.script.ScriptPattern.isP2PK(script) && java.util.Arrays.equals(
                        org.bitcoinj.script.ScriptPattern.extractKeyFromP2PK(script), key)) {
                    paid += output.getValue().value;
                }
            }
        }
        return paid;
    }

    /** The serialized block 5a4ded as the example reads it. */
    private static String blockHex() {
        try (var in = SpvWalletExample.class.getResourceAsStream("block_5a4ded.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("raw="))
                    .findFirst().orElseThrow().substring(4);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A proven transaction of 64 non-witness bytes is refused (CVE-2017-12842); 63 and 65 bytes are not. The
     * transactions are one input with an empty scriptSig and one output whose script is 3, 4 or 5 bytes.
     */
    @Test
    void sixtyFourByteTransactionsAreRefused() {
        for (int scriptBytes = 3; scriptBytes <= 5; scriptBytes++) {
            Transaction tx = oneOutputTransaction(scriptBytes);
            assertEquals(60 + scriptBytes, tx.serialize(false).length);
            String refusal = SpvWalletExample.refusal(tx);
            if (scriptBytes == 4) {
                assertEquals("its non-witness serialization is 64 bytes, the size of a Merkle inner node"
                        + " (CVE-2017-12842)", refusal);
            } else {
                assertNull(refusal);
            }
        }
    }

    /**
     * The wallet's own flow with a 64-byte transaction in the proof: it is proven, and refused all the same. Only
     * {@code refusal} was tested, so the wallet accepting it passed every test (from a mutation review).
     */
    @Test
    void aProvenSixtyFourByteTransactionIsNotAccepted() {
        Transaction tx = oneOutputTransaction(4);
        Block fake = blockOf(tx);
        Received received = receive(fake.hash(), merkleBlockOf(fake, tx.txid().internalBytes()), List.of(tx));

        assertEquals(List.of(new MatchedTransaction(0, tx.txid())), received.result().proven());
        assertEquals(java.util.Map.of(), received.result().transactions());
        assertTrue(received.printed().contains("wallet     refuses " + tx.txid() + ": its non-witness serialization"
                + " is 64 bytes, the size of a Merkle inner node (CVE-2017-12842)"), received.printed());
    }

    /**
     * A merkleblock under the header asked for whose partial tree has one hash changed: its root is not the header's
     * merkle root, and the proof is refused. The wallet skipping that check passed every test (from a mutation review).
     */
    @Test
    void aProofUnderAnotherRootIsRefused() {
        byte[] merkleBlock = merkleBlockOf(Block.fromHex(blockHex()), Hex.decode(SpvWalletExample.WALLET_PUBKEY));
        // The first hash of the tree: after the header, the transaction count and the hash count.
        merkleBlock[80 + 4 + 1] ^= 1;
        InvalidMerkleBlockException e = assertThrows(InvalidMerkleBlockException.class, () -> receive(
                Hash256.fromDisplayHex(SpvWalletExample.BLOCK_HASH), merkleBlock, List.of()));
        assertTrue(e.getMessage().startsWith("partial Merkle tree root "), e.getMessage());
        assertTrue(e.getMessage().endsWith(" is not the header's merkle root "
                + Block.fromHex(blockHex()).header().merkleRoot()), e.getMessage());
    }

    /**
     * A transaction the proof does not cover (here the coinbase) is ignored with a line, and the closing line counts
     * the proven transactions and the satoshis paid to the key. The wallet taking an unproven transaction, ignoring
     * it without a word, or printing either figure wrong passed every test (from a mutation review).
     */
    @Test
    void aTransactionOutsideTheProofIsIgnored() {
        Block block = Block.fromHex(blockHex());
        Received received = receive(block.hash(), merkleBlockOf(block, Hex.decode(SpvWalletExample.WALLET_PUBKEY)),
                block.transactions().subList(0, 4));

        assertEquals(List.of(1, 2, 3), received.result().proven().stream().map(MatchedTransaction::index).toList());
        assertEquals(List.of(1, 2, 3), List.copyOf(received.result().transactions().keySet()));
        assertTrue(received.printed().contains("wallet     ignores " + block.transactions().get(0).txid()
                + ": not in the proof"), received.printed());
        assertTrue(received.printed().endsWith("block " + SpvWalletExample.BLOCK_HASH + ": 3 proven transactions,"
                + " 2500000000 satoshis paid to the wallet's key" + System.lineSeparator()), received.printed());
    }

    /**
     * A peer that sends a proven payment twice does not pay the wallet twice: the second copy is ignored with a line.
     * The wallet credited each copy, so tx 1 sent twice reported 49 BTC paid, not 25 (found by a review).
     */
    @Test
    void aTransactionSentTwiceIsCreditedOnce() {
        Block block = Block.fromHex(blockHex());
        List<Transaction> txs = block.transactions();
        Received received = receive(block.hash(), merkleBlockOf(block, Hex.decode(SpvWalletExample.WALLET_PUBKEY)),
                List.of(txs.get(1), txs.get(1), txs.get(2), txs.get(3)));

        assertEquals(List.of(1, 2, 3), List.copyOf(received.result().transactions().keySet()));
        assertEquals(2_500_000_000L, received.result().paidToWalletSatoshis());
        assertTrue(received.printed().contains("wallet     ignores " + txs.get(1).txid() + ": received twice"),
                received.printed());
    }

    /** A block of the given transactions under the real block's header fields, with their merkle root. */
    private static Block blockOf(Transaction... transactions) {
        BlockHeader real = Block.fromHex(blockHex()).header();
        List<Hash256> txids = java.util.Arrays.stream(transactions).map(Transaction::txid).toList();
        return new Block(new BlockHeader(real.version(), real.previousBlockHash(), MerkleRoot.of(txids), real.time(),
                real.bits(), real.nonce()), List.of(transactions));
    }

    /** The merkleblock a peer answers for {@code block} under a filter (nTweak 0, UPDATE_ALL) of {@code elements}. */
    private static byte[] merkleBlockOf(Block block, byte[]... elements) {
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(10, 0.0001, 0, 1);
        for (byte[] element : elements) {
            filter.insert(element);
        }
        return MerkleBlock.fromBlockAndFilter(block, filter).serialize();
    }

    /** What the wallet did with an answer, and what it printed. */
    private record Received(SpvWalletExample.Result result, String printed) {
    }

    /** The wallet's side for the block {@code requested}, the peer sending {@code txs} after the merkleblock. */
    private static Received receive(Hash256 requested, byte[] merkleBlock, List<Transaction> txs) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SpvWalletExample.Result result = SpvWalletExample.receive(new PrintStream(bytes, true, StandardCharsets.UTF_8),
                ECKey.fromPublicOnly(Hex.decode(SpvWalletExample.WALLET_PUBKEY)), requested, merkleBlock,
                txs.stream().map(tx -> tx.serialize(false)).toList());
        return new Received(result, bytes.toString(StandardCharsets.UTF_8));
    }

    /** Version 1, one input with an empty scriptSig, one output whose script is {@code scriptBytes} OP_TRUEs. */
    private static Transaction oneOutputTransaction(int scriptBytes) {
        return Transaction.fromHex("01000000" + "01" + "11".repeat(32) + "00000000" + "00" + "ffffffff"
                + "01" + "0100000000000000" + String.format(java.util.Locale.ROOT, "%02x", scriptBytes)
                + "51".repeat(scriptBytes) + "00000000");
    }
}
