package org.chainfilter.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into one line, {@code chainfilter: <message>}, on stderr, and a non-zero exit status; never a
 * stack trace for a user's mistake. A failure that is not a user's mistake (a bug) is named by its exception class so
 * it can be reported; {@code CHAINFILTER_DEBUG=1} in the environment adds its stack trace.
 */
final class ErrorHandler implements IParameterExceptionHandler, IExecutionExceptionHandler {
    /** Exit status for a command line picocli could not parse (unknown option, missing parameter, bad number). */
    static final int USAGE = 2;
    /** Exit status for a command that refused its input or failed while running. */
    static final int FAILURE = 1;

    /**
     * Reports an unknown option or stray argument in preference to the error picocli stopped at, then any other
     * mistake. picocli 4.7.6 checks for missing required options before it reports the arguments it could not match,
     * so {@code eth scan --rcp URL --from 0} said "Missing required option: '--rpc=URL'" and never named the misspelt
     * {@code --rcp}. The similar option names picocli finds for an unknown option are added as "did you mean X?".
     */
    @Override
    public int handleParseException(ParameterException e, String[] args) {
        ParameterException first = unmatchedBefore(e);
        CommandLine cmd = first.getCommandLine();
        cmd.getErr().println("chainfilter: " + oneLine(first.getMessage()) + suggestions(first)
                + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
        cmd.getErr().flush();
        return USAGE;
    }

    /**
     * The arguments picocli could not match before it stopped at {@code e}, as an {@link UnmatchedArgumentException}
     * of the outermost command that has any (they come first on the command line), or {@code e} when there are none.
     * picocli stops at an invalid value, so an unknown option after one is not seen and the invalid value is reported.
     */
    private static ParameterException unmatchedBefore(ParameterException e) {
        Deque<CommandLine> outermostFirst = new ArrayDeque<>();
        for (CommandLine command = e.getCommandLine(); command != null; command = command.getParent()) {
            outermostFirst.addFirst(command);
        }
        for (CommandLine command : outermostFirst) {
            List<String> unmatched = command.getUnmatchedArguments();
            if (!unmatched.isEmpty()) {
                return e instanceof UnmatchedArgumentException && command == e.getCommandLine() ? e
                        : new UnmatchedArgumentException(command, unmatched);
            }
        }
        return e;
    }

    /**
     * "; did you mean X or Y?" with picocli's suggestions for an unknown option (the command's option names it ranks
     * as similar by the letter pairs they share), or "" when it has none. A stray word gets none: picocli ranks the
     * subcommands against it with no floor, so "frobnicate" would be asked "did you mean math?".
     */
    private static String suggestions(ParameterException e) {
        if (!(e instanceof UnmatchedArgumentException) || !((UnmatchedArgumentException) e).isUnknownOption()) {
            return "";
        }
        List<String> similar = ((UnmatchedArgumentException) e).getSuggestions();
        return similar.isEmpty() ? "" : "; did you mean " + String.join(" or ", similar) + "?";
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parseResult) {
        report(e, cmd.getErr());
        return e instanceof ParameterException ? USAGE : FAILURE;
    }

    /** Prints {@code chainfilter: <message>} for {@code e} (and its stack trace when debugging), then flushes. */
    static void report(Throwable e, PrintWriter err) {
        err.println("chainfilter: " + oneLine(describe(e)));
        if (System.getenv("CHAINFILTER_DEBUG") != null) {
            e.printStackTrace(err);
        }
        err.flush();
    }

    /** The message a user sees for {@code e}. */
    static String describe(Throwable e) {
        if (e instanceof UncheckedIOException && e.getCause() != null) {
            return describe(e.getCause());
        }
        if (e instanceof NoSuchFileException) {
            return "no such file: " + ((NoSuchFileException) e).getFile();
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied: " + ((AccessDeniedException) e).getFile();
        }
        if (e instanceof java.io.FileNotFoundException) {
            return "cannot open " + e.getMessage();
        }
        String message = e.getMessage();
        if (isUserError(e) && message != null && !message.isBlank()) {
            return message;
        }
        return "internal error: " + e.getClass().getName() + (message != null ? ": " + message : "")
                + " (set CHAINFILTER_DEBUG=1 for the stack trace)";
    }

    private static boolean isUserError(Throwable e) {
        return e instanceof IllegalArgumentException
                || e instanceof IllegalStateException
                || e instanceof IOException
                || e instanceof ParameterException
                || e instanceof ArithmeticException;
    }

    private static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }
}
