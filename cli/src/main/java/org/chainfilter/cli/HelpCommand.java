package org.chainfilter.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Parameters;

/**
 * {@code chainfilter help [COMMAND...]}: the usage of the command at that path, {@code help bip37 create} included
 * (picocli's own help command takes one name and printed {@code bip37}'s usage for {@code bip37 create}).
 */
@Command(name = "help", helpCommand = true, mixinStandardHelpOptions = true,
        description = {"Display help information about the specified command.",
            "Give a subcommand's path, e.g. 'help bip37 create'."})
final class HelpCommand implements CommandLine.IHelpCommandInitializable2, Runnable {
    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command (and subcommands) to describe.")
    private List<String> path = new ArrayList<>();

    private CommandLine self;
    private PrintWriter out;
    private Ansi ansi;

    @Override
    public void init(CommandLine helpCommandLine, CommandLine.Help.ColorScheme colorScheme, PrintWriter out,
            PrintWriter err) {
        this.self = helpCommandLine;
        this.out = out;
        this.ansi = colorScheme.ansi();
    }

    @Override
    public void run() {
        CommandLine command = self.getParent();
        StringBuilder walked = new StringBuilder(command.getCommandName());
        for (String name : path) {
            CommandLine next = command.getSubcommands().get(name);
            if (next == null) {
                throw new CommandLine.ParameterException(self, command.getSubcommands().isEmpty()
                        ? "'" + walked + "' has no subcommands (no '" + name + "')"
                        : "Unknown subcommand '" + name + "' of '" + walked + "'; its subcommands are "
                                + String.join(", ", command.getSubcommands().keySet()));
            }
            command = next;
            walked.append(' ').append(name);
        }
        command.usage(out, ansi);
    }
}
