package org.chainfilter.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExecutionStrategy;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into one line, {@code chainfilter: <message>}, on stderr, and a non-zero exit status; never a
 * stack trace for a user's mistake. A failure that is not a user's mistake (a bug) is named by its exception class so
 * it can be reported; {@code CHAINFILTER_DEBUG=1} in the environment adds its stack trace.
 */
final class ErrorHandler implements IParameterExceptionHandler, IExecutionExceptionHandler, IExecutionStrategy {
    /** Exit status for a command line picocli could not parse (unknown option, missing parameter, bad number). */
    static final int USAGE = 2;
    /** Exit status for a command that refused its input or failed while running. */
    static final int FAILURE = 1;

    /**
     * Makes every command of {@code commandLine} collect its parse errors instead of stopping at the first
     * (picocli's {@code ParserSpec.collectErrors}), so that {@link #execute} can choose the one to report. picocli
     * 4.7.6 otherwise stops at an invalid value and never sees an unknown option after it, and checks for missing
     * required options before it reports the arguments it could not match.
     */
    static void collectErrors(CommandLine commandLine) {
        commandLine.getCommandSpec().parser().collectErrors(true);
        for (CommandLine subcommand : commandLine.getSubcommands().values()) {
            collectErrors(subcommand);
        }
    }

    /**
     * Runs the command line as picocli's {@link CommandLine.RunLast} does, unless parsing it collected errors: then
     * throws the one to report ({@link #firstToReport}), which picocli hands to {@link #handleParseException}.
     */
    @Override
    public int execute(ParseResult parseResult) throws CommandLine.ExecutionException {
        ParameterException first = firstToReport(parseResult);
        if (first != null) {
            throw first;
        }
        return new CommandLine.RunLast().execute(parseResult);
    }

    /**
     * The error a user is told of first, of those picocli collected from the command and its subcommands, or null
     * when there are none:
     * <ol>
     *   <li>an unknown option, of the outermost command that has one: a misspelt option name is the likeliest mistake
     *       and also explains the errors it causes (its value taken for a stray argument, the option it meant
     *       missing), wherever it stands on the command line ({@code eth scan --rpc URL --from abc --rcp y} names
     *       {@code --rcp} rather than {@code abc});</li>
     *   <li>otherwise the first error of the outermost command that has any, in picocli's order (a value that is
     *       invalid or missing, in the order of the arguments, then the required options missing), except that a
     *       stray argument goes before required options the command line does not name ({@code eth scan --from 0
     *       extra} names {@code extra} rather than the missing {@code --rpc}).</li>
     * </ol>
     */
    static ParameterException firstToReport(ParseResult parseResult) {
        for (ParseResult command = parseResult; command != null; command = command.subcommand()) {
            for (Exception error : command.errors()) {
                if (error instanceof UnmatchedArgumentException) {
                    UnmatchedArgumentException unknown = unknownOptions((UnmatchedArgumentException) error, command);
                    if (unknown != null) {
                        return unknown;
                    }
                }
            }
        }
        for (ParseResult command = parseResult; command != null; command = command.subcommand()) {
            ParameterException first = null;
            UnmatchedArgumentException unmatched = null;
            for (Exception error : command.errors()) {
                if (error instanceof UnmatchedArgumentException) {
                    unmatched = unmatched != null ? unmatched : (UnmatchedArgumentException) error;
                } else if (first == null) {
                    first = error instanceof ParameterException ? (ParameterException) error
                            : new ParameterException(command.commandSpec().commandLine(),
                                    String.valueOf(error.getMessage()), error);
                }
            }
            if (first == null || (unmatched != null && requiredOptionsNotGiven(first, command))) {
                first = unmatched;
            }
            if (first != null) {
                return first;
            }
        }
        return null;
    }

    /**
     * The unknown options among the arguments {@code error} left unmatched, as picocli's "Unknown option(s)" with its
     * suggestions for the first; null when there are none. picocli calls the arguments unknown options only when the
     * first of them looks like one: after a stray word ({@code eth scan --rpc URL stray --confirmation 3}) the
     * misspelt option went unnamed, and before one ({@code --rcp x stray}) the stray word was listed as an option.
     */
    private static UnmatchedArgumentException unknownOptions(UnmatchedArgumentException error, ParseResult command) {
        if (!command.commandSpec().subcommands().isEmpty() && !error.isUnknownOption()) {
            // A stray word where a subcommand belongs is a mistyped subcommand, and the options after it are the
            // subcommand's ("eth scna --rpc URL"): the stray word is reported, with the subcommands close to it.
            return null;
        }
        List<String> unknown = new java.util.ArrayList<>();
        for (String arg : error.getUnmatched()) {
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (name.startsWith("-") && name.length() > 1 && !name.matches("-[0-9.].*")
                    && command.commandSpec().findOption(name) == null) {
                unknown.add(arg);
            }
        }
        return unknown.isEmpty() ? null : new UnmatchedArgumentException(command.commandSpec().commandLine(), unknown);
    }

    /**
     * Whether {@code error} is picocli's "Missing required option(s)": options the command line does not name at all.
     * Not an option named without its value ("Expected parameter for option '--from' but found '--to'"), after which
     * the arguments left over are stray because of it.
     */
    private static boolean requiredOptionsNotGiven(ParameterException error, ParseResult command) {
        if (!(error instanceof MissingParameterException)) {
            return false;
        }
        for (ArgSpec missing : ((MissingParameterException) error).getMissing()) {
            if (!missing.isOption()) {
                return false;
            }
            for (String name : ((OptionSpec) missing).names()) {
                for (String arg : command.originalArgs()) {
                    if (arg.equals(name) || arg.startsWith(name + "=")) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * Prints {@code e}, the error {@link #firstToReport} chose (or one picocli threw), as one line, with the similar
     * option names picocli finds for an unknown option as "did you mean X?".
     */
    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        cmd.getErr().println("chainfilter: " + oneLine(e.getMessage()) + suggestions(e)
                + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
        cmd.getErr().flush();
        return USAGE;
    }

    /**
     * "; did you mean X or Y?" with picocli's suggestions for an unknown option (the command's option names it ranks
     * as similar by the letter pairs they share), or, for a stray word, the subcommands close to it; "" when there are
     * none. picocli's own ranking of subcommands has no floor ("frobnicate" would be asked "did you mean math?").
     */
    private static String suggestions(ParameterException e) {
        if (!(e instanceof UnmatchedArgumentException)) {
            return "";
        }
        UnmatchedArgumentException unmatched = (UnmatchedArgumentException) e;
        List<String> similar = unmatched.isUnknownOption() ? unmatched.getSuggestions()
                : similarSubcommands(e.getCommandLine(), unmatched.getUnmatched());
        return similar.isEmpty() ? "" : "; did you mean " + String.join(" or ", similar) + "?";
    }

    /**
     * For a stray word where a subcommand was expected, the subcommands within a small edit distance of it (one edit
     * for a name of up to 3 letters, two for longer: "demoo" → demo, "scna" → scan), in their order; none for a word
     * like "frobnicate".
     */
    static List<String> similarSubcommands(CommandLine command, List<String> unmatched) {
        if (unmatched.isEmpty() || command.getSubcommands().isEmpty()) {
            return List.of();
        }
        String word = unmatched.get(0).toLowerCase(java.util.Locale.ROOT);
        List<String> similar = new java.util.ArrayList<>();
        for (String name : command.getSubcommands().keySet()) {
            if (editDistance(word, name) <= (name.length() <= 3 ? 1 : 2)) {
                similar.add(name);
            }
        }
        return similar;
    }

    /** The edit distance of two words, an adjacent transposition counting one edit (optimal string alignment). */
    static int editDistance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            for (int j = 0; j <= b.length(); j++) {
                if (i == 0 || j == 0) {
                    d[i][j] = i + j;
                    continue;
                }
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parseResult) {
        report(e, cmd.getErr());
        return e instanceof ParameterException || e instanceof UsageException ? USAGE : FAILURE;
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
