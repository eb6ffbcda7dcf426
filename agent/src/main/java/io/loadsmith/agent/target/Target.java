package io.loadsmith.agent.target;

import java.util.List;

/**
 * One server library (and its oldest supported version) that the agent knows how to gate.
 *
 * @param name the name used by {@code targets=} and {@code /health} ({@code jetty12})
 * @param description what it covers, for {@code --help} and the docs
 * @param guardResources class files that must all be visible from the class loader of a matched class,
 *                       so that a target matches only the versions it knows (empty: no guard)
 * @param gates where requests are held
 */
public record Target(String name, String description, List<String> guardResources, List<Gate> gates) {

    public Target {
        guardResources = List.copyOf(guardResources);
        gates = List.copyOf(gates);
    }

    /** True when every guard resource is visible from {@code loader} (null: the bootstrap loader). */
    public boolean guardAccepts(ClassLoader loader) {
        for (String resource : guardResources) {
            java.net.URL url = loader == null ? ClassLoader.getPlatformClassLoader().getResource(resource) : loader.getResource(resource);
            if (url == null) {
                return false;
            }
        }
        return true;
    }
}
