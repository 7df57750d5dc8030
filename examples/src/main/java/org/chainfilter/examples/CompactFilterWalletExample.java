package org.chainfilter.examples;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.chainfilter.bip158.BasicFilter;
import org.chainfilter.bip158.CFilter;
import org.chainfilter.bip158.FilterHeaders;
import org.chainfilter.bip158.GcsFilter;
import org.chainfilter.bip158.GcsQuery;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxOutput;
import org.chainfilter.common.Hex;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * A BIP157/BIP158 light wallet's flow, run on the ten Bitcoin testnet3 blocks of the BIP158 test vectors (bundled by
 * the {@code testvectors} module, with their published filter headers):
 * <ol>
 *   <li>The wallet trusts one chain of filter headers. A real wallet gets it from several peers' {@code cfheaders}
 *       and {@code cfcheckpt} messages and keeps the chain they agree on ({@code FilterHeaders.firstDisagreement}
 *       finds where two disagree); here it is the vectors' published headers. Its chain of block headers, which says
 *       which block hash each height has, is likewise the vectors' published block hashes.</li>
 *   <li>For each block it asks a peer for the {@code cfilter} and accepts it only if it names the block asked for
 *       (the hash from the wallet's block headers: the filter header does not commit to it, and it keys the filter's
 *       SipHash, so the true filter under another block's hash chains to the header and hides the block's
 *       payments) and {@code dSHA256(dSHA256(filter) || previous header)} is the trusted header. The first peer asked
 *       withholds: it serves filters built without the wallet's scripts, the way a peer hiding payments would. Its
 *       filters of the blocks that pay the wallet fail the check; the wallet stops asking it and asks the honest
 *       peer.</li>
 *   <li>It matches its scripts against each accepted filter ({@link GcsQuery}: one buffer kept for the wallet, its
 *       scripts hashed and sorted again under each block's key, no allocation per block) and downloads only the
 *       blocks that match.</li>
 *   <li>For each block it downloads (from a peer, which may send another block) it checks the hash against the block
 *       asked for and the merkle root against the transactions, checks that the filter holds every output script of
 *       the block (the part of a filter a light client can verify without the scripts the inputs spend), and collects
 *       the outputs that pay it.</li>
 * </ol>
 * Run: {@code mvn -q -pl examples exec:java -Dexec.mainClass=org.chainfilter.examples.CompactFilterWalletExample}
 * (after {@code mvn -q -pl examples -am install -DskipTests}).
 */
public final class CompactFilterWalletExample {
    /** P2PKH script paid twice in testnet3 block 926485 (the vectors' "Duplicate pushdata 913bcc2b..." row). */
    static final String P2PKH_SCRIPT = "76a914913bcc2be49cb534c20474c4dee1e9c4c317e7eb88ac";
    /** P2WPKH script paid in testnet3 block 1263442 (the vectors' "Includes witness data" row). */
    static final String P2WPKH_SCRIPT = "001446c29eabe8208a33aa1023c741fa79aa92e881ff";
    /** A P2WPKH script no bundled block pays: the wallet's fresh receiving address. */
    static final String UNUSED_SCRIPT = "0014000102030405060708090a0b0c0d0e0f10111213";

    private CompactFilterWalletExample() {
    }

    /** What the wallet did: which blocks it downloaded, which served filters it refused, what it was paid. */
    record Result(List<Integer> downloadedHeights, List<Integer> refusedHeights, List<String> payments,
                  long paidSatoshis, long filterBytes, long downloadedBlockBytes, long allBlockBytes) {
    }

    /** A peer asked for a block's basic filter: the {@code cfilter} payload it answers for the block. */
    interface Peer {
        byte[] cfilter(Block block, List<byte[]> spentScripts);
    }

    /** A peer asked for a block: the bytes it answers with, given the block as the full node stores it. */
    interface BlockPeer {
        byte[] block(byte[] stored);
    }

    /**
     * One block of the chain: the full node's view (block, its bytes and the scripts its inputs spend), then what the
     * wallet trusts, the block's hash from its chain of block headers and the filter headers.
     */
    private record ChainBlock(int height, Block block, byte[] raw, List<byte[]> spentScripts, Hash256 hash,
                              Hash256 previousHeader, Hash256 header) {
    }

    public static void main(String[] args) {
        run(new PrintStream(System.out, true, StandardCharsets.UTF_8));
    }

    static Result run(PrintStream out) {
        return run(out, CompactFilterWalletExample::withholdingPeer);
    }

    /** The wallet's flow with {@code firstPeer} asked first, until one of its filters fails the checks. */
    static Result run(PrintStream out, Peer firstPeer) {
        return run(out, firstPeer, stored -> stored);
    }

    /** {@link #run(PrintStream, Peer)} with the matching blocks downloaded from {@code blockPeer}. */
    static Result run(PrintStream out, Peer firstPeer, BlockPeer blockPeer) {
        List<byte[]> walletScripts = walletScripts();
        GcsQuery query = GcsQuery.of(walletScripts);
        List<ChainBlock> chain = chain();

        List<Integer> downloaded = new ArrayList<>();
        List<Integer> refused = new ArrayList<>();
        List<String> payments = new ArrayList<>();
        long paid = 0;
        long filterBytes = 0;
        long refusedFilterBytes = 0;
        long downloadedBytes = 0;
        long allBytes = 0;
        boolean withholdingPeerBanned = false;

        out.println("Wallet scripts: " + P2PKH_SCRIPT + " (P2PKH), " + P2WPKH_SCRIPT + " (P2WPKH), " + UNUSED_SCRIPT
                + " (unused)");
        out.printf(Locale.ROOT, "%-8s %-10s %-32s %-7s %s%n", "height", "filter", "served by", "match", "action");
        for (ChainBlock entry : chain) {
            allBytes += entry.raw.length;
            CFilter served = null;
            String servedBy;
            if (!withholdingPeerBanned) {
                CFilter offered = CFilter.parse(firstPeer.cfilter(entry.block, entry.spentScripts));
                if (isFilterOf(offered, entry)) {
                    served = offered;
                    servedBy = "peer A";
                } else {
                    // Received all the same: the wallet paid for these bytes too.
                    filterBytes += offered.filterBytes().length;
                    refusedFilterBytes += offered.filterBytes().length;
                    refused.add(entry.height);
                    withholdingPeerBanned = true;
                    servedBy = "peer B (peer A's filter refused)";
                }
            } else {
                servedBy = "peer B";
            }
            if (served == null) {
                served = CFilter.parse(honestPeer(entry.block, entry.spentScripts));
                if (!isFilterOf(served, entry)) {
                    throw new IllegalStateException("no peer serves a filter matching the header of block "
                            + entry.height);
                }
            }
            BasicFilter filter = served.basicFilter();
            filterBytes += served.filterBytes().length;
            boolean match = filter.matchAny(query);
            String action = "skipped, block not downloaded";
            if (match) {
                byte[] raw = blockPeer.block(entry.raw);
                Block block = download(entry, raw);
                downloaded.add(entry.height);
                downloadedBytes += raw.length;
                List<byte[]> missing = outputScriptsMissingFrom(filter, block);
                if (!missing.isEmpty()) {
                    throw new IllegalStateException("the filter of block " + entry.height + " lacks output script "
                            + Hex.encode(missing.get(0)) + " though its header checked");
                }
                int found = 0;
                for (Transaction tx : block.transactions()) {
                    List<TxOutput> outputs = tx.outputs();
                    for (int i = 0; i < outputs.size(); i++) {
                        byte[] script = outputs.get(i).scriptPubKey();
                        if (contains(walletScripts, script)) {
                            payments.add(tx.txid() + ":" + i + " " + outputs.get(i).valueSatoshis() + " sat to "
                                    + Hex.encode(script));
                            paid += outputs.get(i).valueSatoshis();
                            found++;
                        }
                    }
                }
                action = "downloaded " + raw.length + " bytes, " + found + " payment(s) to the wallet";
            }
            out.printf(Locale.ROOT, "%-8d %-10s %-32s %-7s %s%n", entry.height,
                    served.filterBytes().length + " B", servedBy, match ? "yes" : "no", action);
        }
        for (String payment : payments) {
            out.println("  paid: " + payment);
        }
        out.printf(Locale.ROOT, "Downloaded %d of %d blocks (%d of %d bytes) after %d bytes of filters (%d of them"
                        + " refused); refused peer A's filter of block(s) %s; received %d sat.%n", downloaded.size(),
                chain.size(), downloadedBytes, allBytes, filterBytes, refusedFilterBytes, refused, paid);
        return new Result(List.copyOf(downloaded), List.copyOf(refused), List.copyOf(payments), paid, filterBytes,
                downloadedBytes, allBytes);
    }

    /**
     * Whether a served filter is the basic filter of {@code entry}'s block: it names the block's hash from the wallet's
     * headers and its header, on the trusted previous one, is the trusted header.
     */
    private static boolean isFilterOf(CFilter served, ChainBlock entry) {
        return served.blockHash().equals(entry.hash)
                && headerOf(served, entry.previousHeader).equals(entry.header);
    }

    /** The header a served filter yields on {@code previousHeader}: dSHA256(dSHA256(filter bytes) || previous). */
    static Hash256 headerOf(CFilter filter, Hash256 previousHeader) {
        return FilterHeaders.header(filter.filterHash(), previousHeader);
    }

    /**
     * The block's output scripts that the filter should hold and does not (BIP158: every non-empty output script that
     * does not start with OP_RETURN). A light client can check this part of a filter; the scripts the inputs spend it
     * cannot, since it does not have them.
     */
    static List<byte[]> outputScriptsMissingFrom(BasicFilter filter, Block block) {
        List<byte[]> missing = new ArrayList<>();
        for (Transaction tx : block.transactions()) {
            for (TxOutput output : tx.outputs()) {
                byte[] script = output.scriptPubKey();
                if (script.length > 0 && (script[0] & 0xff) != 0x6a && !filter.match(script)) {
                    missing.add(script);
                }
            }
        }
        return missing;
    }

    /** The wallet's scripts: two that bundled blocks pay and one that none does. */
    static List<byte[]> walletScripts() {
        return List.of(Hex.decode(P2PKH_SCRIPT), Hex.decode(P2WPKH_SCRIPT), Hex.decode(UNUSED_SCRIPT));
    }

    /** The full node's {@code cfilter} payload for the block. */
    private static byte[] honestPeer(Block block, List<byte[]> spentScripts) {
        return CFilter.of(BasicFilter.build(block, spentScripts)).serialize();
    }

    /** A peer that hides the wallet's payments: its filters leave out the wallet's scripts. */
    private static byte[] withholdingPeer(Block block, List<byte[]> spentScripts) {
        List<byte[]> walletScripts = walletScripts();
        List<byte[]> elements = new ArrayList<>();
        for (byte[] element : BasicFilter.elements(block, spentScripts)) {
            if (!contains(walletScripts, element)) {
                elements.add(element);
            }
        }
        GcsFilter gcs = GcsFilter.build(BasicFilter.params(block.hash()), elements);
        return new CFilter(block.hash(), gcs.encoded()).serialize();
    }

    /**
     * The block a peer sent for {@code entry}, checked against the hash the wallet's headers give and against its
     * merkle root.
     */
    private static Block download(ChainBlock entry, byte[] raw) {
        Block block = Block.parse(raw);
        if (!block.hash().equals(entry.hash)) {
            throw new IllegalStateException("block " + entry.height + " has hash " + block.hash() + ", not "
                    + entry.hash);
        }
        if (!block.merkleRootMatches()) {
            throw new IllegalStateException("block " + entry.height + " does not match its merkle root");
        }
        return block;
    }

    private static boolean contains(Collection<byte[]> scripts, byte[] script) {
        for (byte[] candidate : scripts) {
            if (java.util.Arrays.equals(candidate, script)) {
                return true;
            }
        }
        return false;
    }

    /** The bundled BIP158 rows (Bitcoin Core's blockfilters.json, carried into the testvectors module). */
    private static List<ChainBlock> chain() {
        List<ChainBlock> chain = new ArrayList<>();
        for (Vector row : Suites.bundled("bip158-basic.core.json").vectors()) {
            byte[] raw = row.hex("block");
            chain.add(new ChainBlock(row.count("height"), Block.parse(raw), raw, row.hexList("prevoutScripts"),
                    Hash256.fromDisplayHex(Hex.encode(row.hex("blockHash", Hash256.LENGTH))),
                    Hash256.fromDisplayHex(Hex.encode(row.hex("prevHeader", Hash256.LENGTH))),
                    Hash256.fromDisplayHex(Hex.encode(row.hex("header", Hash256.LENGTH)))));
        }
        return chain;
    }
}
