package io.numacube.cli.doctor;

import io.numacube.cli.output.Json;
import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.plan.PlacementPlan;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.NumaNode;
import io.numacube.numa.topology.Topology;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Renders a {@link DoctorReport} as the JSON document documented in the README (keys in snake_case; node lists as
 *  arrays of ints; CPU lists as kernel list strings). Stateless. */
public final class DoctorJson {

    private DoctorJson() {}

    /** @param version the numacube version the report names */
    public static Json.Obj render(DoctorReport r, String version) {
        Json.Obj root = Json.obj()
                .put("numacube_version", version)
                .put("native", nativeAccess(r))
                .put(
                        "topology",
                        topology(r.runtime().topology(), r.runtime().root().toString()))
                .put("binding", binding(r.runtime().binding()))
                .put("policy_support", support(r.runtime().policySupport()))
                .put("placement_method", r.placementMethod())
                .put("plan", plan(r.runtime().plan()))
                .put("jvm", jvm(r));
        r.checks().ifPresent(c -> {
            root.put(
                    "placement_check",
                    placementCheck(c.segments(), r.runtime().plan().dataNodes()));
            root.put("placement_check_notes", c.notes());
            root.put("worker_check", workerCheck(c.workers()));
            root.put("affinity_check", affinityCheck(c.affinity()));
        });
        return root;
    }

    private static Json.Obj nativeAccess(DoctorReport r) {
        return Json.obj()
                .put("available", r.runtime().kernel().isPresent())
                .put(
                        "description",
                        r.runtime().kernel().map(k -> k.description()).orElse(null))
                .put(
                        "reason",
                        r.runtime().kernel().isPresent()
                                ? null
                                : io.numacube.numa.kernel.NumaKernels.unavailableReason()
                                        .orElse(null));
    }

    private static Json.Obj jvm(DoctorReport r) {
        return Json.obj()
                .put("version", r.jvm().version())
                .put("feature", r.jvm().feature())
                .put("gc", r.jvm().gc())
                .put("use_numa", r.jvm().useNuma())
                .put("use_numa_explicit", r.jvm().useNumaExplicit())
                .put("use_numa_prediction", r.useNuma().prediction().name().toLowerCase(Locale.ROOT))
                .put("use_numa_reason", r.useNuma().reason())
                .put("advice", r.useNuma().advice())
                .put(
                        "use_numa_prediction_jdk24",
                        r.useNumaBefore25()
                                .map(a -> (Object) a.prediction().name().toLowerCase(Locale.ROOT))
                                .orElse(null))
                .put(
                        "use_numa_reason_jdk24",
                        r.useNumaBefore25().map(a -> (Object) a.reason()).orElse(null))
                .put(
                        "advice_jdk24",
                        r.useNumaBefore25().map(a -> (Object) a.advice()).orElse(null));
    }

    /** @param dataNodes the plan's data nodes: where an interleaved segment's pages count as placed */
    private static List<Object> placementCheck(List<PlacementChecks.SegmentResult> segments, NodeSet dataNodes) {
        return segments.stream()
                .map(s -> (Object) Json.obj()
                        .put("node", s.node())
                        .put("mode", s.requested().name())
                        .put("applied_mode", s.applied().name())
                        .put("fallback_reason", s.fallbackReason().orElse(null))
                        .put("bytes", s.bytes())
                        .put("pages", s.census().totalPages())
                        .put(
                                "pages_on_node",
                                s.node() >= 0
                                        ? s.census().pagesOn(s.node())
                                        : s.census().pagesOnAny(dataNodes))
                        .put(
                                "pages_on_node_pct",
                                round1(100.0
                                        * (s.node() >= 0
                                                ? s.census().shareOn(s.node())
                                                : s.census().shareOnAny(dataNodes))))
                        .put("pages_by_node", stringKeys(s.census().pagesByNode()))
                        .put("method", PlacementChecks.label(s.census().method())))
                .toList();
    }

    private static List<Object> workerCheck(List<PlacementChecks.WorkerResult> workers) {
        return workers.stream()
                .map(w -> (Object) Json.obj()
                        .put("node", w.node())
                        .put("workers", w.workers())
                        .put("pinned", w.pinned())
                        .put("cpus_seen", w.cpusSeen().toList())
                        .put("nodes_seen", nodes(w.nodesSeen()))
                        .put("all_on_node", w.allOnNode()))
                .toList();
    }

    private static List<Object> affinityCheck(List<PlacementChecks.AffinityResult> affinity) {
        return affinity.stream()
                .map(a -> (Object) Json.obj()
                        .put("node", a.node())
                        .put("pinned", a.pinned())
                        .put("before", a.before().toList())
                        .put("during", a.during().toList())
                        .put("nodes_seen", nodes(a.nodesSeen()))
                        .put("after", a.after().toList())
                        .put("restored", a.restored()))
                .toList();
    }

    private static Json.Obj topology(Topology t, String source) {
        List<Object> nodes = Json.arr();
        for (NumaNode n : t.nodes()) {
            List<Object> distances = Json.arr();
            for (NumaNode m : t.nodes()) {
                distances.add(t.distance(n.id(), m.id()));
            }
            nodes.add(Json.obj()
                    .put("id", n.id())
                    .put("cpus", n.cpus().toList())
                    .put("memory_bytes", n.memTotalBytes())
                    .put("memory_free_bytes", n.memFreeBytes())
                    .put("distances", distances)
                    .put("has_cpus", n.hasCpus())
                    .put("has_memory", n.hasMemory()));
        }
        return Json.obj()
                .put("source", source)
                .put("numa_in_sysfs", t.numaInSysfs())
                .put("online_cpus", t.onlineCpus().toList())
                .put("offline_cpus", t.offlineCpus().toList())
                .put("nodes", nodes)
                .put("notes", t.notes());
    }

    private static Json.Obj binding(ProcessBinding b) {
        return Json.obj()
                .put("cpus", b.allowedCpus().toList())
                .put("mems", nodes(b.allowedMems()))
                .put("policy", b.policy().toString())
                .put(
                        "cpuset",
                        b.cpuset()
                                .map(c -> (Object) Json.obj()
                                        .put("version", c.version())
                                        .put("path", c.path())
                                        .put("cpus", c.cpus().toList())
                                        .put("mems", nodes(c.mems())))
                                .orElse(null))
                .put("numa_balancing", b.balancing().name().toLowerCase(Locale.ROOT))
                .put("notes", b.notes());
    }

    private static Json.Obj support(PolicySupport s) {
        return Json.obj()
                .put("native", s.nativeAccess())
                .put("mbind", s.mbind())
                .put("set_mempolicy", s.setMempolicy())
                .put("get_mempolicy", s.getMempolicy())
                .put("move_pages", s.movePages())
                .put("affinity", s.affinity())
                .put("refusals", new TreeMap<>(s.refusals()));
    }

    private static Json.Obj plan(PlacementPlan p) {
        Map<String, Object> cpus = new TreeMap<>();
        p.workerCpus().forEach((node, set) -> cpus.put(String.valueOf(node), set.toList()));
        return Json.obj()
                .put("data_nodes", nodes(p.dataNodes()))
                .put("worker_nodes", nodes(p.workerNodes()))
                .put("mode", p.mode().name())
                .put("every_access_remote", p.everyAccessRemote())
                .put("worker_cpus", cpus)
                .put("filler_node", stringKeys(p.fillerNode()))
                .put("reasons", p.reasons());
    }

    static List<Object> nodes(NodeSet set) {
        List<Object> out = Json.arr();
        set.stream().forEach(out::add);
        return out;
    }

    private static Map<String, Object> stringKeys(Map<Integer, ? extends Number> m) {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    private static double round1(double v) {
        return Math.round(v * 10.0) / 10.0;
    }
}
