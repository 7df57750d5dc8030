package org.chainfilter.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.ethbloom.index.BloomBitsMatcher;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.chainfilter.ethbloom.index.SectionIndexWriter;
import org.chainfilter.ethbloom.scan.HeaderReader;
import org.chainfilter.ethbloom.scan.RetryPolicy;
import org.chainfilter.ethbloom.scan.ScanException;
import org.chainfilter.ethbloom.scan.ScanListener;
import org.chainfilter.ethbloom.web3j.Web3jLogs;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.http.HttpService;
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

    /**
     * Refuses an index directory that does not exist or is a file, naming the option: the index's own refusal
     * ("holds no section index (index.meta is missing)") fits only a directory that exists without an index.
     *
     * @return {@code directory}
     */
    static Path existingDirectory(Path directory, String option) {
        if (!Files.exists(directory)) {
            throw new IllegalArgumentException(option + " " + directory + ": no such directory");
        }
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException(option + " " + directory + " is a file, not a directory");
        }
        return directory;
    }

    /** {@code chainfilter eth index build}. */
    @Command(name = "build", mixinStandardHelpOptions = true,
            description = {"Append header blooms to the index in DIR, from a file or from a JSON-RPC node. DIR is"
                    + " created when missing; an existing index resumes after its last block.",
                "File: one block per line, 'NUMBER HASH PARENTHASH BLOOM' (each block's parent hash must be the"
                    + " previous block's hash, so that the hash stored for each section's last block vouches for all"
                    + " its blooms); blank lines and lines starting with # are skipped.",
                "Node: eth_getBlockByNumber in batches, up to --to (default: the head) but never past the head minus"
                    + " --confirmations: an index is never rewritten, so a block indexed before a reorganisation"
                    + " would keep the bloom of the abandoned fork and eth scan --index would skip it."})
    static final class Build implements Callable<Integer> {
        /** The most requests in one JSON-RPC batch (providers commonly cap batches near 1000). */
        static final int MAX_BATCH = 1000;
        /**
         * The longest {@code --blooms} line read: a block number, two 0x hashes and a 0x bloom take under 700
         * characters, and this leaves room for white space.
         */
        static final int MAX_BLOOMS_LINE_CHARS = 4096;
        /** Blocks kept out of the index below the head by default: eth scan's default confirmations. */
        static final int DEFAULT_CONFIRMATIONS = 12;

        @Spec
        private CommandSpec spec;

        @Option(names = "--index", paramLabel = "DIR", required = true, description = "The index directory.")
        private Path directory;

        @Option(names = "--blooms", paramLabel = "FILE", description = "The file of header blooms; '-' reads stdin.")
        private String bloomsFile;

        @Option(names = "--rpc", paramLabel = "URL", description = "A JSON-RPC node to read the header blooms from.")
        private String rpcUrl;

        @Option(names = "--to", paramLabel = "N",
                description = "With --rpc: the last block (default and at most: the head minus --confirmations).")
        private Long toBlock;

        @Option(names = "--confirmations", paramLabel = "N",
                description = "With --rpc: index only blocks at least N blocks below the head (default "
                        + DEFAULT_CONFIRMATIONS + ", as eth scan).")
        private Integer confirmations;

        @Mixin
        private RpcTransport.Options rpcOptions;

        @Option(names = "--batch", paramLabel = "N", defaultValue = "100",
                description = "With --rpc: blocks per JSON-RPC batch (1..1000, default ${DEFAULT-VALUE}).")
        private int batchSize;

        @Option(names = "--first-block", paramLabel = "N",
                description = "The first block of a new index (default 0); an existing index keeps its own.")
        private Long firstBlockOption;

        @Override
        public Integer call() throws IOException {
            if ((bloomsFile == null) == (rpcUrl == null)) {
                throw new UsageException("give exactly one of --blooms and --rpc");
            }
            if (rpcUrl == null && toBlock != null) {
                throw new UsageException("--to goes with --rpc; a file is read to its end");
            }
            if (rpcUrl == null && confirmations != null) {
                throw new UsageException("--confirmations goes with --rpc; a file is read to its end");
            }
            if (rpcUrl == null) {
                for (String option : List.of("--batch", "--retries", "--rpc-timeout", "--rpc-max-response-bytes")) {
                    if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                        throw new UsageException(option + " goes with --rpc; --blooms reads no node");
                    }
                }
            }
            if (confirmations != null && confirmations < 0) {
                throw new IllegalArgumentException("--confirmations is " + confirmations + "; it must not be negative");
            }
            if (batchSize < 1 || batchSize > MAX_BATCH) {
                throw new IllegalArgumentException("--batch is " + batchSize + "; it must be 1.." + MAX_BATCH);
            }
            // The URL, the numbers and the files are checked before the index directory is created.
            if (rpcUrl != null) {
                RpcTransport.checkUrl(rpcUrl);
            }
            if (firstBlockOption != null && firstBlockOption < 0) {
                throw new IllegalArgumentException("--first-block is " + firstBlockOption
                        + "; block numbers start at 0");
            }
            if (toBlock != null && toBlock < 0) {
                throw new IllegalArgumentException("--to is " + toBlock + "; block numbers start at 0");
            }
            if (Files.exists(directory)) {
                existingDirectory(directory, "--index");
            }
            if (bloomsFile != null && !bloomsFile.equals("-")
                    && !Files.exists(CliInputs.regularFile(Path.of(bloomsFile), "--blooms"))) {
                throw new IllegalArgumentException("--blooms " + bloomsFile + ": no such file");
            }
            // The transport options too (--rpc-timeout, --rpc-max-response-bytes, --retries).
            HttpService service = rpcUrl == null ? null : rpcOptions.http(rpcUrl);
            RetryPolicy retryPolicy = rpcUrl == null ? null : rpcOptions.retryPolicy();
            boolean directoryExisted = Files.exists(directory);
            boolean created = !Files.exists(directory.resolve(SectionIndex.META_FILE_NAME));
            // Given, it must agree with an existing index (the writer says so if not); not given, 0 for a new one.
            long firstBlock = firstBlockOption != null ? firstBlockOption
                    : created ? 0 : SectionIndex.open(directory).firstBlock();
            long appended = 0;
            try (SectionIndexWriter writer = SectionIndexWriter.open(directory, firstBlock)) {
                try {
                    appended = bloomsFile != null ? appendFromFile(writer, created ? null : SectionIndex.open(
                            directory)) : appendFromNode(writer, service,
                            retryPolicy);
                } catch (IOException | RuntimeException e) {
                    if (created && writer.nextBlock() == firstBlock) {
                        // A run that failed before appending anything to the index it created (a refused first
                        // line, a node that cannot be reached) removes it, so a rerun may still choose --first-block.
                        removeEmptyIndex(directoryExisted);
                    }
                    throw e;
                }
            }
            SectionIndex index = SectionIndex.open(directory);
            spec.commandLine().getOut().println("appended " + appended + " blocks; " + index);
            return 0;
        }

        /**
         * Deletes the index this run created with no block in it: its metadata file, then the directory if this run
         * created it and it is empty.
         */
        private void removeEmptyIndex(boolean directoryExisted) throws IOException {
            Files.deleteIfExists(directory.resolve(SectionIndex.META_FILE_NAME));
            if (directoryExisted) {
                return;
            }
            try (var left = Files.list(directory)) {
                if (left.findAny().isEmpty()) {
                    Files.delete(directory);
                }
            }
        }

        /** @param existing the index as it was before this run, or null when this run created it */
        private long appendFromFile(SectionIndexWriter writer, SectionIndex existing) throws IOException {
            // A strict UTF-8 decoder for stdin as for a file, so bytes that are not text are refused the same way.
            try (BufferedReader in = bloomsFile.equals("-")
                    ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8.newDecoder()))
                    : Files.newBufferedReader(CliInputs.regularFile(Path.of(bloomsFile), "--blooms"))) {
                return appendLines(writer, existing, in);
            } catch (CharacterCodingException e) {
                // The decoder's own message is "Input length = 1", which names nothing.
                throw new IllegalArgumentException("--blooms " + bloomsFile + " is not UTF-8 text", e);
            }
        }

        private long appendLines(SectionIndexWriter writer, SectionIndex existing, BufferedReader in)
                throws IOException {
            long appended = 0;
            // An existing index resumes: the file's lines for the blocks it already holds are checked like any line
            // and skipped, the line of its last block must carry the hash the index holds for it, and the first
            // line appended names that block as its parent: the file is then of the index's chain.
            long resumeAt = writer.nextBlock();
            long heldFrom = existing == null || existing.indexedBlockCount() == 0 ? resumeAt : existing.firstBlock();
            byte[] heldLastHash = heldFrom == resumeAt ? null
                    : existing.lastBlockHash(existing.sectionCount() - 1);
            long skipped = 0;
            // The held lines are checked as appended ones would be, against each other and the index: consecutive
            // blocks, each naming the one before as its parent (the last must carry the index's hash, so by the chain
            // of parent hashes all are of the index's chain), each bloom the one the index holds for its block.
            long previousHeld = -1;
            byte[] previousHeldHash = null;
            HeldBlooms heldBlooms = heldFrom == resumeAt ? null : new HeldBlooms(existing);
            CliInputs.BoundedLines lines = new CliInputs.BoundedLines(in, MAX_BLOOMS_LINE_CHARS,
                    "--blooms " + bloomsFile);
            String line;
            while ((line = lines.next()) != null) {
                long lineNumber = lines.lineNumber();
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                String[] fields = text.split("\\s+");
                if (fields.length != 4) {
                    throw new IllegalArgumentException("line " + lineNumber + " has " + fields.length
                            + " fields; expected 'NUMBER HASH PARENTHASH BLOOM'");
                }
                long number = parseBlockNumber(fields[0], lineNumber);
                // A refusal of a field names it as the format does: a bare "not a hex digit" did not say which.
                String where = "line " + lineNumber + ", ";
                byte[] hash = CliInputs.hex(where + "HASH", fields[1], 32, "hash");
                byte[] parentHash = CliInputs.hex(where + "PARENTHASH", fields[2], 32, "parent hash");
                LogsBloom bloom = LogsBloom.fromBytes(
                        CliInputs.hex(where + "BLOOM", fields[3], LogsBloom.BYTE_COUNT, "logsBloom"));
                if (appended == 0 && number >= heldFrom && number < resumeAt) {
                    checkHeldLine(lineNumber, number, parentHash, bloom, previousHeld, previousHeldHash, heldBlooms);
                    if (number == resumeAt - 1 && !Arrays.equals(hash, heldLastHash)) {
                        throw new IllegalArgumentException("line " + lineNumber + ": block " + number + " has hash 0x"
                                + Hex.encode(hash) + " but the index holds it with hash 0x" + Hex.encode(heldLastHash)
                                + ": the file is of another chain");
                    }
                    previousHeld = number;
                    previousHeldHash = hash;
                    skipped++;
                    continue;
                }
                try {
                    writer.append(number, hash, parentHash, bloom);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("line " + lineNumber + ": " + e.getMessage(), e);
                }
                appended++;
            }
            if (skipped > 0) {
                spec.commandLine().getErr().println("skipped " + skipped + (skipped == 1 ? " line" : " lines")
                        + " of blocks the index already holds (it resumed at block " + resumeAt + ")");
            }
            return appended;
        }

        /** See {@link #appendLines}: a line of a block the index holds, checked before it is skipped. */
        private static void checkHeldLine(long lineNumber, long number, byte[] parentHash, LogsBloom bloom,
                                          long previousHeld, byte[] previousHeldHash, HeldBlooms heldBlooms) {
            String line = "line " + lineNumber + ": block " + number;
            if (previousHeld >= 0 && number != previousHeld + 1) {
                throw new IllegalArgumentException(line + " follows block " + previousHeld + "; the lines must be of"
                        + " consecutive blocks");
            }
            if (previousHeld >= 0 && !Arrays.equals(parentHash, previousHeldHash)) {
                throw new IllegalArgumentException(line + " has parent hash 0x" + Hex.encode(parentHash)
                        + " but the line before gives block " + previousHeld + " the hash 0x"
                        + Hex.encode(previousHeldHash) + ": the lines are not of one chain");
            }
            if (!heldBlooms.matches(number, bloom)) {
                throw new IllegalArgumentException(line + " has a bloom other than the one the index holds for it:"
                        + " the file is of another chain, or was changed (" + heldBlooms.index.indexedBlockCount()
                        + " blocks indexed from block " + heldBlooms.index.firstBlock() + ")");
            }
        }

        /** The blooms an index holds, read back from one section's 2,048 bit vectors at a time. */
        private static final class HeldBlooms {
            private final SectionIndex index;
            private final long[][] vectors = new long[LogsBloom.BIT_COUNT][BloomBitsMatcher.SECTION_SIZE / 64];
            private long section = -1;

            HeldBlooms(SectionIndex index) {
                this.index = index;
            }

            /** Whether the index holds {@code bloom} for {@code block} (a block it holds). */
            boolean matches(long block, LogsBloom bloom) {
                long s = index.sectionOf(block);
                if (s != section) {
                    for (int bit = 0; bit < LogsBloom.BIT_COUNT; bit++) {
                        index.load(bit, s, vectors[bit]);
                    }
                    section = s;
                }
                int j = (int) (block - index.firstBlock() - s * BloomBitsMatcher.SECTION_SIZE);
                int word = j >>> 6;
                long mask = Long.MIN_VALUE >>> (j & 63);
                for (int w = 0; w < LogsBloom.BIT_COUNT / 64; w++) {
                    long bits = 0;
                    for (int b = 0; b < 64; b++) {
                        if ((vectors[64 * w + b][word] & mask) != 0) {
                            bits |= 1L << b;
                        }
                    }
                    if (bits != bloom.word(w)) {
                        return false;
                    }
                }
                return true;
            }
        }

        /**
         * Reads blocks {@code writer.nextBlock() .. to} from the node in batches, {@code to} at most the head minus
         * the confirmations, checks each answer is the block asked for, and appends its header bloom (strictly
         * parsed: a missing or malformed bloom stops the build, it is never indexed as empty). Each section is
         * written as soon as it fills, so an interrupted build keeps every completed section and a rerun resumes
         * after it.
         */
        private long appendFromNode(SectionIndexWriter writer, HttpService service, RetryPolicy retryPolicy)
                throws IOException {
            PrintWriter err = spec.commandLine().getErr();
            HeaderReader headers = new HeaderReader(service, retryPolicy, batchSize, new ScanListener() {
                @Override
                public void onRetry(String call, int failure, Duration delay, String problem) {
                    err.printf(Locale.ROOT, "retrying %s in %d ms (failure %d: %s)%n", call, delay.toMillis(),
                            failure, problem);
                    err.flush();
                }

                @Override
                public void onBatchHalved(int fromCalls, int toCalls, String problem) {
                    err.printf(Locale.ROOT, "halving JSON-RPC batches from %d to %d calls (%s)%n", fromCalls, toCalls,
                            problem);
                    err.flush();
                }
            });
            try {
                long head;
                try {
                    head = headers.blockNumber();
                } catch (ScanException e) {
                    throw new IllegalStateException(rpcOptions.namingTheTimeout(e.getMessage()), e);
                }
                int depth = confirmations == null ? DEFAULT_CONFIRMATIONS : confirmations;
                long confirmed = head - depth;
                long last = toBlock != null ? Math.min(toBlock, confirmed) : confirmed;
                if (toBlock != null && toBlock > confirmed) {
                    err.println("indexing up to block " + confirmed + ", not " + toBlock + ": the head is " + head
                            + " and later blocks have fewer than " + depth + " confirmations");
                }
                if (writer.nextBlock() > last) {
                    // Said, so that "appended 0 blocks" is not left to puzzle over.
                    err.println("nothing to index: the next block is " + writer.nextBlock() + ", and "
                            + (toBlock != null && toBlock < confirmed ? "--to is " + toBlock
                                    : confirmed < 0 ? "no block has " + depth + " confirmations yet (the head is "
                                            + head + ")"
                                    : "the last block with " + depth + " confirmations is " + confirmed + " (the head is "
                                            + head + ")"));
                }
                long appended = 0;
                while (writer.nextBlock() <= last) {
                    long first = writer.nextBlock();
                    int count = (int) Math.min(batchSize, last - first + 1);
                    List<EthBlock.Block> blocks;
                    try {
                        blocks = headers.blocks(first, first + count - 1);
                    } catch (ScanException e) {
                        throw new IllegalStateException(rpcOptions.namingTheTimeout(e.getMessage())
                                + "; indexed up to block "
                                + (first - 1) + " (complete sections are kept: rerun to resume)", e);
                    }
                    for (int i = 0; i < count; i++) {
                        EthBlock.Block block = blocks.get(i);
                        writer.append(first + i, parseHash(block.getHash(), "block " + (first + i) + " hash"),
                                parseHash(block.getParentHash(), "block " + (first + i) + " parent hash"),
                                Web3jLogs.headerBloom(block));
                    }
                    appended += count;
                    err.println("indexed " + first + ".." + (first + count - 1));
                }
                return appended;
            } finally {
                service.close();
            }
        }

        /** A 32-byte hash in hex ({@code 0x} optional), or a message naming {@code what}. */
        private static byte[] parseHash(String text, String what) {
            if (text == null) {
                throw new IllegalArgumentException(what + " is missing");
            }
            return Hex.decode(text, 32, what);
        }

        private static long parseBlockNumber(String text, long lineNumber) {
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
            description = "Print the blocks in FROM..TO whose header bloom could match the filter, one per line."
                    + " These are candidates: every matching block is among them, some may be false positives. A"
                    + " summary goes to stderr.")
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
            SectionIndex index = SectionIndex.open(existingDirectory(directory, "--index"));
            if (index.indexedBlockCount() == 0) {
                throw new IllegalArgumentException("the index in " + directory + " holds no block yet");
            }
            long from = fromBlock != null ? fromBlock : index.firstBlock();
            long to = toBlock != null ? toBlock : index.endBlockExclusive() - 1;
            // Checked here so that a refusal names the option typed; the index names its own parameters ("block range
            // 5..3 is reversed").
            if (from < 0) {
                throw new IllegalArgumentException("--from is " + from + "; block numbers start at 0");
            }
            long last = index.endBlockExclusive() - 1;
            if (from < index.firstBlock() || from > last) {
                throw new IllegalArgumentException("--from " + from + " is outside the index, which covers blocks "
                        + index.firstBlock() + ".." + last);
            }
            if (to > last) {
                throw new IllegalArgumentException("--to " + to + " is past the index's last block " + last
                        + " (it covers blocks " + index.firstBlock() + ".." + last + ")");
            }
            if (to < from) {
                // Only a --to typed can be below: without it the range ends at the index's last block.
                throw new IllegalArgumentException("--to " + to + " is below "
                        + (fromBlock != null ? "--from " : "the index's first block ") + from);
            }
            LogFilter filter = filterOptions.filter();
            long[] candidates = index.candidates(filter, from, to);
            PrintWriter out = spec.commandLine().getOut();
            for (long block : candidates) {
                out.println(block);
            }
            spec.commandLine().getErr().println(candidates.length + (candidates.length == 1 ? " candidate block of "
                    : " candidate blocks of ") + (to - from + 1)
                    + (filter.isMatchAll() ? " (the filter matches every block)" : ""));
            return 0;
        }
    }
}
