package org.chainfilter.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code chainfilter eth match}: whether a block or receipt with this bloom could hold a matching log. */
@Command(name = "match", mixinStandardHelpOptions = true,
        description = {"Whether a block (or receipt) with this logsBloom could hold a log matching the filter.",
            "go-ethereum's bloom test. Prints 'could match' (exit status 0) or 'no match' (exit status 3), then the"
                + " bloom's saturation: a full bloom passes everything, so a pass is only a candidate."})
final class EthMatchCommand implements Callable<Integer> {
    /** Exit status when the bloom rules the block out. */
    static final int NO_MATCH = 3;

    @Spec
    private CommandSpec spec;

    @Option(names = "--bloom", paramLabel = "HEX", description = "The logsBloom: 256 bytes of hex, 0x optional.")
    private String bloomHex;

    @Option(names = "--bloom-file", paramLabel = "FILE",
            description = "A file holding the logsBloom as hex; '-' reads stdin.")
    private Path bloomFile;

    @Mixin
    private EthFilterOptions filterOptions;

    @Override
    public Integer call() throws IOException {
        if ((bloomHex == null) == (bloomFile == null)) {
            throw new UsageException("give exactly one of --bloom and --bloom-file");
        }
        String hex = bloomHex != null ? bloomHex
                : CliInputs.hexValueFile(bloomFile, "--bloom-file");
        String source = bloomHex != null ? "--bloom" : "--bloom-file " + bloomFile;
        LogsBloom bloom = LogsBloom.fromBytes(CliInputs.hex(source, hex, LogsBloom.BYTE_COUNT, "logsBloom"));
        LogFilter filter = filterOptions.filter();
        boolean could = filter.couldMatch(bloom);
        PrintWriter out = spec.commandLine().getOut();
        out.println(could ? "could match" : "no match");
        out.println("saturation " + String.format(Locale.ROOT, "%.4f", bloom.saturation()) + " (" + bloom.bitsSet()
                + " of 2048 bits set)");
        return could ? 0 : NO_MATCH;
    }
}
