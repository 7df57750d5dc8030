package org.chainfilter.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.Bip37UpdateMode;
import org.chainfilter.bip37.MatchedTransaction;
import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.common.Hex;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code chainfilter bip37}: BIP37 connection Bloom filters and merkle blocks, as Bitcoin Core computes them. */
@Command(name = "bip37", mixinStandardHelpOptions = true,
        description = "BIP37 Bloom filters: create a filterload, match a transaction, build and verify merkle blocks.",
        subcommands = {Bip37Command.Create.class, Bip37Command.Match.class, Bip37Command.MerkleBlockBuild.class,
            Bip37Command.Verify.class})
final class Bip37Command implements Runnable {
    /** Exit status when nothing matches: distinct from errors (1, 2) so scripts can branch on it. */
    static final int NO_MATCH = 3;

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "a bip37 command is required: create, match, merkleblock or verify");
    }

    /**
     * {@code --filterload HEX} or {@code --filterload-file FILE}, the filter of the match and merkleblock commands. Use
     * with {@code @Mixin}.
     */
    static final class FilterLoadOption {
        @Option(names = "--filterload", paramLabel = "HEX",
                description = "The filterload payload as hex (Core's limits apply).")
        private String hex;

        @Option(names = "--filterload-file", paramLabel = "FILE",
                description = "A file holding the filterload payload as hex (line breaks allowed); '-' reads stdin.")
        private Path file;

        /** The filter, refused with Core's limits named (36,000 bytes, 50 hash functions). */
        Bip37BloomFilter parse() throws IOException {
            String text = CliInputs.oneOf(hex, file, "--filterload", "--filterload-file");
            String source = hex != null ? "--filterload" : "--filterload-file " + file;
            byte[] bytes = CliInputs.hex(source, text);
            return CliInputs.parsed(source, () -> Bip37BloomFilter.parseFilterLoad(bytes));
        }

        Path file() {
            return file;
        }

        /** Refuses both or neither of {@code --filterload} and {@code --filterload-file}, before anything is read. */
        void requireOne() {
            CliInputs.requireOneOf(hex, file, "--filterload", "--filterload-file");
        }
    }

    private static void printFilter(PrintWriter out, Bip37BloomFilter filter) {
        out.println("filterload  " + Hex.encode(filter.toFilterLoad()));
        out.println("bytes       " + filter.byteLength());
        out.println("nHashFuncs  " + filter.hashFunctionCount());
        out.println("nTweak      " + filter.tweakUnsigned());
        out.println("nFlags      " + filter.flags() + " (" + filter.updateMode() + ")");
    }

    /** {@code chainfilter bip37 create}. */
    @Command(name = "create", mixinStandardHelpOptions = true,
            description = {"Create a filter with Core's sizing, insert items and print its filterload.",
                "The filter is sized for N elements at a false-positive rate; the filterload payload and its fields are"
                    + " printed."})
    static final class Create implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--elements", paramLabel = "N", required = true, converter = ElementCountConverter.class,
                description = "nElements (at least 1): an integer, with _ separators or as 1e6 if you like.")
        private long elements;

        @Option(names = "--fp-rate", paramLabel = "P", required = true, converter = MathCommand.RateConverter.class,
                description = "nFPRate, in (0, 1].")
        private double falsePositiveRate;

        @Option(names = "--tweak", paramLabel = "N",
                description = "nTweak, 0..4294967295, decimal or 0x-hex (default: from a SecureRandom).")
        private String tweak;

        @Option(names = "--update", paramLabel = "MODE", defaultValue = "ALL",
                description = "NONE, ALL or P2PUBKEY_ONLY (default ${DEFAULT-VALUE}); --flags overrides it.")
        private Bip37UpdateMode update;

        @Option(names = "--flags", paramLabel = "BYTE",
                description = "The whole nFlags byte, 0..255, decimal or 0x-hex (as --tweak).")
        private String flags;

        @Option(names = "--insert", paramLabel = "HEX", description = "Bytes to insert as they are (repeatable).")
        private List<String> inserts = new ArrayList<>();

        @Option(names = "--insert-hash", paramLabel = "HEX",
                description = "A txid or other hash in display order, inserted in internal order (repeatable).")
        private List<String> hashes = new ArrayList<>();

        @Option(names = "--insert-outpoint", paramLabel = "TXID:N",
                description = "An outpoint (display txid, output index), inserted as 36 bytes (repeatable).")
        private List<String> outPoints = new ArrayList<>();

        @Override
        public Integer call() {
            long tweakValue = tweak != null ? HashCommand.decimalOrHex(tweak, "--tweak") : 0;
            if (tweak != null && (tweakValue < 0 || tweakValue > 0xffffffffL)) {
                throw new IllegalArgumentException("--tweak is " + tweak.strip() + "; nTweak is 0..4294967295");
            }
            long flagsValue = flags != null ? HashCommand.decimalOrHex(flags, "--flags") : update.flagValue();
            if (flagsValue < 0 || flagsValue > 0xff) {
                throw new IllegalArgumentException("--flags is " + flags.strip() + "; nFlags is one byte, 0..255");
            }
            int nFlags = (int) flagsValue;
            int nTweak = tweak != null ? (int) tweakValue : new SecureRandom().nextInt();
            Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(elements, falsePositiveRate, nTweak, nFlags);
            for (byte[] item : CliInputs.decodeHex("--insert", inserts)) {
                filter.insert(item);
            }
            for (String hash : hashes) {
                filter.insert(CliInputs.displayHash("--insert-hash", hash));
            }
            for (String outPoint : outPoints) {
                filter.insertOutPoint(parseOutPoint(outPoint));
            }
            printFilter(spec.commandLine().getOut(), filter);
            if (filter.matchesAll()) {
                // Core's sizing does this without a word (CVE-2013-5700's match-all rule); a wallet should know.
                spec.commandLine().getErr().println("chainfilter: note: Core's sizing of " + elements
                        + " elements at rate " + falsePositiveRate + " gives "
                        + (filter.byteLength() == 0 ? "0 bytes of vData" : "0 hash functions")
                        + ", a filter that matches everything: a peer would send every transaction");
            }
            return 0;
        }

        private static OutPoint parseOutPoint(String text) {
            int colon = text.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("outpoint '" + text + "' is not TXID:INDEX");
            }
            String digits = text.substring(colon + 1);
            if (!digits.matches("-?[0-9]+")) {
                throw new IllegalArgumentException("outpoint index '" + digits + "' is not a number");
            }
            if (digits.startsWith("-") || digits.replaceFirst("^0+(?=.)", "").length() > 10
                    || Long.parseLong(digits) > 0xffffffffL) {
                throw new IllegalArgumentException("outpoint index " + digits + " is outside the uint32 range"
                        + " 0..4294967295");
            }
            long index = Long.parseLong(digits);
            return new OutPoint(CliInputs.displayHash("--insert-outpoint txid", text.substring(0, colon)), index);
        }
    }

    /** {@code chainfilter bip37 match}. */
    @Command(name = "match", mixinStandardHelpOptions = true,
            description = {"Run Core's IsRelevantAndUpdate of a transaction against a filter.",
                "Prints 'match' (exit 0) or 'no match' (exit 3), then the filter after the update."})
    static final class Match implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private FilterLoadOption filterLoad;

        @Option(names = "--tx", paramLabel = "HEX",
                description = "The serialized transaction (legacy or segwit) as hex.")
        private String tx;

        @Option(names = "--tx-file", paramLabel = "FILE",
                description = "A file holding the transaction as hex (line breaks allowed); '-' reads stdin.")
        private Path txFile;

        @Override
        public Integer call() throws IOException {
            filterLoad.requireOne();
            CliInputs.requireOneOf(tx, txFile, "--tx", "--tx-file");
            CliInputs.atMostOneStdin("--filterload-file", filterLoad.file(), "--tx-file", txFile);
            Bip37BloomFilter filter = filterLoad.parse();
            String text = CliInputs.oneOf(tx, txFile, "--tx", "--tx-file");
            String source = tx != null ? "--tx" : "--tx-file " + txFile;
            byte[] bytes = CliInputs.hex(source, text);
            Transaction transaction = CliInputs.parsed(source, () -> Transaction.parse(bytes));
            boolean match = filter.isRelevantAndUpdate(transaction);
            PrintWriter out = spec.commandLine().getOut();
            out.println(match ? "match" : "no match");
            out.println("txid        " + transaction.txid());
            printFilter(out, filter);
            return match ? 0 : NO_MATCH;
        }
    }

    /** {@code chainfilter bip37 merkleblock}. */
    @Command(name = "merkleblock", mixinStandardHelpOptions = true,
            description = {"Build the merkleblock a Core node sends for a block and a filter.",
                "Prints the merkleblock hex, each matched 'index txid', and the filter after the updates."})
    static final class MerkleBlockBuild implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private FilterLoadOption filterLoad;

        @Mixin
        private CliInputs.BlockSource blockSource;

        @Override
        public Integer call() throws IOException {
            filterLoad.requireOne();
            blockSource.requireOne();
            CliInputs.atMostOneStdin("--filterload-file", filterLoad.file(), "--block-file", blockSource.file());
            Bip37BloomFilter filter = filterLoad.parse();
            Block block = blockSource.read();
            MerkleBlock merkleBlock = MerkleBlock.fromBlockAndFilter(block, filter);
            PrintWriter out = spec.commandLine().getOut();
            out.println("merkleblock " + merkleBlock.toHex());
            for (MatchedTransaction m : merkleBlock.builtMatches()) {
                out.println("matched     " + m.index() + " " + m.txid());
            }
            printFilter(out, filter);
            return 0;
        }
    }

    /** {@code chainfilter bip37 verify}. */
    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = {"Check a merkleblock as Core's ExtractMatches does and against its header's merkle root.",
                "Prints the block, root, the peer's transaction count (which the root does not commit to) and each"
                    + " matched 'index txid', or why it is invalid (exit 1)."})
    static final class Verify implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--merkleblock", paramLabel = "HEX", description = "The merkleblock payload as hex.")
        private String merkleBlockHex;

        @Option(names = "--merkleblock-file", paramLabel = "FILE",
                description = "A file holding the merkleblock payload as hex (line breaks allowed); '-' reads stdin.")
        private Path merkleBlockFile;

        @Override
        public Integer call() throws IOException {
            String text = CliInputs.oneOf(merkleBlockHex, merkleBlockFile, "--merkleblock", "--merkleblock-file");
            String source = merkleBlockHex != null ? "--merkleblock" : "--merkleblock-file " + merkleBlockFile;
            byte[] bytes = CliInputs.hex(source, text);
            MerkleBlock merkleBlock = CliInputs.parsed(source, () -> MerkleBlock.parse(bytes));
            List<MatchedTransaction> matches = merkleBlock.verify();
            PrintWriter out = spec.commandLine().getOut();
            out.println("block        " + merkleBlock.header().hash());
            out.println("root         " + merkleBlock.header().merkleRoot());
            // The root commits to the tree's shape only up to the padding of its last level, so a peer can state
            // another count for the same root (bip37 PartialMerkleTreePropertyTest shows one): it is the peer's claim.
            out.println("transactions " + merkleBlock.tree().transactionCount() + " (as the peer states it; the root"
                    + " does not commit to the count)");
            for (MatchedTransaction m : matches) {
                out.println("matched      " + m.index() + " " + m.txid());
            }
            return 0;
        }
    }

    /**
     * nElements written as for {@code math} (1000000, 1_000_000, 1e6). A number that does not fit a long is refused
     * here naming Core's range, not the long's; one that fits is checked by the filter, as a refused value (status 1).
     */
    static final class ElementCountConverter implements picocli.CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            java.math.BigDecimal value = MathCommand.wholeNumber(text);
            if (value.abs().compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                throw new picocli.CommandLine.TypeConversionException("nElements is " + text.strip()
                        + "; it must be 1..4294967295 (Core's uint32, and Core divides by it)");
            }
            return value.longValueExact();
        }
    }
}
