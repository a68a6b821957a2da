package io.numacube.cli.multinode;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.numacube.cli.multinode.Doctor.Policy;
import io.numacube.cli.multinode.VmResults.Config;
import io.numacube.cli.multinode.VmResults.GuestTopology;
import io.numacube.cli.multinode.VmResults.ProcessEnv;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code numacube doctor --json} on the multi-node kernel under each prefix (numactl, taskset, the seccomp launcher):
 * it sees the topology numactl sees and the binding the kernel gave the process, its plan never uses a node the
 * process may not run or allocate on, it gives reasons, and it follows the issue's rows (CPUs and memory meet,
 * every access remote, memory-only nodes with and without mbind). The oracle for "allowed" is the guest kernel's
 * /proc/self/status of a process started with the same prefix (CHECK.env), and numactl -H for the node of each CPU.
 */
@Tag("multinode")
@ExtendWith(VerdictLog.class)
class DoctorPlanInVmTest {

    private static final String DOCTOR_CHECKS = "io.numacube.cli.multinode.VmStageLayout#doctorChecks";

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource(DOCTOR_CHECKS)
    void topologyIsWhatNumactlSees(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = c.json(check);
        GuestTopology t = c.topology();
        JsonNode nodes = Doctor.at(doc, "/topology/nodes");
        SortedSet<Integer> ids = new TreeSet<>();
        for (int i = 0; i < nodes.size(); i++) {
            JsonNode n = nodes.get(i);
            int id = n.get("id").asInt();
            int index = i;
            ids.add(id);
            assertEquals(
                    t.cpusByNode().get(id), VmResults.parseList(n.get("cpus").asText()), "cpus of node " + id);
            long mib = n.get("memory_bytes").asLong() >> 20;
            long numactlMb = t.sizeMb().getOrDefault(id, 0L);
            assertTrue(
                    Math.abs(mib - numactlMb) <= Math.max(8, numactlMb / 50),
                    () -> "memory of node " + id + ": doctor " + mib + " MiB, numactl " + numactlMb + " MB");
            assertEquals(nodes.size(), n.get("distances").size(), "one distance per node: " + n);
            assertEquals(10, n.get("distances").get(index).asInt(), "local distance of node " + id);
        }
        assertEquals(t.cpusByNode().keySet(), ids);
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource(DOCTOR_CHECKS)
    void bindingIsWhatTheKernelGaveTheProcess(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = c.json(check);
        ProcessEnv env = c.env(check);
        Policy policy = Policy.parse(Doctor.at(doc, "/binding/policy").asText());
        assertAll(
                () -> assertEquals(env.cpus(), Doctor.cpus(doc, "/binding/cpus"), "binding.cpus"),
                () -> assertEquals(env.mems(), Doctor.ids(doc, "/binding/mems"), "binding.mems"),
                () -> assertEquals(VmStageLayout.underSeccomp(check) ? 2 : 0, env.seccomp(), "Seccomp of the prefix"),
                () -> {
                    switch (check) {
                        case "plain", "cpunodebind1", "taskset1" ->
                            assertEquals(new Policy("default", new TreeSet<>()), policy);
                        case "seccomp" ->
                            assertTrue(
                                    Set.of("unknown", "default").contains(policy.mode()),
                                    () -> "get_mempolicy is refused: the policy is unknown (or default), not "
                                            + policy);
                        case "cpunodebind0_membind01" -> assertEquals(new Policy("bind", ids(0, 1)), policy);
                        case "cpunodebind0_membind1", "membind1" -> assertEquals(new Policy("bind", ids(1)), policy);
                        case "membind2" -> assertEquals(new Policy("bind", ids(2)), policy);
                        case "interleave_all" -> assertEquals(new Policy("interleave", ids(0, 1)), policy);
                        case "preferred1" -> {
                            assertTrue(policy.mode().startsWith("prefer"), policy::toString);
                            assertEquals(ids(1), policy.nodes());
                        }
                        default -> throw new AssertionError("no expected policy for check " + check);
                    }
                });
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource(DOCTOR_CHECKS)
    void planUsesOnlyNodesTheProcessMayUseAndSaysWhy(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = c.json(check);
        ProcessEnv env = c.env(check);
        GuestTopology t = c.topology();
        SortedSet<Integer> data = Doctor.ids(doc, "/plan/data_nodes");
        SortedSet<Integer> workers = Doctor.ids(doc, "/plan/worker_nodes");
        SortedSet<Integer> runnable = t.nodesOf(env.cpus());
        assertFalse(data.isEmpty(), "no data node");
        assertFalse(workers.isEmpty(), "no worker node");
        assertTrue(env.mems().containsAll(data), () -> "data_nodes " + data + " not within allowed mems " + env.mems());
        assertTrue(
                runnable.containsAll(workers),
                () -> "worker_nodes " + workers + " not within the nodes of the allowed CPUs " + runnable);
        for (int w : workers) {
            SortedSet<Integer> cpus = Doctor.cpus(doc, "/plan/worker_cpus/" + w);
            assertFalse(cpus.isEmpty(), "no CPUs for worker node " + w);
            assertTrue(
                    env.cpus().containsAll(cpus) && t.cpusByNode().get(w).containsAll(cpus),
                    () -> "worker_cpus of node " + w + " = " + cpus + ": must be allowed CPUs " + env.cpus()
                            + " of that node " + t.cpusByNode().get(w));
        }
        SortedMap<Integer, Long> filler = Doctor.intMap(doc, "/plan/filler_node");
        assertEquals(data, filler.keySet(), "filler_node covers exactly the data nodes");
        filler.forEach((d, w) -> assertTrue(
                workers.contains(w.intValue()),
                () -> "data node " + d + " filled by " + w + ", not a worker node " + workers));
        List<String> reasons = StreamSupport.stream(
                        Doctor.at(doc, "/plan/reasons").spliterator(), false)
                .map(JsonNode::asText)
                .toList();
        assertFalse(reasons.isEmpty(), "the plan gives no reason");
        assertTrue(reasons.stream().noneMatch(String::isBlank), reasons::toString);
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource(DOCTOR_CHECKS)
    void planFollowsTheIssueRow(String config, String check) {
        JsonNode doc = VmResults.config(config).json(check);
        SortedSet<Integer> data = Doctor.ids(doc, "/plan/data_nodes");
        SortedSet<Integer> workers = Doctor.ids(doc, "/plan/worker_nodes");
        boolean remote = Doctor.at(doc, "/plan/every_access_remote").asBoolean();
        String mode = Doctor.at(doc, "/plan/mode").asText();
        String reasons = Doctor.at(doc, "/plan/reasons").toString();
        boolean memOnly = config.equals(VmStageLayout.MEM_ONLY);
        Map<String, Object> got = Map.of("data", data, "workers", workers, "remote", remote, "mode", mode);
        switch (check) {
            case "plain" -> {
                assertEquals(memOnly ? ids(0, 1, 2) : ids(0, 1), data, "data nodes (memory-only nodes too, by mbind)");
                assertEquals(ids(0, 1), workers);
                assertFalse(remote);
                assertEquals("BIND", mode);
            }
            case "seccomp" -> {
                assertEquals(ids(0, 1), data, "without mbind a memory-only node cannot hold data: " + got);
                assertEquals(ids(0, 1), workers);
                assertEquals("FIRST_TOUCH", mode, "mbind refused: the plan falls back to first touch");
                assertEquals("first-touch", Doctor.at(doc, "/placement_method").asText());
                assertFalse(Doctor.at(doc, "/policy_support/mbind").asBoolean());
                assertTrue(
                        Doctor.at(doc, "/policy_support/refusals/mbind")
                                .asText()
                                .contains("EPERM"),
                        () -> Doctor.at(doc, "/policy_support/refusals").toString());
                if (memOnly) {
                    assertTrue(
                            reasons.contains("memory-only"),
                            () -> "the plan must say why node 2 is left out: " + reasons);
                }
            }
            case "cpunodebind0_membind01" -> {
                assertEquals(ids(0), workers);
                assertEquals(ids(0), data, "CPUs and memory meet on node 0 only: " + got);
                assertFalse(remote);
            }
            case "cpunodebind0_membind1" -> {
                assertEquals(ids(0), workers);
                assertEquals(ids(1), data);
                assertTrue(remote, "CPUs on 0, memory only on 1: every access is remote, and the plan says so");
                assertTrue(reasons.contains("remote"), reasons);
            }
            case "cpunodebind1", "taskset1" -> {
                assertEquals(ids(1), workers);
                assertEquals(ids(1), data);
                assertFalse(remote);
            }
            case "membind1" -> {
                assertEquals(ids(1), data);
                assertFalse(remote);
            }
            case "membind2" -> {
                assertEquals(ids(2), data, "memory only on the memory-only node: it holds the data (mbind)");
                assertEquals(ids(0, 1), workers);
                assertTrue(remote, "no CPU on node 2: every access is remote");
            }
            case "interleave_all", "preferred1" -> {
                assertEquals(ids(0, 1), data);
                assertEquals(ids(0, 1), workers);
                assertFalse(remote);
            }
            default -> throw new AssertionError("no issue row for check " + check);
        }
        if (!check.equals("seccomp")) {
            assertEquals("mbind", Doctor.at(doc, "/placement_method").asText());
        }
    }

    static SortedSet<Integer> ids(Integer... ids) {
        return new TreeSet<>(List.of(ids));
    }
}
