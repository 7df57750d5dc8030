package org.chainfilter.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code chainfilter} command. Each feature registers its subcommand class in {@code subcommands} below, in the
 * order {@code --help} lists them (the demo, the protocols, conformance, then the generic tools); a subcommand reports
 * a user's mistake by throwing an exception with a clear message ({@link IllegalArgumentException} for a bad value, an
 * {@link java.io.IOException} for a file), and {@link ErrorHandler} turns it into one line on stderr and a non-zero
 * exit status.
 */
@Command(
        name = "chainfilter",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Light-client filters: BIP37, Ethereum logsBloom, BIP158 and the generic Bloom core.",
        subcommands = {
            DemoCommand.class,
            Bip37Command.class,
            Bip158Command.class,
            EthCommand.class,
            ConformanceCommand.class,
            HashCommand.class,
            MathCommand.class,
            HelpCommand.class,
        })
public final class ChainfilterCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    /** Exit status when standard output's reader has gone (a broken pipe), as a process killed by SIGPIPE has. */
    static final int BROKEN_PIPE = 141;

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        Stdout stdout = new Stdout(new java.io.FileOutputStream(java.io.FileDescriptor.out));
        System.exit(execute(new PrintWriter(stdout, true), new PrintWriter(System.err, true), stdout::failure, args));
    }

    /** Standard output, remembering the first write that failed (a PrintWriter keeps only that something failed). */
    private static final class Stdout extends java.io.FilterOutputStream {
        private volatile java.io.IOException failure;

        Stdout(java.io.OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws java.io.IOException {
            try {
                out.write(bytes, offset, length);
            } catch (java.io.IOException e) {
                failure = failure == null ? e : failure;
                throw e;
            }
        }

        @Override
        public void write(int b) throws java.io.IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        java.io.IOException failure() {
            return failure;
        }
    }

    /**
     * Runs the command line in-process, writing to {@code out} and {@code err}.
     *
     * @return the exit status: 0 on success, {@link ErrorHandler#USAGE} for a command-line mistake,
     *     {@link ErrorHandler#FAILURE} when the command refused its input or failed
     */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        return execute(out, err, () -> null, args);
    }

    /** The command line with its handlers, converters and settings, writing to {@code out} and {@code err}. */
    private static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        ErrorHandler errors = new ErrorHandler();
        CommandLine commandLine = new CommandLine(new ChainfilterCommand())
                .setOut(out)
                .setErr(err)
                .setParameterExceptionHandler(errors)
                .setExecutionExceptionHandler(errors)
                .setExecutionStrategy(errors);
        ErrorHandler.collectErrors(commandLine);
        shareVersion(commandLine, new VersionProvider());
        // Before the subcommands are parsed: picocli's own refusal ("'9…9' is not a long") names no limit.
        CommandLine.ITypeConverter<Long> longs = text -> integerWithin(text, Long.MIN_VALUE, Long.MAX_VALUE);
        CommandLine.ITypeConverter<Integer> ints =
                text -> (int) integerWithin(text, Integer.MIN_VALUE, Integer.MAX_VALUE);
        commandLine.registerConverter(Long.class, longs).registerConverter(Long.TYPE, longs)
                .registerConverter(Integer.class, ints).registerConverter(Integer.TYPE, ints);
        // "@FILE" is an argument, not a file of arguments: picocli's expansion read any file named so, unbounded (an
        // @/dev/zero never ended), and failed with a stack trace on a directory.
        commandLine.setExpandAtFiles(false);
        return commandLine;
    }

    /**
     * {@link #execute(PrintWriter, PrintWriter, String...)}, told how writing to {@code out} failed: a broken pipe (its
     * reader, e.g. {@code head}, has gone) ends with status {@value #BROKEN_PIPE} and no message, as for a process that
     * SIGPIPE ends; any other failure (a full disk) is said.
     */
    static int execute(PrintWriter out, PrintWriter err, java.util.function.Supplier<java.io.IOException> outFailure,
            String... args) {
        int status;
        try {
            // Built inside the try: a heap too small for the command objects gets the same one line as one too small
            // for the input (with -Xmx8m the construction itself ran out and printed a stack trace).
            status = commandLine(out, err).execute(args);
        } catch (OutOfMemoryError e) {
            // The last resort: every input is bounded, but the bounds are fixed and a heap may be smaller still.
            err.println("chainfilter: out of memory (the JVM's maximum heap is "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB; give it more with JAVA_OPTS=-Xmx...)");
            status = ErrorHandler.FAILURE;
        }
        if (out.checkError() && (status == 0 || status == Bip37Command.NO_MATCH)) {
            // A script must not take a cut-off answer for a whole one. (A command that failed has said why already;
            // eth scan names the log that was lost. "No match", 3, is an answer too.) A reader that has gone ends it
            // quietly, as SIGPIPE would; anything else (a full disk) is said.
            if (isBrokenPipe(outFailure.get())) {
                return BROKEN_PIPE;
            }
            err.println("chainfilter: standard output: write error (the output is incomplete)");
            status = ErrorHandler.FAILURE;
        }
        err.flush();
        return status;
    }

    private static boolean isBrokenPipe(java.io.IOException failure) {
        return failure != null && String.valueOf(failure.getMessage()).contains("Broken pipe");
    }

    /**
     * A decimal whole number (as {@link Long#parseLong}, optional sign) within {@code min..max}; refused naming the
     * value and the range it must lie in.
     */
    static long integerWithin(String text, long min, long max) {
        java.math.BigInteger value;
        try {
            value = new java.math.BigInteger(text.strip());
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a whole number");
        }
        if (value.compareTo(java.math.BigInteger.valueOf(min)) < 0
                || value.compareTo(java.math.BigInteger.valueOf(max)) > 0) {
            throw new CommandLine.TypeConversionException("'" + text + "' is outside " + min + ".." + max);
        }
        return value.longValueExact();
    }

    /**
     * Gives every subcommand the top command's version: each has {@code -V, --version} from the standard help options,
     * and without a provider of its own picocli prints nothing for it.
     */
    private static void shareVersion(CommandLine command, CommandLine.IVersionProvider provider) {
        command.getCommandSpec().versionProvider(provider);
        for (CommandLine subcommand : command.getSubcommands().values()) {
            shareVersion(subcommand, provider);
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }
}
