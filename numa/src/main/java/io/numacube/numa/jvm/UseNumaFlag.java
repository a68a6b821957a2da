package io.numacube.numa.jvm;

/** How {@code UseNUMA} was given on the java command line. */
public enum UseNumaFlag {
    /** {@code -XX:+UseNUMA} */
    ON,
    /** {@code -XX:-UseNUMA} */
    OFF,
    /** not given: the GC's default applies (ZGC turns it on, the others leave it off) */
    DEFAULT
}
