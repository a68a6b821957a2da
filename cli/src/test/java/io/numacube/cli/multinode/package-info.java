/**
 * Host-side assertions of the multi-node VM stage ({@code tools/numa-vm/stage}): the stage boots a real Linux kernel
 * with several NUMA nodes in QEMU, runs {@code numacube doctor} under numactl/taskset/seccomp prefixes and the numa
 * module's multinode JUnit tests inside, and leaves the results under {@code build/numa-vm-results/<config>/};
 * these tests, tagged {@code multinode} and run with {@code -Dnumavm.results=DIR}, check the "Done means"
 * on those files. A missing file is a failure, never a skip.
 */
package io.numacube.cli.multinode;
