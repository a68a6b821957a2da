package io.numacube.cli.doctor;

import io.numacube.cli.output.Units;
import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.jvm.JvmNumaAdvice;
import io.numacube.numa.jvm.JvmNumaAdvisor;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.plan.PlacementPlan;
import io.numacube.numa.topology.NumaNode;
import io.numacube.numa.topology.Topology;
import java.util.Locale;

/** Renders a {@link DoctorReport} for a person: sections for the machine, this process, placement, the plan, the
 *  JVM and (when run) the checks, each fact on one line. Stateless. */
public final class DoctorText {

    private DoctorText() {}

    public static String render(DoctorReport r) {
        StringBuilder out = new StringBuilder();
        out.append("numacube doctor  ").append(r.runtime().statusLine()).append('\n');
        if (r.fromSnapshot()) {
            out.append("(explaining the snapshot in ")
                    .append(r.runtime().root().root())
                    .append(", not this process: the process below is the one that saved it)\n");
        }
        topology(out, r.runtime().topology());
        binding(out, r.runtime().binding(), r.runtime().topology(), r.fromSnapshot());
        placement(out, r);
        plan(out, r.runtime().plan());
        jvm(out, r);
        r.checks().ifPresent(c -> checks(out, c, r.runtime().plan().dataNodes()));
        return out.toString();
    }

    private static void topology(StringBuilder out, Topology t) {
        out.append("\nMachine: ")
                .append(t.nodeCount())
                .append(t.nodeCount() == 1 ? " NUMA node" : " NUMA nodes")
                .append(", CPUs online ")
                .append(t.onlineCpus());
        if (!t.offlineCpus().isEmpty()) {
            out.append(", offline ").append(t.offlineCpus());
        }
        out.append('\n');
        StringBuilder header = new StringBuilder(
                String.format(Locale.ROOT, "  %-5s %-12s %11s %11s   distances to", "node", "cpus", "memory", "free"));
        for (NumaNode n : t.nodes()) {
            header.append(String.format(Locale.ROOT, " %4d", n.id()));
        }
        out.append(header).append('\n');
        for (NumaNode n : t.nodes()) {
            out.append(String.format(
                    Locale.ROOT,
                    "  %-5d %-12s %11s %11s   %12s",
                    n.id(),
                    n.hasCpus() ? n.cpus().toList() : "-",
                    Units.bytes(n.memTotalBytes()),
                    Units.bytes(n.memFreeBytes()),
                    ""));
            for (NumaNode m : t.nodes()) {
                out.append(String.format(Locale.ROOT, " %4d", t.distance(n.id(), m.id())));
            }
            if (!n.hasCpus()) {
                out.append("   memory only");
            } else if (!n.hasMemory()) {
                out.append("   CPUs only");
            }
            out.append('\n');
        }
        t.notes().forEach(note -> out.append("  note: ").append(note).append('\n'));
    }

    private static void binding(StringBuilder out, ProcessBinding b, Topology t, boolean snapshot) {
        out.append(snapshot ? "\nThe process that saved the snapshot\n" : "\nThis process\n");
        out.append("  may run on      CPUs ")
                .append(b.allowedCpus())
                .append(" (nodes ")
                .append(t.nodesOf(b.allowedCpus()))
                .append(")\n");
        out.append("  may allocate on nodes ").append(b.allowedMems()).append('\n');
        out.append("  memory policy   ").append(b.policy()).append('\n');
        out.append("  cgroup cpuset   ")
                .append(b.cpuset()
                        .map(c -> "v" + c.version() + " " + c.path() + ": cpus " + c.cpus() + ", mems " + c.mems())
                        .orElse("none (no cpuset controller)"))
                .append('\n');
        out.append("  automatic NUMA balancing ")
                .append(b.balancing().name().toLowerCase(Locale.ROOT).replace('_', ' '));
        if (b.balancing() == io.numacube.numa.binding.NumaBalancing.ON) {
            out.append(
                    " (it may migrate numacube's pages later; the kernel docs advise turning it off for bound workloads)");
        }
        out.append('\n');
        b.notes().forEach(note -> out.append("  note: ").append(note).append('\n'));
    }

    private static void placement(StringBuilder out, DoctorReport r) {
        PolicySupport s = r.runtime().policySupport();
        out.append("\nPlacement: ");
        if (r.fromSnapshot()) {
            out.append(
                    "not tried on the snapshot's machine (a snapshot holds no seccomp or capability facts); the plan "
                            + "assumes mbind and pinning work there — run 'numacube doctor --check-placement' on it to know\n");
            return;
        }
        switch (r.placementMethod()) {
            case "mbind" -> out.append("mbind works here: each partition is bound to its node with mbind(2)\n");
            case "first-touch" ->
                out.append("mbind is refused here: each partition is written first by a thread "
                        + "pinned to its node (first touch)\n");
            default -> out.append("no policy calls and no thread pinning here: the OS decides where pages go\n");
        }
        s.refusals()
                .forEach((call, why) ->
                        out.append("  ").append(call).append(": ").append(why).append('\n'));
        out.append(String.format(
                Locale.ROOT,
                "  works: mbind=%s set_mempolicy=%s get_mempolicy=%s move_pages=%s affinity=%s%n",
                yes(s.mbind()),
                yes(s.setMempolicy()),
                yes(s.getMempolicy()),
                yes(s.movePages()),
                yes(s.affinity())));
    }

    private static void plan(StringBuilder out, PlacementPlan p) {
        out.append("\nPlan\n");
        out.append("  data on nodes     ").append(p.dataNodes()).append('\n');
        out.append("  workers on nodes  ").append(p.workerNodes());
        if (!p.workerCpus().isEmpty()) {
            StringBuilder cpus = new StringBuilder();
            p.workerCpus()
                    .forEach((n, c) -> cpus.append(cpus.isEmpty() ? "" : "; ")
                            .append("node ")
                            .append(n)
                            .append(": CPUs ")
                            .append(c));
            out.append("  (").append(cpus).append(')');
        }
        out.append('\n');
        p.fillerNode().forEach((data, filler) -> {
            if (!data.equals(filler)) {
                out.append("  node ")
                        .append(data)
                        .append(" is filled and read by node ")
                        .append(filler)
                        .append("'s workers\n");
            }
        });
        if (p.everyAccessRemote()) {
            out.append("  WARNING: every memory access is remote (no allowed memory where the allowed CPUs are)\n");
        }
        p.reasons().forEach(reason -> out.append("  - ").append(reason).append('\n'));
    }

    private static void jvm(StringBuilder out, DoctorReport r) {
        JvmFacts j = r.jvm();
        out.append("\nJVM\n");
        out.append("  Java ")
                .append(j.version())
                .append(", GC ")
                .append(j.gc())
                .append(", -XX:")
                .append(j.useNuma() ? "+" : "-")
                .append("UseNUMA")
                .append(j.useNumaExplicit() ? "" : " (default)")
                .append('\n');
        out.append("  -XX:+UseNUMA here ")
                .append(verdict(r.useNuma()))
                .append(": ")
                .append(r.useNuma().reason())
                .append('\n');
        r.useNuma().advice().forEach(a -> out.append("  advice: ").append(a).append('\n'));
        r.useNumaBefore25().ifPresent(old -> {
            String older = "JDK " + (JvmNumaAdvisor.MISMATCH_RULE_SINCE - 1) + " and earlier";
            if (old.prediction() == r.useNuma().prediction()) {
                out.append("  on ").append(older).append(": the same\n");
                return;
            }
            out.append("  on ")
                    .append(older)
                    .append(" it ")
                    .append(verdict(old))
                    .append(": ")
                    .append(old.reason())
                    .append('\n');
            old.advice().stream()
                    .filter(a -> !r.useNuma().advice().contains(a))
                    .forEach(a -> out.append("  advice (")
                            .append(older)
                            .append("): ")
                            .append(a)
                            .append('\n'));
        });
    }

    private static String verdict(JvmNumaAdvice a) {
        return switch (a.prediction()) {
            case ON -> "would turn NUMA on";
            case OFF -> "would be turned off by the JVM";
            case NO_EFFECT -> "would have no effect";
            case NOT_REQUESTED -> "is not requested";
        };
    }

    private static void checks(
            StringBuilder out, PlacementChecks.Results c, io.numacube.numa.topology.NodeSet dataNodes) {
        out.append("\nPlacement check (segments written by each node's pinned workers, pages counted)\n");
        out.append(String.format(
                Locale.ROOT,
                "  %-5s %-12s %-12s %10s %9s  %-10s %s%n",
                "node",
                "asked",
                "applied",
                "size",
                "on node",
                "counted by",
                "pages by node"));
        for (PlacementChecks.SegmentResult s : c.segments()) {
            double pct = 100.0
                    * (s.node() >= 0 ? s.census().shareOn(s.node()) : s.census().shareOnAny(dataNodes));
            out.append(String.format(
                    Locale.ROOT,
                    "  %-5s %-12s %-12s %10s %8.1f%%  %-10s %s%n",
                    s.node() >= 0 ? String.valueOf(s.node()) : "all",
                    s.requested(),
                    s.applied(),
                    Units.bytes(s.bytes()),
                    pct,
                    PlacementChecks.label(s.census().method()),
                    s.census().pagesByNode()));
            s.fallbackReason()
                    .ifPresent(
                            why -> out.append("        fell back: ").append(why).append('\n'));
        }
        c.notes().forEach(n -> out.append("  note: ").append(n).append('\n'));
        out.append("  workers: ");
        c.workers()
                .forEach(w -> out.append("node ")
                        .append(w.node())
                        .append(' ')
                        .append(w.workers())
                        .append(w.workers() == 1 ? " worker" : " workers")
                        .append(" ran on CPUs ")
                        .append(w.cpusSeen())
                        .append(
                                w.allOnNode()
                                        ? " (all on node " + w.node() + ")"
                                        : " (NOT all on node " + w.node() + ": nodes " + w.nodesSeen() + ")")
                        .append("; "));
        out.append('\n');
        c.affinity()
                .forEach(a -> out.append("  scoped pin to node ")
                        .append(a.node())
                        .append(": CPUs ")
                        .append(a.during())
                        .append(", ran on nodes ")
                        .append(a.nodesSeen())
                        .append(", affinity ")
                        .append(
                                a.restored()
                                        ? "restored to " + a.after()
                                        : "NOT restored: " + a.before() + " -> " + a.after())
                        .append('\n'));
    }

    private static String yes(boolean b) {
        return b ? "yes" : "no";
    }
}
