package org.chainfilter.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptPattern;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.Bip37UpdateMode;
import org.chainfilter.bip37.MatchedTransaction;
import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.bip37.bitcoinj.BitcoinjAdapters;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.common.Hex;

/**
 * An SPV wallet's BIP37 round trip, both sides in one process:
 * <ol>
 *   <li>the wallet has a bitcoinj {@link ECKey} (public part only: the key that mainnet block 000000005a4ded… pays
 *       to; Bitcoin Core's bloom_tests.cpp merkle_block_2 uses the same key);</li>
 *   <li>it builds a Core-exact filter with a random nTweak and UPDATE_ALL, inserting the public key and its Hash160,
 *       and sends the {@code filterload} bytes;</li>
 *   <li>the peer parses them under Core's limits, runs the real block through the filter as Core does, and answers
 *       with a {@code merkleblock} and the matched transactions (serialized without witness, as Core sends them);</li>
 *   <li>the wallet parses the merkle block, checks that its header is the block it asked for (the hash its chain of
 *       headers holds; here the published one) and the partial Merkle tree and its root against that header, takes
 *       only transactions whose txid the proof covers, each once, and reads them as bitcoinj transactions.</li>
 * </ol>
 * Run: {@code mvn -q -pl examples -am install -DskipTests} then
 * {@code mvn -q -pl examples exec:java -Dexec.mainClass=org.chainfilter.examples.SpvWalletExample}.
 */
public final class SpvWalletExample {
    /** The size of a Merkle inner node's preimage: two 32-byte hashes. */
    private static final int INNER_NODE_BYTES = 64;

    /** The public key that block 5a4ded's transaction 1 pays to (P2PK), from Core's merkle_block_2 test. */
    static final String WALLET_PUBKEY = "044a656f065871a353f216ca26cef8dde2f03e8c16202d2e8ad769f02032cb86a5eb5e56842e"
            + "92e19141d60a01928f8dd2c875a390f67c1f6c94cfc617c0ea45af";

    /** The hash of mainnet block 5a4ded, as published with it. */
    static final String BLOCK_HASH = "000000005a4ded781e667e06ceefafb71410b511fe0d5adc3e5a27ecbec34ae6";

    private SpvWalletExample() {
    }

    /** What the wallet ends up with: the proven transactions, by position in the block, as bitcoinj objects. */
    record Result(Hash256 blockHash, List<MatchedTransaction> proven,
                  Map<Integer, org.bitcoinj.core.Transaction> transactions, long paidToWalletSatoshis) {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    static Result run(PrintStream out) {
        // Wallet side: keys -> filter -> filterload.
        ECKey key = ECKey.fromPublicOnly(Hex.decode(WALLET_PUBKEY));
        Bip37BloomFilter walletFilter = Bip37BloomFilter.withRandomTweak(10, 0.0001, Bip37UpdateMode.ALL,
                new SecureRandom());
        walletFilter.insert(key.getPubKey());
        walletFilter.insert(key.getPubKeyHash());
        byte[] filterLoad = walletFilter.toFilterLoad();
        out.println("wallet  -> filterload " + Hex.encode(filterLoad) + " (" + walletFilter + ")");

        // Peer side: parse with Core's limits, filter the block, answer merkleblock + tx messages.
        Bip37BloomFilter peerFilter = Bip37BloomFilter.parseFilterLoad(filterLoad);
        Block block = Block.fromHex(blockHex());
        MerkleBlock built = MerkleBlock.fromBlockAndFilter(block, peerFilter);
        byte[] merkleBlockMessage = built.serialize();
        List<byte[]> txMessages = new ArrayList<>();
        for (MatchedTransaction m : built.builtMatches()) {
            txMessages.add(block.transactions().get(m.index()).serialize(false));
        }
        out.println("peer    -> merkleblock " + merkleBlockMessage.length + " bytes and " + txMessages.size()
                + " tx messages");

        return receive(out, key, Hash256.fromDisplayHex(BLOCK_HASH), merkleBlockMessage, txMessages);
    }

    /**
     * The wallet's side of the answer to its request for the filtered block {@code requested}, a hash from its chain
     * of headers.
     *
     * @throws IllegalStateException when the merkleblock's header is not the block asked for: a proof checks only
     *     against its own header, which anyone can write around a merkle root of their own
     */
    static Result receive(PrintStream out, ECKey key, Hash256 requested, byte[] merkleBlockMessage,
                          List<byte[]> txMessages) {
        // Wallet side: verify the proof, then accept only the transactions it proves.
        MerkleBlock received = MerkleBlock.parse(merkleBlockMessage);
        if (!received.header().hash().equals(requested)) {
            throw new IllegalStateException("the peer answered with block " + received.header().hash()
                    + ", not the block asked for, " + requested);
        }
        List<MatchedTransaction> proven = received.verify();
        FilteredBlock asBitcoinj = BitcoinjAdapters.toBitcoinj(received);
        // Both in tree order, so the order is compared too.
        List<String> bitcoinjTxids = new ArrayList<>();
        asBitcoinj.getTransactionHashes().forEach(hash -> bitcoinjTxids.add(hash.toString()));
        List<String> ourTxids = new ArrayList<>();
        proven.forEach(m -> ourTxids.add(m.txid().toString()));
        if (!bitcoinjTxids.equals(ourTxids)) {
            throw new IllegalStateException("bitcoinj and chainfilter disagree on the proof: bitcoinj proves "
                    + bitcoinjTxids + ", chainfilter " + ourTxids);
        }
        Map<Hash256, Integer> positions = new HashMap<>();
        for (MatchedTransaction m : proven) {
            positions.put(m.txid(), m.index());
        }
        Map<Integer, org.bitcoinj.core.Transaction> accepted = new java.util.TreeMap<>();
        long paid = 0;
        for (byte[] message : txMessages) {
            Transaction tx = Transaction.parse(message);
            Integer position = positions.get(tx.txid());
            if (position == null) {
                out.println("wallet     ignores " + tx.txid() + ": not in the proof");
                continue;
            }
            if (accepted.containsKey(position)) {
                // A second copy would credit its payments again.
                out.println("wallet     ignores " + tx.txid() + ": received twice");
                continue;
            }
            String refusal = refusal(tx);
            if (refusal != null) {
                out.println("wallet     refuses " + tx.txid() + ": " + refusal);
                continue;
            }
            org.bitcoinj.core.Transaction theirs = BitcoinjAdapters.toBitcoinj(tx);
            accepted.put(position, theirs);
            for (var output : theirs.getOutputs()) {
                var script = output.getScriptPubKey();
                boolean mine = ScriptPattern.isP2PK(script)
                        && java.util.Arrays.equals(ScriptPattern.extractKeyFromP2PK(script), key.getPubKey());
                if (mine) {
                    paid += output.getValue().value;
                }
            }
            out.println("wallet     accepts tx " + position + " " + theirs.getTxId());
        }
        out.println("block " + received.header().hash() + ": " + proven.size() + " proven transactions, "
                + paid + " satoshis paid to the wallet's key");
        return new Result(received.header().hash(), proven, accepted, paid);
    }

    /**
     * Why a proven transaction cannot be trusted on its proof alone, or null: one whose non-witness serialization is
     * 64 bytes hashes like an inner Merkle node (two 32-byte hashes), so a partial Merkle proof can pass an inner node
     * off as it, or it off as an inner node (CVE-2017-12842; see the README's Security section).
     */
    static String refusal(Transaction tx) {
        int length = tx.serialize(false).length;
        return length == INNER_NODE_BYTES ? "its non-witness serialization is " + length
                + " bytes, the size of a Merkle inner node (CVE-2017-12842)" : null;
    }

    private static String blockHex() {
        try (InputStream in = SpvWalletExample.class.getResourceAsStream("block_5a4ded.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> l.startsWith("raw=")).findFirst().orElseThrow().substring(4);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
