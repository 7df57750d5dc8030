package org.chainfilter.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest, or the build's version when run from classes. */
final class VersionProvider implements IVersionProvider {
    static final String FALLBACK = "0.1.0-SNAPSHOT";

    @Override
    public String[] getVersion() {
        String version = ChainfilterCommand.class.getPackage().getImplementationVersion();
        return new String[] {"chainfilter " + (version != null ? version : FALLBACK)};
    }
}
