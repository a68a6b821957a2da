package io.numacube.numa.testing;

import io.numacube.numa.topology.SystemRoot;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** The fixture machine trees under {@code src/test/resources/machines/<name>/}. */
public final class Machines {

    private Machines() {}

    public static SystemRoot machine(String name) {
        URL url = Machines.class.getResource("/machines/" + name);
        if (url == null) {
            throw new IllegalArgumentException("no fixture machine: name=" + name);
        }
        try {
            return SystemRoot.at(Path.of(url.toURI()));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
