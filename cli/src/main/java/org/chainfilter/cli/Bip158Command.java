package org.chainfilter.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.chainfilter.bip158.BasicFilter;
import org.chainfilter.bip158.FilterHeaders;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.common.Hex;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code chainfilter bip158}: BIP158 basic block filters from the command line. */
@Command(name = "bip158",
        description = "BIP158 basic block filters: build one from a block, match scripts against one.",
        mixinStandardHelpOptions = true, subcommands = {Bip158Command.Build.class, Bip158Command.Match.class})
final class Bip158Command implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a bip158 command is required: build or match");
    }

    /** {@code chainfilter bip158 build}. */
    @Command(name = "build", mixinStandardHelpOptions = true,
            description = {"Build the basic filter of a block from the block and the scripts its inputs spend.",
                "Prints the block hash, N, the filter, its hash and (with --prev-header) its header; hashes and"
                    + " headers in display (RPC) order."})
    static final class Build implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private CliInputs.BlockSource blockSource;

        @Option(names = "--spent", paramLabel = "HEX",
                description = "A scriptPubKey spent by the block, one per input after the coinbase, in block order"
                    + " (repeat the option; '' for an empty script).")
        private List<String> spent = new ArrayList<>();

        @Option(names = "--spent-file", paramLabel = "FILE",
                description = "A file with the spent scripts as hex, one per line (an empty line is an empty script);"
                        + " '-' reads stdin.")
        private Path spentFile;

        @Option(names = "--prev-header", paramLabel = "HEX",
                description = "The previous filter header in display order (all zeros before the genesis block).")
        private String previousHeader;

        @Override
        public Integer call() throws IOException {
            blockSource.requireOne();
            if (blockSource.readsStdin() && spentFile != null && spentFile.toString().equals(CliInputs.STDIN)) {
                throw new UsageException("--block-file and --spent-file both read stdin ('-'); give one of them a"
                        + " file");
            }
            if (!spent.isEmpty() && spentFile != null) {
                // Alternatives: merged, half the scripts from each would pass a count check by chance.
                throw new UsageException("--spent and --spent-file are alternatives; give the spent scripts one way");
            }
            Block block = blockSource.read();
            List<byte[]> scripts = CliInputs.decodeHex("--spent", spent);
            if (spentFile != null) {
                scripts.addAll(CliInputs.decodeHexLines(spentFile, "--spent-file"));
            }
            // Read before anything is printed, so a bad header leaves no partial answer on stdout.
            Hash256 previous = previousHeader == null ? null : CliInputs.displayHash("--prev-header", previousHeader);
            BasicFilter filter = BasicFilter.build(block, scripts);
            PrintWriter out = spec.commandLine().getOut();
            out.println("block       " + block.hash());
            out.println("elements    " + filter.gcs().elementCount());
            out.println("filter      " + Hex.encode(filter.encoded()));
            out.println("filter-hash " + filter.filterHash());
            if (previous != null) {
                out.println("header      " + FilterHeaders.header(filter.filterHash(), previous));
            }
            return 0;
        }
    }

    /** {@code chainfilter bip158 match}. */
    @Command(name = "match", mixinStandardHelpOptions = true,
            description = {"Whether any of the scripts may be in the block the basic filter belongs to.",
                "Prints 'match' (exit status 0) or 'no match' (exit status 3); a match may be a false positive"
                    + " (about 1 in 784931 per script)."})
    static final class Match implements Callable<Integer> {
        /** Exit status when no script matches: distinct from errors (1, 2) so scripts can branch on it. */
        static final int NO_MATCH = 3;

        @Spec
        private CommandSpec spec;

        @Option(names = "--filter", paramLabel = "HEX",
                description = "The serialized basic filter (CompactSize N, then the bit stream) as hex.")
        private String filterHex;

        @Option(names = "--filter-file", paramLabel = "FILE",
                description = "A file holding the filter as hex (line breaks allowed); '-' reads stdin.")
        private Path filterFile;

        @Option(names = "--block-hash", paramLabel = "HEX", required = true,
                description = "The block's hash in display (RPC) order: it keys the filter.")
        private String blockHash;

        @Parameters(paramLabel = "SCRIPT", arity = "1..*", description = "scriptPubKeys to look for, as hex.")
        private List<String> scripts;

        @Override
        public Integer call() throws IOException {
            String text = CliInputs.oneOf(filterHex, filterFile, "--filter", "--filter-file");
            Hash256 hash = CliInputs.displayHash("--block-hash", blockHash);
            String source = filterHex != null ? "--filter" : "--filter-file " + filterFile;
            byte[] bytes = CliInputs.hex(source, text);
            BasicFilter filter = CliInputs.parsed(source, () -> BasicFilter.parse(hash, bytes));
            boolean match = filter.matchAny(CliInputs.decodeHex("SCRIPT", scripts));
            spec.commandLine().getOut().println(match ? "match" : "no match");
            return match ? 0 : NO_MATCH;
        }
    }
}
