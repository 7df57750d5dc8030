package org.chainfilter.ethbloom.scan.node;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test method or constructor the run's shared {@link TestChain}: a real anvil on 127.0.0.1 with several hundred
 * blocks of logs, started on first use and stopped when the test run ends (also when tests fail; a JVM shutdown hook
 * covers a run that dies).
 */
public final class AnvilChainExtension implements ParameterResolver {
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestChain.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return TestChain.shared(context);
    }
}
