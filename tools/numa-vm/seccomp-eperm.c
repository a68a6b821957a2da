/*
 * seccomp-eperm - run a command with the NUMA memory-policy system calls refused with EPERM,
 * as Docker's (and containerd's) default seccomp profile does for a container without
 * CAP_SYS_NICE: mbind, set_mempolicy, get_mempolicy, move_pages and migrate_pages fail with
 * errno EPERM; every other system call is allowed.
 *
 *   usage: seccomp-eperm COMMAND [ARG...]        (execvp's COMMAND under the filter)
 *
 * The filter is inherited by every child and thread and cannot be lifted. It is a raw classic
 * BPF program (no libseccomp): it checks the audit architecture (x86_64 and aarch64; any other
 * architecture, e.g. i386 system calls made from an x86_64 process, kills the process, so the
 * filter cannot be bypassed through another system call table), and masks the x32 bit so x32
 * calls are refused too. Needs no privilege: PR_SET_NO_NEW_PRIVS is set first.
 *
 * Build: gcc -O2 -Wall -o build/seccomp-eperm tools/numa-vm/seccomp-eperm.c
 * Exit status: COMMAND's, or 126 if the filter could not be installed, 127 if COMMAND could
 * not be executed, 2 for a usage error.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef AUDIT_ARCH_AARCH64
#define AUDIT_ARCH_AARCH64 0xC00000B7u
#endif
#define X32_SYSCALL_BIT 0x40000000u

/* x86_64 numbers (arch/x86/entry/syscalls/syscall_64.tbl) */
#define X86_64_MBIND 237
#define X86_64_SET_MEMPOLICY 238
#define X86_64_GET_MEMPOLICY 239
#define X86_64_MIGRATE_PAGES 256
#define X86_64_MOVE_PAGES 279
/* aarch64 numbers (include/uapi/asm-generic/unistd.h) */
#define A64_MBIND 235
#define A64_GET_MEMPOLICY 236
#define A64_SET_MEMPOLICY 237
#define A64_MIGRATE_PAGES 238
#define A64_MOVE_PAGES 239

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
/* if A == nr: jump to the EPERM return (the last instruction), `to_deny` instructions after the next */
#define DENY_IF(nr, to_deny) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), (to_deny), 0)

static struct sock_filter filter[] = {
    LOAD(arch),                                                       /* 0 */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 8),     /* 1: not x86_64 -> 10 */
    LOAD(nr),                                                         /* 2 */
    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, ~X32_SYSCALL_BIT),            /* 3 */
    DENY_IF(X86_64_MBIND, 12),                                        /* 4 -> 17 */
    DENY_IF(X86_64_SET_MEMPOLICY, 11),                                /* 5 -> 17 */
    DENY_IF(X86_64_GET_MEMPOLICY, 10),                                /* 6 -> 17 */
    DENY_IF(X86_64_MIGRATE_PAGES, 9),                                 /* 7 -> 17 */
    DENY_IF(X86_64_MOVE_PAGES, 8),                                    /* 8 -> 17 */
    RET(SECCOMP_RET_ALLOW),                                           /* 9 */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_AARCH64, 0, 5),    /* 10: not aarch64 -> 16 */
    LOAD(nr),                                                         /* 11 */
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, A64_MBIND, 0, 2),             /* 12: nr < 235 -> 15 */
    BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, A64_MOVE_PAGES, 1, 0),        /* 13: nr > 239 -> 15 */
    BPF_JUMP(BPF_JMP | BPF_JA, 2, 0, 0),                              /* 14: 235..239 -> 17 */
    RET(SECCOMP_RET_ALLOW),                                           /* 15 */
    RET(SECCOMP_RET_KILL_PROCESS),                                    /* 16: any other arch */
    RET(SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),              /* 17 */
};

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fprintf(argc < 2 ? stderr : stdout,
                "usage: seccomp-eperm COMMAND [ARG...]\n"
                "Runs COMMAND with mbind, set_mempolicy, get_mempolicy, move_pages and migrate_pages\n"
                "failing with EPERM (like Docker's default seccomp profile without CAP_SYS_NICE).\n");
        return argc < 2 ? 2 : 0;
    }
    struct sock_fprog prog = {
        .len = (unsigned short) (sizeof filter / sizeof filter[0]),
        .filter = filter,
    };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        fprintf(stderr, "seccomp-eperm: prctl(PR_SET_NO_NEW_PRIVS) failed: %s\n", strerror(errno));
        return 126;
    }
#ifdef SYS_seccomp
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
#endif
    {
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
            fprintf(stderr, "seccomp-eperm: installing the seccomp filter failed: %s "
                            "(kernel without CONFIG_SECCOMP_FILTER?)\n", strerror(errno));
            return 126;
        }
    }
    execvp(argv[1], argv + 1);
    fprintf(stderr, "seccomp-eperm: cannot execute %s: %s\n", argv[1], strerror(errno));
    return 127;
}
