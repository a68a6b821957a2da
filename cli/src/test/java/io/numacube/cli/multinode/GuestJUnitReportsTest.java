package io.numacube.cli.multinode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.cli.multinode.VmResults.Config;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The numa module's multinode JUnit tests ran inside each VM and passed: plainly (MultiNodePlacementTest: BIND and
 * PREFERRED on every memory node, first touch by pinned threads, interleave, workers' getcpu) and under the seccomp
 * launcher (SeccompMultiNodePlacementTest: the kernel's EPERM, first-touch fallback, workers and scoped affinity); and
 * the engine's in the two-node VM (MultiNodeCubeTest: an 8M-row cube's partitions spread over both nodes, each ≥ 99 % on
 * its node, ≥ 80 % of the morsels at home in the median run of the reference queries; REMOTE placement puts every partition on another node).
 */
@Tag("multinode")
@ExtendWith(VerdictLog.class)
class GuestJUnitReportsTest {

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("io.numacube.cli.multinode.VmStageLayout#junitChecks")
    void multinodeTestsRanInTheGuestAndPassed(String config, String check) throws Exception {
        Config c = VmResults.config(config);
        Set<String> classes = passedClasses(c, check, 4);
        String seccompClass = "io.numacube.numa.memory.SeccompMultiNodePlacementTest";
        if (VmStageLayout.underSeccomp(check)) {
            assertEquals(Set.of(seccompClass), classes);
            assertEquals(2, c.env(check).seccomp(), "the seccomp run was not under a filter");
        } else {
            assertTrue(classes.contains("io.numacube.numa.memory.MultiNodePlacementTest"), classes::toString);
            assertFalse(classes.contains(seccompClass), classes::toString);
            assertEquals(0, c.env(check).seccomp());
        }
        assertEquals(0, c.check(check).rc(), () -> c.tail(check + ".out"));
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("engineCheck")
    void engineMultinodeTestsRanInTheGuestAndPassed(String config, String check) throws Exception {
        Config c = VmResults.config(config);
        assertEquals(Set.of("io.numacube.engine.MultiNodeCubeTest"), passedClasses(c, check, 2));
        assertEquals(0, c.check(check).rc(), () -> c.tail(check + ".out"));
    }

    static Stream<Arguments> engineCheck() {
        return Stream.of(Arguments.of(VmStageLayout.TWO_NODE, VmStageLayout.ENGINE_JUNIT_CHECK));
    }

    /** The test classes of the check's JUnit report, after asserting it ran at least {@code min} tests, all passed. */
    private static Set<String> passedClasses(Config c, String check, int min) throws Exception {
        Path report = c.file(check + "/TEST-junit-jupiter.xml");
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile());
        Element suite = doc.getDocumentElement();
        String counts = "tests=" + suite.getAttribute("tests") + " failures=" + suite.getAttribute("failures")
                + " errors=" + suite.getAttribute("errors") + " skipped=" + suite.getAttribute("skipped");
        assertTrue(Integer.parseInt(suite.getAttribute("tests")) >= min, () -> report + ": " + counts);
        assertEquals("0", suite.getAttribute("failures"), () -> counts + "\n" + c.tail(check + ".out"));
        assertEquals("0", suite.getAttribute("errors"), () -> counts + "\n" + c.tail(check + ".out"));
        assertEquals("0", suite.getAttribute("skipped"), () -> counts + "\n" + c.tail(check + ".out"));
        Set<String> classes = new TreeSet<>();
        NodeList cases = doc.getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
            classes.add(((Element) cases.item(i)).getAttribute("classname"));
        }
        return classes;
    }
}
