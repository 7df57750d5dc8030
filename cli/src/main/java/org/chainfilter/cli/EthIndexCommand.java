package org.chainfilter.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.chainfilter.ethbloom.index.SectionIndexWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code chainfilter eth index}: a bit-sliced (go-ethereum bloombits) index of header blooms. */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = "A bit-sliced index of header blooms (sections of 4096 blocks): build it, query it.",
        subcommands = {EthIndexCommand.Build.class, EthIndexCommand.Query.class})
final class EthIndexCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "an index command is required: build or query");
    }

    /** {@code chainfilter eth index build}. */
    @Command(name = "build", mixinStandardHelpOptions = true,
            description = {"Append header blooms to the index in DIR (created when missing; an existing index",
                "resumes after its last block). Input: one block per line, 'NUMBER HEX' or just 'HEX' (numbers",
                "then follow the index's next block); blank lines and lines starting with # are skipped."})
    static final class Build implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--index", paramLabel = "DIR", required = true, description = "The index directory.")
        private Path directory;

        @Option(names = "--blooms", paramLabel = "FILE", required = true,
                description = "The file of header blooms; '-' reads stdin.")
        private String bloomsFile;

        @Option(names = "--first-block", paramLabel = "N", defaultValue = "0",
                description = "The first block of a new index (default ${DEFAULT-VALUE}).")
        private long firstBlock;

        @Override
        public Integer call() throws IOException {
            long appended = 0;
            try (SectionIndexWriter writer = SectionIndexWriter.open(directory, firstBlock);
                 BufferedReader in = bloomsFile.equals("-")
                         ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                         : Files.newBufferedReader(Path.of(bloomsFile))) {
                String line;
                int lineNumber = 0;
                while ((line = in.readLine()) != null) {
                    lineNumber++;
                    String text = line.strip();
                    if (text.isEmpty() || text.startsWith("#")) {
                        continue;
                    }
                    String[] fields = text.split("\\s+");
                    if (fields.length > 2) {
                        throw new IllegalArgumentException("line " + lineNumber + " has " + fields.length
                                + " fields; expected 'NUMBER HEX' or 'HEX'");
                    }
                    long number = fields.length == 2 ? parseBlockNumber(fields[0], lineNumber) : writer.nextBlock();
                    LogsBloom bloom;
                    try {
                        bloom = LogsBloom.fromHex(fields[fields.length - 1]);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("line " + lineNumber + ": " + e.getMessage(), e);
                    }
                    writer.append(number, bloom);
                    appended++;
                }
            }
            SectionIndex index = SectionIndex.open(directory);
            spec.commandLine().getOut().println("appended " + appended + " blocks; " + index);
            return 0;
        }

        private static long parseBlockNumber(String text, int lineNumber) {
            try {
                long number = text.startsWith("0x") ? Long.parseLong(text.substring(2), 16) : Long.parseLong(text);
                if (number < 0) {
                    throw new NumberFormatException();
                }
                return number;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("line " + lineNumber + ": '" + text + "' is not a block number");
            }
        }
    }

    /** {@code chainfilter eth index query}. */
    @Command(name = "query", mixinStandardHelpOptions = true,
            description = {"Print, one per line, the blocks in FROM..TO whose header bloom could match the filter",
                "(candidates: every matching block is among them, some may be false positives).",
                "A summary goes to stderr."})
    static final class Query implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--index", paramLabel = "DIR", required = true, description = "The index directory.")
        private Path directory;

        @Option(names = "--from", paramLabel = "N", description = "First block (default: the index's first).")
        private Long fromBlock;

        @Option(names = "--to", paramLabel = "N", description = "Last block, inclusive (default: the index's last).")
        private Long toBlock;

        @Mixin
        private EthFilterOptions filterOptions;

        @Override
        public Integer call() {
            SectionIndex index = SectionIndex.open(directory);
            if (index.indexedBlockCount() == 0) {
                throw new IllegalArgumentException("the index in " + directory + " holds no block yet");
            }
            long from = fromBlock != null ? fromBlock : index.firstBlock();
            long to = toBlock != null ? toBlock : index.endBlockExclusive() - 1;
            LogFilter filter = filterOptions.filter();
            long[] candidates = index.candidates(filter, from, to);
            PrintWriter out = spec.commandLine().getOut();
            for (long block : candidates) {
                out.println(block);
            }
            spec.commandLine().getErr().println(candidates.length + " candidate blocks of " + (to - from + 1)
                    + (filter.isMatchAll() ? " (the filter matches every block)" : ""));
            return 0;
        }
    }
}
