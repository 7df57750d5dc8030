package org.chainfilter.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code chainfilter eth}: Ethereum logsBloom tools. Each subcommand class is listed on its own line. */
@Command(name = "eth", mixinStandardHelpOptions = true,
        description = "Ethereum logsBloom (M3:2048): blooms of logs, filter tests, a bit-sliced block index.",
        subcommands = {
            EthBloomCommand.class,
            EthMatchCommand.class,
            EthIndexCommand.class,
            EthScanCommand.class,
        })
final class EthCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "an eth command is required: bloom, match, index or scan");
    }
}
