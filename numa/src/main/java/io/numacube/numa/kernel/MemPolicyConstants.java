package io.numacube.numa.kernel;

/** The kernel's numbers for memory-policy modes, flags and madvise advice (include/uapi/linux/mempolicy.h). */
public final class MemPolicyConstants {
    public static final int MPOL_DEFAULT = 0;
    public static final int MPOL_PREFERRED = 1;
    public static final int MPOL_BIND = 2;
    public static final int MPOL_INTERLEAVE = 3;
    public static final int MPOL_LOCAL = 4;
    public static final int MPOL_PREFERRED_MANY = 5;
    public static final int MPOL_WEIGHTED_INTERLEAVE = 6;

    public static final int MPOL_F_STATIC_NODES = 1 << 15;
    public static final int MPOL_F_RELATIVE_NODES = 1 << 14;
    public static final int MPOL_MODE_FLAGS = MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES;

    public static final int MPOL_F_NODE = 1;
    public static final int MPOL_F_ADDR = 2;
    public static final int MPOL_F_MEMS_ALLOWED = 4;

    public static final int MPOL_MF_STRICT = 1;
    public static final int MPOL_MF_MOVE = 2;
    public static final int MPOL_MF_MOVE_ALL = 4;

    public static final int MADV_HUGEPAGE = 14;
    public static final int MADV_NOHUGEPAGE = 15;
    /** Linux 5.14+: faults the range in writable as a write would, without writing (EINVAL before). */
    public static final int MADV_POPULATE_WRITE = 23;

    private MemPolicyConstants() {}
}
