package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The help of the eth commands is wrapped by picocli, never by line breaks in the description strings: each element
 * of a description array is printed on a line of its own, so an element that ends mid-sentence ("... (32 bytes",
 * "each), or ...") breaks the sentence wherever the terminal is wide enough not to need it.
 */
class EthHelpTest {
    @Test
    void everyDescriptionLineOfTheEthCommandsEndsASentence() {
        CommandLine eth = new CommandLine(new ChainfilterCommand()).getSubcommands().get("eth");
        List<String> broken = new ArrayList<>();
        collect(eth, broken);
        assertEquals(List.of(), broken, "description lines that end mid-sentence (write one string per paragraph)");
    }

    /** The help of eth index build, rendered, has every paragraph whole: it starts a line. */
    @Test
    void indexBuildHelpStartsEachParagraphOnALine() {
        CliRun run = CliRun.of("eth", "index", "build", "--help");
        assertEquals(0, run.status, run::toString);
        List<String> lines = run.out.lines().toList();
        for (String start : List.of("Append header blooms", "File: one block per line", "Node: eth_getBlockByNumber")) {
            assertTrue(lines.stream().anyMatch(line -> line.startsWith(start)), () -> start + " in\n" + run.out);
        }
        assertTrue(lines.stream().noneMatch(line -> line.equals("it.")), run.out);
    }

    private static void collect(CommandLine command, List<String> broken) {
        CommandSpec spec = command.getCommandSpec();
        check(spec.qualifiedName(), spec.usageMessage().description(), broken);
        for (ArgSpec arg : spec.args()) {
            check(spec.qualifiedName() + " " + arg.paramLabel(), arg.description(), broken);
        }
        for (CommandLine subcommand : command.getSubcommands().values()) {
            collect(subcommand, broken);
        }
    }

    private static void check(String where, String[] description, List<String> broken) {
        for (String line : description) {
            String text = line.strip();
            if (!text.isEmpty() && ".:)!?".indexOf(text.charAt(text.length() - 1)) < 0) {
                broken.add(where + ": '" + text + "'");
            }
        }
    }
}
